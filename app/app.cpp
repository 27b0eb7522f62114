#include "app.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include "app_stats.hpp"
#include "core/error.hpp"
#include "io/export.hpp"
#include "io/scene_writer.hpp"
#include "render/gl_errors.hpp"
#include "input/key_bindings.hpp"
#include "run/paths.hpp"
#include "capture/pixels.hpp"
#include "shutdown_signal.hpp"
#include "ui/ui_scale.hpp"

namespace app {
namespace {

double ms_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

App& self(GLFWwindow* w) {
  return *static_cast<App*>(glfwGetWindowUserPointer(w));
}

/// A pane's size as the mouse controller's window: it sees pane-local coordinates.
WindowExtent extent_of(const PaneRect& r) {
  return WindowExtent{std::max(1, int(std::lround(r.width))), std::max(1, int(std::lround(r.height)))};
}

/// The keys that work while a step runs on the worker: those that leave the simulations, the
/// replay buffers and the exports alone. The others wait for the step's end.
bool works_while_stepping(Command command) {
  switch (command) {
    case Command::Escape:
    case Command::Quit:
    case Command::PauseOrPlay:
    case Command::Step:
    case Command::Wireframe:
    case Command::Caption:
    case Command::Screenshot:
    case Command::Plots:
    case Command::Fullscreen:
    case Command::Larger:
    case Command::Smaller:
    case Command::NormalSize:
      return true;
    default:
      return false;
  }
}

}  // namespace

App::App(const Options& options, const std::vector<PaneScene>& scenes)
    : options_(options),
      scene_(shared_scene(scenes)),
      glfw_(),
      window_(create_gl_window(WindowSpec{options.window.value_or(WindowSize{}).width,
                                          options.window.value_or(WindowSize{}).height,
                                          "clothsim - " + scene_.name, true, 4})),
      runner_(make_panes(scenes), glfwGetTime) {
  glfwSwapInterval(1);
  const auto* gl_renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  ui_state_.render_scale =
      clamped_render_scale(options_.render_scale.value_or(default_render_scale(gl_renderer ? gl_renderer : "")));
  const std::string config = config_dir();
  if (!config.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(config, ec);  // ImGui writes imgui.ini there itself
    settings_path_ = config + "/settings.json";
    std::string warning;
    saved_ = load_settings(settings_path_, warning);
    if (!warning.empty()) report(warning);
  }
  ui_state_.view = options_.view.value_or(saved_.view);
  ui_state_.show_plots = saved_.show_plots;
  reset_camera();
  restore_saved_camera();
  for (const Pane& p : panes())
    renderers_.push_back(std::make_unique<Renderer>(options_.shader_dir, cloth::SimulationView(*p.sim)));

  // Our callbacks first: the ImGui backend, installed next, chains to them.
  glfwSetWindowUserPointer(window_.get(), this);
  glfwSetKeyCallback(window_.get(), [](GLFWwindow* w, int key, int, int action, int mods) {
    self(w).on_key(key, action, mods);
  });
  glfwSetMouseButtonCallback(window_.get(), [](GLFWwindow* w, int button, int action, int mods) {
    self(w).on_mouse_button(button, action, mods);
  });
  glfwSetCursorPosCallback(window_.get(),
                           [](GLFWwindow* w, double x, double y) { self(w).on_cursor(x, y); });
  glfwSetScrollCallback(window_.get(),
                        [](GLFWwindow* w, double, double dy) { self(w).on_scroll(dy); });
  ui_ = std::make_unique<Ui>(window_.get(), config.empty() ? "" : config + "/imgui.ini");
  const float scale = options_.ui_scale.value_or(saved_.ui_scale);  // --ui-scale, else the saved one
  if (scale != 1.0f) ui_->set_scale(scale);
  ui_stats_.scene_path = options_.scene_path;

  if (!options_.record_path.empty()) {
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window_.get(), &fb_w, &fb_h);
    recorder_.start(options_.record_path, even_floor(fb_w), even_floor(fb_h));
    video_time_ = 0;
  }
  start_requested_exports(runner_.exports(), options_.export_sequence, options_.export_pc2,
                          panes().front().sim->model().vertex_count());
}

App::~App() = default;

void App::reset_camera() {
  const auto& c = scene_.camera;
  camera_.set(glm::vec3(float(c.target.x()), float(c.target.y()), float(c.target.z())),
              float(c.distance), float(c.yaw_deg), float(c.pitch_deg));
}

void App::restore_saved_camera() {
  if (const auto it = saved_.cameras.find(scene_key(options_.scene_path)); it != saved_.cameras.end())
    it->second.apply_to(camera_);
}

void App::persist_settings() {
  if (settings_path_.empty()) return;
  // A one-off --view is not the user's view, unless they changed it in the panel since.
  if (!options_.view || ui_state_.view != *options_.view) saved_.view = ui_state_.view;
  saved_.show_plots = ui_state_.show_plots;
  saved_.cameras[scene_key(options_.scene_path)] = CameraPose::of(camera_);
  try {
    save_settings(settings_path_, saved_);
  } catch (const std::exception& e) {
    std::cerr << "clothsim: warning: " << e.what() << "\n";
  }
}

WindowExtent App::window_extent() const {
  WindowExtent e;
  glfwGetWindowSize(window_.get(), &e.width, &e.height);
  e.width = std::max(e.width, 1);
  e.height = std::max(e.height, 1);
  return e;
}

double App::panel_inset() const {
  return ui_ ? ui_->panel_right_edge() : 0.0;
}

std::vector<PaneRect> App::window_pane_rects() const {
  const WindowExtent e = window_extent();
  return pane_rects(int(panes().size()), e.width, e.height, panel_inset());
}

std::vector<PaneRect> App::framebuffer_pane_rects(int fb_w, int fb_h) const {
  const double scale = double(fb_w) / window_extent().width;  // HiDPI: framebuffer px per window px
  return pane_rects(int(panes().size()), fb_w, fb_h, panel_inset() * scale);
}

void App::activate(int k) {
  if (k == active()) return;
  runner_.set_active(k);
  ui_stats_.history.clear();  // the plots show one pane's steps
}

std::vector<PaneSummary> App::pane_summaries() const {
  std::vector<PaneSummary> out;
  const std::vector<PaneRect> rects = window_pane_rects();
  for (size_t k = 0; k < panes().size(); ++k) {
    out.push_back(PaneSummary{panes()[k].label, rects[k], panes()[k].view(ui_state_.replay.active()),
                              panes()[k].sim_ms, int(k) == active()});
  }
  return out;
}

void App::report(const std::string& message) {
  std::cout << "clothsim: " << message << "\n" << std::flush;
  ui_stats_.message = message;
}

void App::on_key(int key, int action, int mods) {
  if (action != GLFW_PRESS) return;
  if (ui_ && ui_->wants_keyboard()) return;  // typing into a panel field
  const std::optional<Command> command = command_for(key, mods);
  if (!command) return;
  if (runner_.stepping() && !works_while_stepping(*command)) {
    deferred_.push_back(DeferredInput{.command = *command});
    return;
  }
  run_command(*command);
}

void App::run_command(Command command) {
  switch (command) {
    case Command::Escape:
      // Escape closes what is open first (a dropdown, the help); otherwise the first asks and a
      // second within kQuitConfirmWindow quits: a stray Escape must not end a lesson.
      if (ui_ && ui_->popup_open()) {
        ui_->close_popups();
      } else if (ui_state_.show_help) {
        ui_state_.show_help = false;
      } else if (glfwGetTime() - quit_asked_at_ < kQuitConfirmWindow) {
        glfwSetWindowShouldClose(window_.get(), GLFW_TRUE);
      } else {
        quit_asked_at_ = glfwGetTime();
      }
      break;
    case Command::Quit:
      glfwSetWindowShouldClose(window_.get(), GLFW_TRUE);
      break;
    case Command::PauseOrPlay:
      if (ui_state_.replay.active())
        ui_state_.replay.toggle_play(timeline());
      else
        ui_state_.paused = !ui_state_.paused;
      break;
    case Command::Replay:
      ui_state_.replay.play_from_start(timeline());
      break;
    case Command::ReplayBack:
      ui_state_.replay.step_frames(timeline(), -1);
      break;
    case Command::ReplayForward:
      ui_state_.replay.step_frames(timeline(), +1);
      break;
    case Command::Live:
      ui_state_.replay.leave();
      break;
    case Command::Step:
      step_requested_ = true;
      break;
    case Command::Reset:
      apply(UiActions{.reset = true});
      break;
    case Command::Wireframe:
      ui_state_.view.wireframe = !ui_state_.view.wireframe;
      break;
    case Command::Caption:
      ui_state_.view.caption = !ui_state_.view.caption;
      break;
    case Command::Record:
      recording_toggle_requested_ = true;
      break;
    case Command::Screenshot:
      screenshot_requested_ = true;
      break;
    case Command::Plots:
      ui_state_.show_plots = !ui_state_.show_plots;
      break;
    case Command::Reload:
      apply(UiActions{.load_scene = options_.scene_path});
      break;
    case Command::Save:
      save_scene(ui_->save_path());
      break;
    case Command::Help:
      ui_state_.show_help = !ui_state_.show_help;
      break;
    case Command::Fullscreen:
      toggle_fullscreen();
      break;
    case Command::Larger:
      ui_scale_steps_ += 1;
      break;
    case Command::Smaller:
      ui_scale_steps_ -= 1;
      break;
    case Command::NormalSize:
      ui_scale_reset_ = true;
      break;
  }
}

void App::toggle_fullscreen() {
  GLFWwindow* w = window_.get();
  if (glfwGetWindowMonitor(w)) {
    glfwSetWindowMonitor(w, nullptr, windowed_.left, windowed_.top, windowed_.width, windowed_.height,
                         GLFW_DONT_CARE);
    return;
  }
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
  if (!mode) {
    report("fullscreen: no monitor to fill");
    return;
  }
  glfwGetWindowPos(w, &windowed_.left, &windowed_.top);
  glfwGetWindowSize(w, &windowed_.width, &windowed_.height);
  glfwSetWindowMonitor(w, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
}

void App::apply_ui_scale_keys() {
  if (ui_scale_steps_ == 0 && !ui_scale_reset_) return;
  const float scale = ui_scale_reset_ ? 1.0f : stepped_ui_scale(ui_->scale(), ui_scale_steps_);
  ui_scale_steps_ = 0;
  ui_scale_reset_ = false;
  if (scale == ui_->scale()) return;
  ui_->set_scale(scale);
  saved_.ui_scale = scale;
}

void App::on_mouse_button(int button, int action, int mods) {
  double x = 0, y = 0;
  glfwGetCursorPos(window_.get(), &x, &y);
  if (action == GLFW_PRESS && ui_ && ui_->covers(x, y)) return;  // the click belongs to the panel
  if (runner_.stepping()) {  // the cloth is picked against the state after the step
    deferred_.push_back(DeferredInput{.mouse = MouseInput{button, action, mods, x, y}});
    return;
  }
  mouse_button(MouseInput{button, action, mods, x, y});
}

void App::mouse_button(const MouseInput& in) {
  const std::vector<PaneRect> rects = window_pane_rects();
  if (in.action == GLFW_PRESS) {
    const int pane = pane_at(rects, in.x, in.y);
    if (pane < 0) return;  // on the separator between panes
    mouse_pane_ = pane;
    activate(pane);
    const PaneRect& r = rects[size_t(pane)];
    // A replay shows the past: the mouse moves the camera only, and leaves the live cloth alone.
    mouse_.press(in.button, in.mods, in.x - r.left, in.y - r.top, extent_of(r), camera_, *panes()[size_t(pane)].sim,
                 !ui_state_.replay.active());
  } else if (in.action == GLFW_RELEASE) {
    // Always delivered, so a drag that ends over the panel still ends.
    mouse_.release(in.button, *panes()[size_t(mouse_pane_)].sim);
  }
}

void App::on_cursor(double x, double y) {
  if (runner_.stepping()) {  // only the last move before the step's end counts
    if (deferred_.empty() || !deferred_.back().cursor) deferred_.emplace_back();
    deferred_.back().cursor = glm::dvec2(x, y);
    return;
  }
  cursor_moved(x, y);
}

void App::cursor_moved(double x, double y) {
  // A drag stays with the pane it started in, even when the cursor leaves it.
  const PaneRect r = window_pane_rects()[size_t(mouse_pane_)];
  mouse_.move(x - r.left, y - r.top, extent_of(r), camera_, *panes()[size_t(mouse_pane_)].sim);
}

void App::run_deferred_input() {
  inputs_after_step_ += int(deferred_.size());
  for (const DeferredInput& in : std::exchange(deferred_, {})) {
    if (in.command) run_command(*in.command);
    if (in.mouse) mouse_button(*in.mouse);
    if (in.cursor) cursor_moved(in.cursor->x, in.cursor->y);
    // The pane the edit was made for, if the panes are still those it was made on (a click on
    // another pane or a scene load may have come before it).
    if (in.solver && in.panes_generation == panes_generation_) {
      try {
        panes()[size_t(in.pane)].sim->set_solver(*in.solver);
      } catch (const std::exception& e) {
        report(e.what());
      }
    }
  }
}

void App::on_scroll(double dy) {
  double x = 0, y = 0;
  glfwGetCursorPos(window_.get(), &x, &y);
  if (ui_ && ui_->covers(x, y)) return;
  mouse_.scroll(dy, camera_);
}

bool App::advance(double real_dt, bool start_steps) {
  ui_stats_.quit_asked = glfwGetTime() - quit_asked_at_ < kQuitConfirmWindow;
  PassControls controls = pass_controls();
  controls.start_steps = start_steps;
  if (!runner_.stepping()) {
    controls.step_once = step_requested_;
    step_requested_ = false;
    if (ui_state_.replay.active()) {
      advance_replay(real_dt);
      return false;
    }
  }
  const PassResult pass = runner_.advance(real_dt, controls);
  ui_stats_.behind = runner_.recently_dropped();
  ui_stats_.dropped_steps = runner_.dropped_steps();
  ui_stats_.realtime_factor = runner_.realtime_factor();
  book(pass, true);
  return pass.ended_after_wait;
}

PassControls App::pass_controls() const {
  return PassControls{.paused = ui_state_.paused, .time_scale = ui_state_.time_scale};
}

void App::book(const PassResult& pass, bool run_input) {
  if (!pass.booked) return;
  const int active = runner_.active();
  for (size_t k = 0; k < pass.steps.size(); ++k) {
    const PaneSteps& taken = pass.steps[k];
    if (int(k) == active)
      for (size_t i = 0; i < taken.energies.size(); ++i) ui_stats_.history.add(taken.reports[i], taken.energies[i]);
    if (!taken.export_error.empty()) report(taken.export_error);
    if (k == 0 && recorder_.active()) video_time_ += taken.owed * panes()[k].sim->solver().dt;  // even while minimised
  }
  const Pane& shown = panes()[size_t(active)];
  ui_stats_.sim_ms = shown.sim_ms;
  ui_stats_.steps_per_frame = shown.steps;
  ui_stats_.solids_pins_follow = solids_pins_follow(shown);
  if (run_input) {
    run_deferred_input();
  } else {
    deferred_.clear();  // quitting: what waited for the step is not carried out
  }
}

void App::advance_replay(double real_dt) {
  ReplayPlayer& player = ui_state_.replay;
  // While recording, each pass moves the replay by one video frame at the replay's speed and
  // gives the video that frame: a slow-motion video plays smoothly however slowly the window
  // draws (a replay never skips a draw: behind() is false).
  const double video_frame = recorder_.active() ? 1.0 / recorder_.fps() : 0.0;
  const double moved = player.advance(timeline(), recorder_.active() ? video_frame : real_dt);
  if (recorder_.active() && moved > 0) video_time_ += video_frame;
  runner_.hold();  // the simulations wait: no steps owed on the way back to live
  ui_stats_.sim_ms = 0;
  ui_stats_.steps_per_frame = 0;
}

void App::load_replay_frames() {
  for (Pane& p : panes()) {
    if (p.replay.empty())
      p.shown = cloth::ReplayFrame{};  // nothing held: the pane shows the run now (Pane::view)
    else
      p.replay.load(ui_state_.replay.time(), p.shown);
  }
}

void App::apply(const UiActions& actions) {
  // What changes the cloth or the scene ends a replay: the past it shows would not match.
  if (actions.reset || !actions.load_scene.empty() || actions.compare || actions.rebuild ||
      !actions.add_solid.empty() || actions.remove_solid >= 0)
    ui_state_.replay.leave();
  if (actions.reset) {
    mouse_.cancel(*panes()[size_t(mouse_pane_)].sim);
    for (Pane& p : panes()) {  // together: the panes stay comparable
      p.sim->reset();
      p.accumulator = 0;
    }
    forget_run_counters();
  }
  if (actions.step) step_requested_ = true;
  if (actions.reset_camera) reset_camera();
  if (actions.camera_preset) camera_.look_from(*actions.camera_preset);
  if (!actions.load_scene.empty()) load_scene_file(actions.load_scene);
  if (actions.compare) {  // the running scene again, side by side or alone
    Options options = options_;
    options.compare = *actions.compare;
    options.one_pane = actions.compare->empty();
    load_scene(std::move(options));
  }
  if (!actions.save_scene.empty()) save_scene(actions.save_scene);
  if (actions.rebuild) rebuild(*actions.rebuild);
  if (!actions.add_solid.empty() || actions.remove_solid >= 0) {
    Pane& pane = panes()[size_t(active())];
    try {
      if (!actions.add_solid.empty()) {
        const int k = add_pane_collider(pane, new_solid_entry(*pane.sim, actions.add_solid));
        report("added a " + actions.add_solid + " (solid " + std::to_string(k) + ")");
      } else {
        mouse_.cancel(*panes()[size_t(mouse_pane_)].sim);  // a solid being dragged may be the one
        remove_pane_collider(pane, actions.remove_solid);
        report("removed solid " + std::to_string(actions.remove_solid));
      }
    } catch (const std::exception& e) {
      report(e.what());
    }
  }
  if (actions.activate_pane >= 0 && actions.activate_pane < int(panes().size())) activate(actions.activate_pane);
  if (actions.screenshot) screenshot_requested_ = true;
  if (actions.toggle_recording) recording_toggle_requested_ = true;
  if (actions.toggle_sequence) toggle_sequence();
  if (actions.toggle_point_cache) toggle_point_cache();
}

void App::forget_run_counters() {
  ui_stats_.history.clear();
  runner_.forget_counters();
  ui_stats_.dropped_steps = 0;
  ui_stats_.behind = false;
  ui_stats_.realtime_factor = -1;
}

void App::load_scene_file(const std::string& path) {
  load_scene(options_for_scene(options_, path));
}

void App::load_scene(Options options) {
  const std::string path = options.scene_path;
  std::vector<std::string> warnings;
  std::vector<Pane> panes;
  std::vector<std::unique_ptr<Renderer>> renderers;
  cloth::Scene first;
  try {
    const std::vector<PaneScene> scenes = scenes_to_run(options, warnings);
    panes = make_panes(scenes);
    for (const Pane& p : panes)
      renderers.push_back(std::make_unique<Renderer>(options.shader_dir, cloth::SimulationView(*p.sim)));
    first = shared_scene(scenes);
  } catch (const std::exception& e) {  // bad input, or a renderer that cannot be built
    show_scene_error(path, e.what());
    return;
  }
  const bool reload = path == options_.scene_path;
  persist_settings();  // the camera of the scene being left
  install_panes(std::move(panes), std::move(renderers));
  scene_ = std::move(first);
  options_ = std::move(options);
  runner_.set_active(0);
  ui_stats_.scene_error.clear();
  ui_stats_.scene_path = path;
  forget_run_counters();
  reset_camera();
  if (!reload) restore_saved_camera();  // L re-reads the file: its camera too
  glfwSetWindowTitle(window_.get(), ("clothsim - " + scene_.name).c_str());
  for (const std::string& w : warnings) std::cerr << "clothsim: warning: " << w << "\n";
  report("loaded scene " + path + (warnings.empty() ? "" : " (" + std::to_string(warnings.size()) +
                                                             " warnings: " + warnings.front() + ")"));
}

void App::show_scene_error(const std::string& path, const std::string& error) {
  ui_stats_.scene_error = error;
  report("cannot load scene " + path + ": " + error + " (kept the " + (displayed_frames_ == 0 ? "default" : "previous") +
         " scene)");
}

void App::install_panes(std::vector<Pane> fresh, std::vector<std::unique_ptr<Renderer>> renderers) {
  mouse_.cancel(*panes()[size_t(mouse_pane_)].sim);
  ui_state_.replay.leave();
  runner_.install(std::move(fresh));
  renderers_ = std::move(renderers);
  mouse_pane_ = 0;
  ui_stats_.history.clear();
  ++panes_generation_;
}

cloth::CameraSpec App::camera_spec() const {
  const glm::vec3 t = camera_.target();
  return cloth::CameraSpec{cloth::Vec3(t.x, t.y, t.z), camera_.distance(), camera_.yaw_deg(), camera_.pitch_deg()};
}

void App::rebuild(const ClothEdit& edit) {
  std::vector<std::string> warnings;
  std::vector<Pane> rebuilt;
  std::vector<std::unique_ptr<Renderer>> renderers;
  try {
    rebuilt = make_panes(scenes_rebuilt(panes(), edit, camera_spec(), warnings));
    for (const Pane& p : rebuilt)
      renderers.push_back(std::make_unique<Renderer>(options_.shader_dir, cloth::SimulationView(*p.sim)));
  } catch (const std::exception& e) {  // bad input, or a renderer that cannot be built
    report(std::string("cannot rebuild the cloth: ") + e.what());
    return;
  }
  install_panes(std::move(rebuilt), std::move(renderers));
  const cloth::RestMesh& mesh = panes().front().sim->tearing().intact_mesh();
  report("rebuilt the cloth at " + std::to_string(mesh.grid_nx) + " x " + std::to_string(mesh.grid_ny) + " vertices");
}

void App::save_scene(const std::string& path) {
  const Pane& pane = panes()[size_t(active())];
  try {
    if (path.rfind("out/", 0) == 0) ensure_parent_dir(path);  // the proposed default folder
    cloth::write_scene_file(path, cloth::scene_document(pane.document, pane.source_dir, *pane.sim, camera_spec(), &pane.drape));
    report("saved scene " + path);
  } catch (const std::exception& e) {
    report(std::string("cannot save the scene: ") + e.what());
  }
}

void App::toggle_recording() {
  try {
    if (recorder_.active()) {
      report(recorder_.finish().describe());
    } else {
      int fb_w = 0, fb_h = 0;
      glfwGetFramebufferSize(window_.get(), &fb_w, &fb_h);
      const std::string path = "out/recording-" + timestamp() + ".mp4";
      ensure_parent_dir(path);
      recorder_.start(path, even_floor(fb_w), even_floor(fb_h));
      video_time_ = 0;
      report("recording to " + path);
    }
  } catch (const std::exception& e) {
    report(std::string("recording failed: ") + e.what());
  }
}

void App::toggle_sequence() {
  try {
    if (runner_.exports().sequence_running()) {
      report(runner_.exports().stop_sequence());
    } else {
      const std::string dir = "out/sequence-" + timestamp();
      runner_.exports().start_sequence(dir);
      report("writing OBJ frames to " + dir);
    }
  } catch (const std::exception& e) {
    report(std::string("OBJ sequence failed: ") + e.what());
  }
}

void App::toggle_point_cache() {
  try {
    if (runner_.exports().point_cache_running()) {
      report(runner_.exports().stop_point_cache());
    } else {
      const std::string path = "out/cache-" + timestamp() + ".pc2";
      ensure_parent_dir(path);
      runner_.exports().start_point_cache(path, panes().front().sim->model().vertex_count());
      report("writing point cache " + path);
    }
  } catch (const std::exception& e) {
    report(std::string("point cache failed: ") + e.what());
  }
}

void App::draw_picture(int fb_w, int fb_h) {
  // Markers and arrows are sized in the picture's pixels: at a reduced resolution they are
  // drawn smaller by as much as the picture is scaled up.
  const bool reduced = ui_state_.render_scale < 1;
  // Slow steps keep the picture in the layer for the frames drawn while the next step runs.
  bool through_layer = layer_works_ && (reduced || runner_.slow_steps());
  LayerSize picture = reduced ? scaled_layer_size(fb_w, fb_h, ui_state_.render_scale) : LayerSize{fb_w, fb_h};
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (through_layer) {
    try {
      scene_layer_.bind(picture);
    } catch (const std::exception& e) {  // a driver without that framebuffer: full resolution
      report(std::string(e.what()) + "; drawing at full resolution");
      layer_works_ = through_layer = false;
      ui_state_.render_scale = 1;
      picture = {fb_w, fb_h};
    }
  }
  for (const std::unique_ptr<Renderer>& r : renderers_)
    r->set_marker_scale(ui_->scale() * float(picture.width) / float(fb_w));
  draw_panes(renderers_, panes(), framebuffer_pane_rects(picture.width, picture.height), camera_, picture.width,
             picture.height, ui_state_.view, ui_state_.replay.active());
  if (through_layer) scene_layer_.present(fb_w, fb_h);
  layer_has_picture_ = through_layer;
}

void App::show_kept_picture(int fb_w, int fb_h) {
  if (layer_has_picture_) {
    scene_layer_.present(fb_w, fb_h);
    return;
  }
  // The steps turned slow after a picture drawn straight to the window: none is kept until
  // the step ends.
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, fb_w, fb_h);
  glClearColor(kWaitingGrey, kWaitingGrey, kWaitingGrey, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
}

void App::capture_video_frame(int fb_w, int fb_h) {
  if (!recorder_.active()) return;
  if (even_floor(fb_w) != recorder_.width() || even_floor(fb_h) != recorder_.height()) {
    // A video has one frame size; a resized window ends the recording cleanly.
    report("window resized: recording stopped");
    recording_toggle_requested_ = false;
    toggle_recording();
    return;
  }
  // Frames at the fixed simulation rate: each fixed step of the first pane adds dt of video
  // (advance()), so the video plays at the simulation's own speed however slowly the window
  // draws (the frame drawn now stands for every step since the last one), and paused time is
  // left out.
  const int due = 1 + int(std::floor(video_time_ * recorder_.fps() + 1e-6));
  if (due <= recorder_.frames()) return;
  try {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    const std::vector<std::uint8_t> rgb = read_rgb_top_down(recorder_.width(), recorder_.height());
    while (recorder_.active() && recorder_.frames() < due) recorder_.add_frame(rgb);
  } catch (const std::exception& e) {
    report(std::string("recording failed: ") + e.what());
  }
}

void App::save_screenshot(const std::string& path, int fb_w, int fb_h) {
  try {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    write_png(path, fb_w, fb_h, read_rgb_top_down(fb_w, fb_h));
    report("wrote screenshot " + path + " (" + std::to_string(fb_w) + "x" + std::to_string(fb_h) +
           ")");
  } catch (const std::exception& e) {
    report(std::string("screenshot failed: ") + e.what());
  }
}

void App::write_stats() {
  if (options_.stats_path.empty()) return;
  AppSnapshot snap;
  snap.window = window_extent();
  glfwGetWindowPos(window_.get(), &snap.window_pos.x, &snap.window_pos.y);
  snap.paused = ui_state_.paused;
  snap.displayed_frames = displayed_frames_;
  snap.scene_path = ui_stats_.scene_path;
  snap.scene_error = ui_stats_.scene_error;
  snap.message = ui_stats_.message;
  nlohmann::json doc = panes_stats_json(panes());
  const std::vector<PaneRect> rects = window_pane_rects();
  snap.pane = rects.front();
  doc["app"] = make_app_stats(*panes().front().sim, camera_, snap, mouse_.grab_log());
  doc["app"]["active_pane"] = active();
  doc["app"]["popup_open"] = ui_ && ui_->popup_open();
  doc["app"]["ui_scale"] = ui_->scale();
  doc["app"]["render_scale"] = ui_state_.render_scale;
  doc["app"]["fullscreen"] = glfwGetWindowMonitor(window_.get()) != nullptr;
  doc["app"]["view"] = {{"wireframe", ui_state_.view.wireframe},
                        {"caption", ui_state_.view.caption},
                        {"strain_heat_map", ui_state_.view.strain_heat_map},
                        {"velocity_arrows", ui_state_.view.velocity_arrows},
                        {"force_arrows", ui_state_.view.force_arrows},
                        {"wind_arrows", ui_state_.view.wind_arrows}};
  doc["app"]["frame_timing"] = frame_timing_.to_json();
  doc["app"]["frame_timing"]["skipped_draws"] = draw_pacer_.skipped();
  doc["app"]["frame_timing"]["drawn_while_stepping"] = frames_while_stepping_;
  doc["app"]["inputs_after_step"] = inputs_after_step_;
  const ReplayPlayer& replay = ui_state_.replay;
  doc["app"]["replay"] = {{"active", replay.active()},           {"playing", replay.playing()},
                          {"time", replay.time()},               {"speed", replay.speed},
                          {"frames", timeline().size()},         {"oldest", timeline().oldest_time()},
                          {"newest", timeline().newest_time()}};
  doc["app"]["pane_left"] = rects.front().left;  // right of a docked panel when side by side
  const PaneRect& panel = ui_->panel_rect();
  doc["app"]["panel"] = {panel.left, panel.top, panel.width, panel.height};
  if (panes().size() > 1) {
    for (size_t k = 0; k < panes().size(); ++k) {
      snap.pane = rects[k];
      doc["panes"][k]["app"] = make_app_stats(*panes()[k].sim, camera_, snap, {});
    }
  }
  write_json_atomically(options_.stats_path, doc);
}

int App::run() {
  double last_time = glfwGetTime();
  double last_draw_time = last_time;
  double last_stats = -1e9;
  double frame_ms_avg = 0;
  for (;;) {
    glfwPollEvents();
    const bool last_frame =
        glfwWindowShouldClose(window_.get()) || shutdown_signal() != 0 ||
        (options_.quit_after_frames > 0 && displayed_frames_ + 1 >= options_.quit_after_frames);
    const double now = glfwGetTime();
    const double real_dt = now - last_time;
    last_time = now;

    // The last frame starts no steps: it shows the state the run ends with, and the quit waits
    // for at most the step in progress. The run's clock starts once the panel has taken its
    // width, which a stepping panel drawn in its place keeps.
    const bool steps_ended = ui_->panel_laid_out() && advance(real_dt, !last_frame);
    if (last_frame && runner_.stepping()) {
      report("waiting for the step in progress to end");
      book(runner_.finish(), false);
    }
    // While steps run on the worker, nothing here reads the simulations (step_worker.hpp).
    const bool stepping = runner_.stepping();
    if (!stepping) mouse_.update(*panes()[size_t(mouse_pane_)].sim);
    // Behind the wall clock: take the next steps now and draw later (draw_pacer.hpp); but steps
    // that ended on the worker are drawn before the next ones start.
    if (!last_frame && !stepping && !steps_ended &&
        !draw_pacer_.draw_now(glfwGetTime(), !ui_state_.replay.active() && runner_.behind(glfwGetTime() - now, pass_controls())))
      continue;
    runner_.start_display_frame();
    const double frame_ms = (now - last_draw_time) * 1e3;
    last_draw_time = now;
    frame_ms_avg = frame_ms_avg == 0 ? frame_ms : 0.95 * frame_ms_avg + 0.05 * frame_ms;

    ui_stats_.fps = ImGui::GetIO().Framerate;
    ui_stats_.frame_ms = frame_ms_avg;
    ui_stats_.skipped_draws = draw_pacer_.skipped();
    ui_stats_.caption = scene_.name;
    ui_stats_.recording = recorder_.active();
    ui_stats_.recording_path = recorder_.path();
    ui_stats_.recorded_frames = recorder_.frames();
    ui_stats_.recorded_seconds = recorder_.seconds();
    if (!stepping) {  // the worker writes the exports and the replay buffers
      ui_stats_.sequence_dir = runner_.exports().sequence_dir();
      ui_stats_.sequence_frames = runner_.exports().sequence_frames();
      ui_stats_.point_cache_path = runner_.exports().point_cache_path();
      ui_stats_.point_cache_samples = runner_.exports().point_cache_samples();
    }
    ui_stats_.timeline = &timeline();
    const auto draw_start = std::chrono::steady_clock::now();
    apply_ui_scale_keys();  // between frames: it rebuilds the font atlas
    ui_->begin_frame();
    // Between two steps that outlast the wait the panel stays the stepping panel, rather than
    // flashing up for one frame.
    if (stepping || (runner_.steps_outlast_wait() && !ui_state_.paused)) {
      const SteppingActions asked = ui_->build_stepping(runner_.progress(), glfwGetTime(), ui_state_, ui_stats_);
      if (asked.solver)
        deferred_.push_back(
            DeferredInput{.solver = asked.solver, .pane = runner_.progress().pane, .panes_generation = panes_generation_});
      if (asked.reset) deferred_.push_back(DeferredInput{.command = Command::Reset});
      if (!stepping) run_deferred_input();
    } else {
      if (ui_state_.replay.active()) load_replay_frames();
      apply(ui_->build(active_sim(), panes()[size_t(active())].drape, panes()[size_t(active())].layout, ui_state_,
                       ui_stats_, pane_summaries()));
    }

    int fb_w = 0, fb_h = 0;
    double draw_ms = 0;
    glfwGetFramebufferSize(window_.get(), &fb_w, &fb_h);
    if (fb_w > 0 && fb_h > 0) {  // 0 x 0 while minimised
      // Markers and arrows are sized in the picture's pixels: at a reduced resolution they are
      // drawn smaller by as much as the picture is scaled up.
      if (stepping) {
        show_kept_picture(fb_w, fb_h);
        ++frames_while_stepping_;
      } else {
        if (ui_state_.replay.active()) load_replay_frames();  // the panel may have moved it
        draw_picture(fb_w, fb_h);
      }
      ui_->render();
      draw_ms = ms_since(draw_start);
      if (const std::string error = take_gl_errors("drawing a frame"); !error.empty() && error != ui_stats_.message)
        report(error);
      ++displayed_frames_;
      capture_video_frame(fb_w, fb_h);
      if (screenshot_requested_) {
        const std::string path = "out/screenshot-" + timestamp() + ".png";
        ensure_parent_dir(path);
        save_screenshot(path, fb_w, fb_h);
      }
      if (last_frame && !options_.screenshot_path.empty())
        save_screenshot(options_.screenshot_path, fb_w, fb_h);
    } else {
      ui_->render();  // ImGui needs every NewFrame matched
    }
    screenshot_requested_ = false;
    if (recording_toggle_requested_) {
      recording_toggle_requested_ = false;
      toggle_recording();
    }
    const auto swap_start = std::chrono::steady_clock::now();
    glfwSwapBuffers(window_.get());
    // A frame drawn while a step runs took no simulation time of its own: the step is counted
    // once, in the frame after it.
    if (draw_ms > 0)
      frame_timing_.add(displayed_frames_, stepping ? 0.0 : runner_.sim_ms_all_panes(), draw_ms + ms_since(swap_start),
                        frame_ms);

    if (!stepping && (displayed_frames_ == 1 || now - last_stats >= kStatsPeriod || last_frame)) {
      try {
        write_stats();
      } catch (const std::exception& e) {
        std::cerr << "clothsim: warning: " << e.what() << "\n";
      }
      last_stats = now;
    }
    if (last_frame) break;

    // Frame cap for displays that do not block in the swap.
    const double frame_end = last_time + 1.0 / kMaxDisplayHz;
    const double remaining = frame_end - glfwGetTime();
    if (remaining > 0) std::this_thread::sleep_for(std::chrono::duration<double>(remaining));
  }

  persist_settings();
  if (recorder_.active()) {
    report(recorder_.finish().describe());  // throws -> main prints the error, exit 2
  }
  for (const std::string& line : {runner_.exports().stop_sequence(), runner_.exports().stop_point_cache()})
    if (!line.empty()) report(line);  // a cache that cannot be finished throws -> exit 2
  if (!options_.export_obj.empty()) {
    // One file: the first pane's cloth, as headless writes.
    cloth::write_obj(options_.export_obj, panes().front().sim->model().mesh, panes().front().sim->state());
    report("wrote mesh " + options_.export_obj);
  }
  if (!options_.stats_path.empty()) report("wrote stats " + options_.stats_path);
  if (const int signal = shutdown_signal()) {
    report("stopped by signal " + std::to_string(signal));
    return exit_status_for_signal(signal);
  }
  return 0;
}

}  // namespace app
