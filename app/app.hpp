#pragma once
// The interactive desktop app: one window, one simulation (or 2..4 side by side, pane.hpp)
// stepped by the GL-free runner (run/pane_runner.hpp), the renderer, the ImGui panel,
// mouse/keyboard interaction, optional recording, screenshots and the live --stats file. The
// panels edit the active pane: the one last clicked.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/vec2.hpp>

#include "render/camera.hpp"
#include "run/draw_pacer.hpp"
#include "run/frame_timing.hpp"
#include "io/run_stats.hpp"
#include "io/scene.hpp"
#include "render/gl_context.hpp"
#include "input/key_bindings.hpp"
#include "input/mouse_controller.hpp"
#include "options.hpp"
#include "capture/recorder.hpp"
#include "settings_store.hpp"
#include "render/renderer.hpp"
#include "render/scene_layer.hpp"
#include "run/pane.hpp"
#include "run/pane_runner.hpp"
#include "run/pane_layout.hpp"
#include "ui/ui.hpp"

namespace app {

class App {
 public:
  /// Display rate cap, Hz: Xvfb and some drivers do not block on vsync.
  static constexpr double kMaxDisplayHz = 60.0;
  // Steps slower than the runner's wait go on while the window draws the last picture and
  // answers the keys that do not touch the run (stepping_panel).
  static_assert(PaneRunner::kStepWait >= DrawPacer::kMaxDrawGap,
                "a wait shorter than the draw gap is a draw the pacer may skip");
  /// How often the --stats file is refreshed while running, s.
  static constexpr double kStatsPeriod = 0.5;

  /// Opens the window and builds everything. Throws NoDisplayError / std::runtime_error /
  /// cloth::InputError.
  App(const Options& options, const std::vector<PaneScene>& scenes);
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  /// Runs until the window closes (Esc, close button, --quit-after-frames). Returns the exit code.
  int run();

  /// Says in the panel (Scene section, in red) and on stdout that the scene file at `path` did
  /// not load and why; the running scene stays.
  void show_scene_error(const std::string& path, const std::string& error);

 private:
  void on_key(int key, int action, int mods);
  void run_command(Command command);
  void on_mouse_button(int button, int action, int mods);
  /// A press or release at window point (x, y).
  struct MouseInput {
    int button = 0, action = 0, mods = 0;
    double x = 0, y = 0;
  };
  void mouse_button(const MouseInput& in);
  void on_cursor(double x, double y);
  void cursor_moved(double x, double y);
  /// The keys, clicks and the last cursor move that came while a step ran, in their order.
  void run_deferred_input();
  void on_scroll(double dy);
  /// F11: the primary monitor's whole screen, and back to the window's place and size.
  void toggle_fullscreen();
  /// Applies the Ctrl + / Ctrl - / Ctrl 0 presses since the last frame (kept in settings.json).
  void apply_ui_scale_keys();

  /// One pass of the runner for `real_dt` seconds of wall time (or of the replay while it shows
  /// the past). Returns whether steps that ran on past the wait ended in this pass (its frame
  /// must be drawn). `start_steps` false (the last frame): none are started.
  bool advance(double real_dt, bool start_steps);
  /// Adds a pass's booked steps to the plots, the video time and the panel's readouts, then
  /// runs the input that waited for them (`run_input`) or drops it (quitting).
  void book(const PassResult& pass, bool run_input);
  /// While the replay shows the past: moves a playing replay on; the simulations take no steps.
  void advance_replay(double real_dt);
  /// Loads each pane's `shown` frame for the moment the replay shows. Called before anything
  /// reads the panes' views, because a key or the panel may start a replay between two passes.
  void load_replay_frames();
  /// The replay buffer the timeline follows: the first pane's (side by side, every pane shows
  /// its own at the same moment).
  const cloth::ReplayBuffer& timeline() const { return panes().front().replay; }
  /// How the runner's passes run now (pause, time scale).
  PassControls pass_controls() const;
  /// Makes pane k the one the panels edit.
  void activate(int k);
  std::vector<Pane>& panes() { return runner_.panes(); }
  const std::vector<Pane>& panes() const { return runner_.panes(); }
  int active() const { return runner_.active(); }
  cloth::Simulation& active_sim() { return *panes()[size_t(active())].sim; }
  /// Clears what the panel counts of a run (the plots' history, the dropped steps): on R and on a
  /// scene load the counting starts again with the run.
  void forget_run_counters();
  /// What the picture and the panel show of each pane.
  std::vector<PaneSummary> pane_summaries() const;
  /// The panes' rectangles in window coordinates, to the right of a docked panel: the panel never
  /// covers the cloth.
  std::vector<PaneRect> window_pane_rects() const;
  /// The same in framebuffer pixels.
  std::vector<PaneRect> framebuffer_pane_rects(int fb_w, int fb_h) const;
  double panel_inset() const;  ///< window px left to the control panel
  void apply(const UiActions& actions);
  /// Replaces the running scene by the file at `path` (its panes, camera, title); a file that
  /// does not load keeps the current scene and shows why.
  void load_scene_file(const std::string& path);
  /// Runs `options`' scene in place of the current one (load_scene_file's work); a scene that
  /// does not load keeps the current one and shows why.
  void load_scene(Options options);
  void reset_camera();
  /// Writes the active pane's scene as it runs now to `path` (scene_writer.hpp); reports either way.
  void save_scene(const std::string& path);
  /// Rebuilds every pane's cloth with `edit` applied, live settings kept (scenes_rebuilt).
  void rebuild(const ClothEdit& edit);
  /// Puts new panes in place of the running ones; the mouse lets go of the old cloth.
  void install_panes(std::vector<Pane> fresh, std::vector<std::unique_ptr<Renderer>> renderers);
  /// The current view as a scene file's camera.
  cloth::CameraSpec camera_spec() const;
  /// The camera this scene file was last left with, if the settings remember one.
  void restore_saved_camera();
  /// Writes the view and the current scene's camera to the settings file (if there is one).
  void persist_settings();
  void toggle_recording();
  /// The Scene panel's OBJ sequence / point cache: start one in out/, or stop the running one.
  void toggle_sequence();
  void toggle_point_cache();
  /// Reads the back buffer (before the swap) for the recording / a screenshot.
  void capture_video_frame(int fb_w, int fb_h);
  void save_screenshot(const std::string& path, int fb_w, int fb_h);
  /// Draws the panes into the fb_w x fb_h window, through scene_layer_ at a reduced render
  /// scale or while steps are slow (so that show_kept_picture can show it again).
  void draw_picture(int fb_w, int fb_h);
  /// While a step runs: the last picture kept in scene_layer_, else a grey window.
  void show_kept_picture(int fb_w, int fb_h);
  static constexpr float kWaitingGrey = 0.2f;  ///< the window's colour with no kept picture
  void write_stats();
  WindowExtent window_extent() const;
  void report(const std::string& message);  ///< stdout + the panel's status line

  Options options_;
  cloth::Scene scene_;  ///< the first pane's: the camera and the window title come from it
  GlfwLibrary glfw_;  // declared first: destroyed last, after every GL object below
  WindowPtr window_;
  PaneRunner runner_;  ///< the panes (the active one is the one the panels edit) and their clock
  int mouse_pane_ = 0;  ///< the pane the current (or last) mouse press was in
  OrbitCamera camera_;  ///< shared: every pane shows the same view
  std::vector<std::unique_ptr<Renderer>> renderers_;  ///< one per pane
  SceneLayer scene_layer_;  ///< the panes' picture when ui_state_.render_scale < 1
  std::unique_ptr<Ui> ui_;
  Recorder recorder_;
  MouseController mouse_;
  UiState ui_state_;
  std::string settings_path_;  ///< config_dir()/settings.json ("" = nothing persisted)
  SavedSettings saved_;
  UiStats ui_stats_;

  static constexpr double kQuitConfirmWindow = 3.0;  ///< s in which a second Escape quits
  double quit_asked_at_ = -1e9;  ///< glfwGetTime() of the Escape that asked to quit, s
  bool step_requested_ = false;
  int ui_scale_steps_ = 0;        ///< Ctrl + / Ctrl - presses not yet applied
  bool ui_scale_reset_ = false;   ///< Ctrl 0 pressed
  struct {
    int left = 0, top = 0, width = 1280, height = 720;
  } windowed_;                    ///< the window's place and size before F11
  bool screenshot_requested_ = false;
  bool recording_toggle_requested_ = false;
  int displayed_frames_ = 0;
  double video_time_ = 0;  ///< simulated time the recording has covered so far, s
  FrameTiming frame_timing_;  ///< simulation vs drawing per displayed frame (--stats, bench/)
  DrawPacer draw_pacer_;      ///< skips draws while the simulation catches up with the wall clock
  bool layer_has_picture_ = false;    ///< scene_layer_ holds the last picture drawn
  bool layer_works_ = true;           ///< the driver made scene_layer_'s framebuffer
  /// One input that came while a step ran: a key's command, a click, cursor moves (the last), or
  /// the stepping panel's solver settings.
  struct DeferredInput {
    std::optional<Command> command = std::nullopt;
    std::optional<MouseInput> mouse = std::nullopt;
    std::optional<glm::dvec2> cursor = std::nullopt;
    std::optional<cloth::SolverSettings> solver = std::nullopt;  ///< the stepping panel's edit
    int pane = 0;                ///< the pane the edit was made for
    int panes_generation = 0;    ///< panes_generation_ when it was made
  };
  int panes_generation_ = 0;  ///< counts install_panes: an edit made on other panes is dropped
  std::vector<DeferredInput> deferred_;  ///< in their order
  int frames_while_stepping_ = 0;  ///< frames drawn while a step ran (--stats)
  int inputs_after_step_ = 0;      ///< inputs that waited for a step's end (--stats)
};

}  // namespace app
