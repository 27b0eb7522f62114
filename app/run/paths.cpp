#include "run/paths.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <system_error>

#include "core/error.hpp"
#include "io/scene.hpp"

namespace app {

std::string default_scene_path() {
  return std::string(CLOTHSIM_ASSET_DIR) + "/scenes/default.json";
}

std::string texture_dir() {
  return std::string(CLOTHSIM_ASSET_DIR) + "/textures";
}

std::string default_shader_dir() {
  return CLOTHSIM_SHADER_DIR;
}

// Beyond this, a summary is cut at a word: the picker's list stays narrower than a small window.
constexpr size_t kSummaryChars = 48;

std::vector<SceneFile> scene_files_in(const std::string& dir) {
  std::vector<SceneFile> files;
  std::error_code ec;
  // Incremented with an error code: a folder that goes away while it is read ends the list.
  for (auto it = std::filesystem::directory_iterator(dir, ec); !ec && it != std::filesystem::directory_iterator();
       it.increment(ec)) {
    const std::filesystem::directory_entry& entry = *it;
    if (entry.path().extension() != ".json") continue;
    SceneFile file;
    file.path = entry.path().string();
    try {
      const nlohmann::json doc = cloth::load_scene_document(file.path, {});
      if (doc.is_object() && doc.contains("name") && doc["name"].is_string()) file.name = doc["name"];
    } catch (const std::exception&) {
      // Listed all the same: picking it loads it, and the load says what is wrong.
    }
    file.summary = file.name.substr(0, file.name.find(':'));
    if (file.summary.size() > kSummaryChars) {  // a name without a ':' is a whole sentence
      const size_t word = file.summary.rfind(' ', kSummaryChars);
      file.summary.resize(word == std::string::npos ? kSummaryChars : word);
      file.summary += " ...";
    }
    files.push_back(std::move(file));
  }
  std::sort(files.begin(), files.end(), [](const SceneFile& a, const SceneFile& b) { return a.path < b.path; });
  return files;
}

std::vector<SceneFile> builtin_scenes() {
  return scene_files_in(std::filesystem::path(default_scene_path()).parent_path().string());
}

void ensure_parent_dir(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code ignored;
  std::filesystem::create_directories(parent, ignored);
}

void check_output_path(const std::string& option, const std::string& path) {
  if (path.empty()) return;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw cloth::InputError(option + " '" + path + "' is a directory, expected a file name");
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    throw cloth::InputError(option + " '" + path + "': directory '" + parent.string() +
                            "' does not exist");
}

std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &local);
  return buf;
}

std::string default_save_path(const std::string& scene_path) {
  const std::string stem = std::filesystem::path(scene_path).stem().string();
  return "out/" + (stem.empty() ? std::string("scene") : stem) + "-saved.json";
}

}  // namespace app
