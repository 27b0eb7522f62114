#pragma once
// One running copy of the scene. The app and the headless runner hold one pane, or 2..4 side by
// side when the scene has a "compare" list or --compare is given (engine/io/compare_panes.hpp).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "io/run_stats.hpp"
#include "io/scene.hpp"
#include "simulation/replay_buffer.hpp"
#include "simulation/simulation_view.hpp"

namespace app {

struct PaneScene {
  std::string label;  ///< "" when the scene runs alone
  cloth::Scene scene;
  nlohmann::json document;  ///< the file with the overrides and the pane's own applied (for saving)
  std::string source_dir;   ///< where the file's relative paths resolve from
};

/// What the panel's Cloth section shows and changes by rebuilding the cloth: the generated grid
/// (unset for a mesh file), the scene's pins and its slides.
struct ClothLayout {
  std::optional<cloth::GridSpec> grid;
  std::vector<cloth::PinSpec> pins;
  std::vector<cloth::SlideSpec> slides;
};

/// A change of the cloth's layout: each part that changed, the others unset.
struct ClothEdit {
  std::optional<cloth::GridSpec> grid = std::nullopt;
  std::optional<std::vector<cloth::PinSpec>> pins = std::nullopt;
  std::optional<std::vector<cloth::SlideSpec>> slides = std::nullopt;
};

struct Pane {
  std::string label;
  std::unique_ptr<cloth::Simulation> sim;
  nlohmann::json document;  ///< PaneScene::document
  std::string source_dir;
  cloth::DrapeSettings drape;  ///< the Static drape section's settings (the scene's "drape")
  ClothLayout layout;          ///< the scene's grid, pins and slides (the Cloth section's)
  cloth::RunStats run_stats;
  double accumulator = 0;  ///< real time not yet simulated, s (each pane has its own dt)
  double sim_ms = 0;       ///< wall time of its steps in the last displayed frame, ms
  int steps = 0;           ///< its fixed steps in the last displayed frame
  cloth::ReplayBuffer replay;  ///< the last seconds of its run, for the replay timeline
  cloth::ReplayFrame shown;    ///< the moment the timeline shows, while it shows the past

  /// What the displays read: the run now, or `shown` while the timeline shows the past (the run
  /// now when its buffer held no frame to show).
  cloth::SimulationView view(bool replaying) const {
    return replaying && shown.model ? cloth::SimulationView(*sim, shown) : cloth::SimulationView(*sim);
  }
};

/// The scene the panes share, for what speaks of all of them (the window title, the picture's
/// caption, the camera): the first pane's, named without its " [label]".
cloth::Scene shared_scene(const std::vector<PaneScene>& scenes);

/// The running panes as scenes again, with every live setting (scene_writer.hpp) and `edit`
/// applied: the panel's rebuild of what needs a new cloth. Pins and slides are replaced by the
/// edit's when it has them; a new grid replaces the mesh, and pins and slides named by row,
/// column or vertex index move to the same place (in grid coordinates) on it. Throws
/// cloth::InputError for a grid edit of a mesh read from a file or a bad value (a pin that does
/// not fit the new grid is make_panes' error).
std::vector<PaneScene> scenes_rebuilt(const std::vector<Pane>& panes, const ClothEdit& edit,
                                      const cloth::CameraSpec& camera, std::vector<std::string>& warnings);

/// A scene-file collider entry for a new solid of `type` ("sphere", "box" or "capsule"), sized
/// to the cloth (about a third of its extent) and placed just below its lowest point, centred
/// under it: the panel's "Add solid". Throws cloth::InputError for another type.
nlohmann::json new_solid_entry(const cloth::Simulation& sim, const std::string& type);

/// Adds the solid `entry` (a scene-file collider entry) to the pane's simulation and to its
/// document, so that a saved scene has it. Returns its index. Throws cloth::InputError.
int add_pane_collider(Pane& pane, const nlohmann::json& entry);

/// The solids that pins of the pane's scene follow ("collider": k). Their pins took a copy of
/// the solid's path when the scene was built, so the path stays fixed while the scene runs.
std::vector<int> solids_pins_follow(const Pane& pane);

/// Removes solid k from the pane's simulation and its document (pins that follow a later solid
/// are renumbered). Throws cloth::InputError for a solid a pin follows, or no solid k.
void remove_pane_collider(Pane& pane, int k);

/// A pane per scene, its simulation built, its replay buffer given an equal share of
/// cloth::ReplayBuffer's default memory budget. Throws cloth::InputError.
std::vector<Pane> make_panes(const std::vector<PaneScene>& scenes);

/// The --stats document of several panes: the first pane's run statistics at the top level (as
/// for one pane) and {"label", ...run statistics} per pane in "panes".
nlohmann::json panes_stats_json(const std::vector<Pane>& panes);

}  // namespace app
