#pragma once
// The "app" object the interactive app adds to its --stats JSON: window size, where the grid's
// corners are on screen, and every mouse grab. The end-to-end test drives the real app with
// xdotool from these numbers (see tests/app/drag_corner_test.sh).
#include <glm/glm.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "render/camera.hpp"
#include "simulation/simulation.hpp"
#include "input/mouse_controller.hpp"
#include "run/pane_layout.hpp"

namespace app {

struct AppSnapshot {
  WindowExtent window;          ///< window size, window coordinates
  PaneRect pane{0, 0, 1, 1};    ///< the pane the cloth is drawn in, window coordinates
  glm::ivec2 window_pos{0, 0};  ///< top-left of the client area on the screen, px
  bool paused = false;
  int displayed_frames = 0;
  std::string scene_path;   ///< the scene file running
  std::string scene_error;  ///< why the last scene load failed ("" = it did not)
  std::string message;      ///< the panel's last status line
};

/// {"window": [w, h], "window_pos": [x, y], "corner_screen_px": {...} (grid meshes only),
///  "grab_log": [...], "paused": bool, "displayed_frames": n}. Screen pixels have their origin
/// at the top-left of the screen, as X and xdotool use; the corners are where `sim`'s cloth is
/// seen in snapshot.pane.
nlohmann::json make_app_stats(const cloth::Simulation& sim, const OrbitCamera& camera,
                              const AppSnapshot& snapshot, const std::vector<GrabRecord>& grab_log);

/// Writes `doc` to `path` through a temporary file and a rename, so a reader polling the file
/// (the end-to-end test) never sees it half-written. Throws cloth::InputError like write_json.
void write_json_atomically(const std::string& path, const nlohmann::json& doc);

}  // namespace app
