#pragma once
// Where things are read from and written to.
#include <string>
#include <vector>

namespace app {

std::string default_scene_path();  ///< ${CLOTHSIM_ASSET_DIR}/scenes/default.json
std::string default_shader_dir();  ///< ${CLOTHSIM_SHADER_DIR}
std::string texture_dir();         ///< ${CLOTHSIM_ASSET_DIR}/textures

/// A scene file as the panel's picker lists it.
struct SceneFile {
  std::string path;     ///< full path
  std::string name;     ///< the scene's "name" ("" when it has none or cannot be read)
  std::string summary;  ///< what the picker shows beside the file: the name up to its first ':',
                        ///< cut at a word after 48 characters
};
/// Every .json of `dir`, sorted by path. A file that is not a readable scene document is listed
/// with an empty name: loading it is what reports why.
std::vector<SceneFile> scene_files_in(const std::string& dir);
/// The built-in scenes: scene_files_in the default scene's folder.
std::vector<SceneFile> builtin_scenes();

/// Creates the parent directory of an output path if it is missing. Only for the app's own
/// default names (out/screenshot-*.png, out/recording-*.mp4); paths the user typed are checked
/// with check_output_path instead, never created. Failures are ignored here: the writer reports
/// them with the path.
void ensure_parent_dir(const std::string& path);

/// Throws cloth::InputError naming the option and the path if `path`'s directory does not exist,
/// so a typo in an output path fails at start-up, not after a long run.
void check_output_path(const std::string& option, const std::string& path);

/// Where "Save scene" proposes to write the running scene of `scene_path`:
/// out/<its file name without .json>-saved.json.
std::string default_save_path(const std::string& scene_path);

/// Local time as YYYYMMDD-HHMMSS, for default recording / screenshot names.
std::string timestamp();

}  // namespace app
