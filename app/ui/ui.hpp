#pragma once
// The ImGui control panel: every simulation parameter live (each with its unit in a tooltip),
// view toggles, run statistics, and the F1 help overlay. Owns the ImGui context and backends.
#include <optional>
#include <string>
#include <vector>

#include "simulation/simulation.hpp"
#include "run/drape_job.hpp"
#include "render/gl.hpp"
#include "ui/imgui_session.hpp"
#include "run/pane.hpp"
#include "run/pane_runner.hpp"
#include "ui/pane_overlay.hpp"
#include "run/paths.hpp"
#include "render/renderer.hpp"
#include "run/step_history.hpp"
#include "render/camera.hpp"
#include "run/compare_setup.hpp"
#include "run/replay_player.hpp"

namespace app {

/// App state the panel shows and edits.
struct UiState {
  bool paused = false;
  bool show_help = false;
  bool show_plots = false;  ///< the live plots window (P)
  float time_scale = 1.0f;  ///< simulated seconds per real second (slow motion below 1)
  float render_scale = 1.0f;  ///< the panes drawn at this fraction of the window (render_scale.hpp)
  ViewOptions view;
  ReplayPlayer replay;  ///< live, or a past moment of the run (the simulations wait meanwhile)
};

/// Numbers measured by the App for the Stats section.
struct UiStats {
  double fps = 0;           ///< displayed frames per second
  double frame_ms = 0;      ///< wall time per displayed frame, ms
  double sim_ms = 0;        ///< wall time spent in sim->step() per displayed frame, ms
  int steps_per_frame = 0;  ///< fixed steps taken in the last displayed frame
  int dropped_steps = 0;    ///< steps dropped so far because the machine could not keep up
  bool behind = false;      ///< steps were dropped in the last few seconds
  /// Simulated seconds per real second over the last half second of the running panes (1 =
  /// real time; the slow-motion speed when the solver keeps up); negative until measured.
  double realtime_factor = -1;
  bool quit_asked = false;  ///< Escape was pressed once: a second one quits
  long long skipped_draws = 0;  ///< loop passes that skipped drawing to keep the simulation on time
  bool recording = false;
  std::string recording_path;
  int recorded_frames = 0;
  double recorded_seconds = 0;  ///< length of the video so far (frames at the fixed rate), s
  std::string sequence_dir;     ///< the OBJ sequence being written ("" = none)
  int sequence_frames = 0;
  std::string point_cache_path;  ///< the point cache being written ("" = none)
  int point_cache_samples = 0;
  std::string message;  ///< last status line (screenshot written, recording error, ...)
  std::string scene_path;   ///< the scene file running
  std::string caption;      ///< the running scene's name (the picture's caption)
  std::string scene_error;  ///< why the last scene load failed ("" = it did not)
  std::vector<int> solids_pins_follow;  ///< their paths stay fixed while the scene runs
  const cloth::ReplayBuffer* timeline = nullptr;  ///< the first pane's replay buffer (the timeline's)
  StepHistory history;  ///< the last steps, for the live plots
};

/// `error` in red, wrapped at the panel's width; nothing when it is empty.
void error_line(const std::string& error);

/// What the stepping panel asks for, carried out when the running steps end.
struct SteppingActions {
  bool reset = false;
  std::optional<cloth::SolverSettings> solver = std::nullopt;  ///< the Simulation section's settings, edited
};

/// Buttons pressed this frame; the App carries them out.
struct UiActions {
  bool reset = false;
  bool step = false;
  bool toggle_recording = false;
  bool toggle_sequence = false;     ///< start / stop the OBJ sequence (Scene section)
  bool toggle_point_cache = false;  ///< start / stop the PC2 point cache (Scene section)
  bool screenshot = false;
  bool reset_camera = false;
  int activate_pane = -1;  ///< side by side: the pane picked for the panels to edit
  std::optional<CameraPreset> camera_preset = std::nullopt;  ///< a View button: front, side or top
  std::string load_scene = "";  ///< a scene file to load instead of the current one ("" = none)
  std::string save_scene = "";  ///< save the active pane as a scene file here ("" = no)
  std::optional<ClothEdit> rebuild = std::nullopt;  ///< rebuild the cloth with this grid, pins or slides
  std::string add_solid = "";   ///< "sphere", "box", "capsule": add one under the cloth ("" = no)
  int remove_solid = -1;        ///< >= 0: remove this solid
  /// Run the scene side by side with this --compare spec ("" = back to one cloth).
  std::optional<std::string> compare = std::nullopt;
};

class Ui {
 public:
  /// Installs the GLFW + OpenGL3 backends (chains callbacks); the panel layout is kept in
  /// `ini_path` ("" = not kept).
  Ui(GLFWwindow* window, const std::string& ini_path);
  Ui(const Ui&) = delete;
  Ui& operator=(const Ui&) = delete;

  void begin_frame();
  /// The panels edit `sim`, its pane's static drape settings `drape` and (by a rebuild) its
  /// cloth's `layout`; `panes` (empty for a single cloth) are labelled and can be picked.
  UiActions build(cloth::Simulation& sim, cloth::DrapeSettings& drape, const ClothLayout& layout, UiState& state,
                  const UiStats& stats, const std::vector<PaneSummary>& panes);
  /// While steps run on the worker (no simulation may be read): the picture's caption and
  /// status line and, in the panel's place, how long the steps have run, what they run, pause,
  /// reset, and the solver's settings (integrator, dt, substeps, ...) on `progress`' copy, which
  /// take effect when the steps end.
  SteppingActions build_stepping(StepProgress& progress, double now, UiState& state, const UiStats& stats);
  /// Draws the UI into the bound framebuffer (after the scene).
  void render();

  /// Right edge of the control panel (window px) while it is open and at the window's left
  /// edge, else 0: side-by-side panes are laid out to its right so it covers none of them.
  double panel_right_edge() const { return panel_docked_ ? panel_rect_.left + panel_rect_.width : 0.0; }
  /// The Scene section's "save as" path (Ctrl+S saves there too).
  std::string save_path() const { return save_path_; }
  /// Where the control panel was drawn last frame (window px).
  const PaneRect& panel_rect() const { return panel_rect_; }
  /// Whether the panel has taken its width: an auto-sized ImGui window is measured on its first
  /// frame and sized on the second. The stepping panel takes that width, so that side-by-side
  /// panes keep their place when it appears.
  bool panel_laid_out() const;
  /// Presentation scale of the panel's text and widgets (ImGuiSession::set_scale); the panel's
  /// width follows on the next frame. Between frames.
  void set_scale(float scale);
  float scale() const { return imgui_.scale(); }

  /// Whether a press at window point (x, y) belongs to the UI: it lands on one of the windows as
  /// last drawn (tooltips aside), or a dropdown is open (a click outside closes it). Decided from
  /// the point, not from ImGui's hover state, which only a drawn frame updates: a press made
  /// while the app skips draws must still reach the cloth.
  bool covers(double x, double y) const;
  bool wants_keyboard() const;
  /// A dropdown, menu or other (non-modal) popup is open.
  bool popup_open() const;
  /// Closes the open dropdowns and popups (Escape's first press: without keyboard navigation,
  /// which would take the app's keys, ImGui 1.86 does not close them itself).
  void close_popups();

 private:
  void scene_section(const UiStats& stats, bool side_by_side, UiActions& actions);
  /// The built-in scenes by file and what each shows; a file of the user's is named as such.
  void scene_picker(const std::string& scene_path, UiActions& actions);
  /// The side-by-side setup: a parameter, 2..4 values, start and stop.
  void compare_setup(bool side_by_side, UiActions& actions);
  /// `timeline`: the replay buffer its Replay button plays (null: none).
  void simulation_section(cloth::Simulation& sim, UiState& state, const cloth::ReplayBuffer* timeline,
                          UiActions& actions);
  void material_section(cloth::Simulation& sim);
  void forces_section(cloth::Simulation& sim);
  void collisions_section(cloth::Simulation& sim, const UiStats& stats, UiActions& actions);
  void tearing_section(cloth::Simulation& sim);
  /// The grid, pins and slides: edited in a draft, rebuilt once an edit is complete.
  void cloth_section(const cloth::Simulation& sim, const ClothLayout& layout, UiActions& actions);
  /// The heat map's colour bar with its strain labels (top = strain in red).
  void heat_map_legend(float top);
  void drape_section(cloth::Simulation& sim, cloth::DrapeSettings& settings);
  /// Puts a finished background drape's result into the simulation.
  void apply_finished_drape(cloth::Simulation& sim);
  void view_section(UiState& state, const UiStats& stats, UiActions& actions);
  void stats_section(const cloth::Simulation& sim, const UiStats& stats);
  void plots_window(const cloth::Simulation& sim, UiState& state, const StepHistory& history);
  void help_overlay(UiState& state);

  /// A panel whose left edge is within this many px of the window's counts as docked there.
  static constexpr float kDockedPanelSlack = 40.0f;
  /// Steps slower than this, s, are named in the stepping panel.
  static constexpr double kSlowStepNote = 0.5;
  /// The wind speed a wind picked in the panel starts at, m/s: a moderate breeze (Beaufort 4).
  static constexpr double kFirstWindSpeed = 6.0;
  /// Where the panel opens, px from the window's top-left corner.
  static constexpr float kPanelPosition = 10.0f;
  /// The panel's width at scale 1, px.
  static constexpr float kPanelWidth = 340.0f;

  ImGuiSession imgui_;
  PaneRect panel_rect_;
  bool panel_docked_ = false;
  bool resize_panel_ = false;  ///< the scale changed: the panel takes its new width
  float widest_panel_ = 0;     ///< px: the panel's width so far, below which it does not narrow
  std::string solver_error_;    ///< last rejected solver edit, shown in red
  std::string tearing_error_;   ///< last rejected tearing edit
  std::string material_error_;  ///< last rejected material edit
  std::string forces_error_;    ///< last rejected gravity / wind / drag edit
  std::string collider_error_;  ///< last rejected edit of a solid
  DrapeJob drape_;              ///< the static drape being solved in the background
  std::string drape_status_;             ///< last drape's outcome, one line
  char save_path_[512] = "";             ///< the Scene section's "save as" field
  char open_path_[512] = "";             ///< the Scene section's "open a file" field
  std::vector<SceneFile> scene_files_;   ///< the picker's list, read when it opens
  ClothLayout layout_draft_;             ///< the Cloth section's values
  const ClothLayout* draft_of_ = nullptr;  ///< the layout the draft was copied from
  bool grid_edited_ = false, pins_edited_ = false, slides_edited_ = false;  ///< not rebuilt yet
  std::string save_path_scene_;          ///< the scene file save_path_ was proposed for
  int compare_preset_ = 0;               ///< the side-by-side setup's parameter (compare_presets())
  CompareDraft compare_draft_ = app::compare_draft(0);
  std::string compare_error_;            ///< why the last side-by-side request was refused
};

}  // namespace app
