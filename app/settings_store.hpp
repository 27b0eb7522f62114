#pragma once
// What the interactive app keeps between runs (the camera and the panel layout persist):
// settings.json with the view options, the plots toggle and the camera of each scene file last
// shown, next to ImGui's imgui.ini (the panel's place and size), both in config_dir(). Headless
// runs neither read nor write them, so videos and screenshots depend on the command line only.
#include <glm/glm.hpp>
#include <map>
#include <string>

#include "render/camera.hpp"
#include "render/view_options.hpp"

namespace app {

struct CameraPose {
  glm::vec3 target{0.0f};  ///< m
  float distance = 1.0f;   ///< m
  float yaw_deg = 0.0f;    ///< degrees
  float pitch_deg = 0.0f;  ///< degrees

  static CameraPose of(const OrbitCamera& camera);
  void apply_to(OrbitCamera& camera) const;
};

struct SavedSettings {
  ViewOptions view;
  bool show_plots = false;
  float ui_scale = 1.0f;  ///< the panel's presentation scale (ui_scale.hpp)
  std::map<std::string, CameraPose> cameras;  ///< by scene_key()
};

/// $XDG_CONFIG_HOME/clothsim, else $HOME/.config/clothsim; "" when neither variable is set
/// (nothing is then persisted).
std::string config_dir();

/// The key a scene file's camera is kept under: its absolute, normalised path.
std::string scene_key(const std::string& scene_path);

/// Reads `path`. A missing file gives the defaults; an unreadable or malformed one gives the
/// defaults and a one-line `warning` (the app must start whatever is in there).
SavedSettings load_settings(const std::string& path, std::string& warning);

/// Writes `path` (creating its folder) through a temporary file and a rename, so a crash never
/// leaves half a file. Throws std::runtime_error naming the path.
void save_settings(const std::string& path, const SavedSettings& settings);

}  // namespace app
