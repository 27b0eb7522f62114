#include "app.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <iostream>
#include <thread>

#include "app_stats.hpp"
#include "cloth/export.hpp"
#include "paths.hpp"
#include "pixels.hpp"
#include "shutdown_signal.hpp"

namespace app {
namespace {

App& self(GLFWwindow* w) {
  return *static_cast<App*>(glfwGetWindowUserPointer(w));
}

}  // namespace

App::App(const Options& options, const cloth::Scene& scene)
    : options_(options),
      scene_(scene),
      glfw_(),
      window_(create_gl_window(WindowSpec{options.window.value_or(WindowSize{}).width,
                                          options.window.value_or(WindowSize{}).height,
                                          "clothsim - " + scene.name, true, 4})),
      sim_(cloth::make_simulation(scene)) {
  glfwSwapInterval(1);
  reset_camera();
  renderer_ = std::make_unique<Renderer>(options_.shader_dir, *sim_);

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
  ui_ = std::make_unique<Ui>(window_.get());

  if (!options_.record_path.empty()) {
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window_.get(), &fb_w, &fb_h);
    recorder_.start(options_.record_path, even_floor(fb_w), even_floor(fb_h));
  }
}

App::~App() = default;

void App::reset_camera() {
  const auto& c = scene_.camera;
  camera_.set(glm::vec3(float(c.target.x()), float(c.target.y()), float(c.target.z())),
              float(c.distance), float(c.yaw_deg), float(c.pitch_deg));
}

WindowExtent App::window_extent() const {
  WindowExtent e;
  glfwGetWindowSize(window_.get(), &e.width, &e.height);
  e.width = std::max(e.width, 1);
  e.height = std::max(e.height, 1);
  return e;
}

void App::report(const std::string& message) {
  std::cout << "clothsim: " << message << "\n" << std::flush;
  ui_stats_.message = message;
}

void App::on_key(int key, int action, int /*mods*/) {
  if (action != GLFW_PRESS) return;
  if (ui_ && ui_->wants_keyboard()) return;  // typing into a panel field
  switch (key) {
    case GLFW_KEY_ESCAPE:
      glfwSetWindowShouldClose(window_.get(), GLFW_TRUE);
      break;
    case GLFW_KEY_SPACE:
      ui_state_.paused = !ui_state_.paused;
      break;
    case GLFW_KEY_N:
      step_requested_ = true;
      break;
    case GLFW_KEY_R:
      apply(UiActions{.reset = true});
      break;
    case GLFW_KEY_W:
      ui_state_.view.wireframe = !ui_state_.view.wireframe;
      break;
    case GLFW_KEY_V:
      recording_toggle_requested_ = true;
      break;
    case GLFW_KEY_F12:
      screenshot_requested_ = true;
      break;
    case GLFW_KEY_P:
      ui_state_.show_plots = !ui_state_.show_plots;
      break;
    case GLFW_KEY_F1:
      ui_state_.show_help = !ui_state_.show_help;
      break;
    default:
      break;
  }
}

void App::on_mouse_button(int button, int action, int mods) {
  double x = 0, y = 0;
  glfwGetCursorPos(window_.get(), &x, &y);
  if (action == GLFW_PRESS) {
    if (ui_ && ui_->wants_mouse()) return;  // the click belongs to the panel
    mouse_.press(button, mods, x, y, window_extent(), camera_, *sim_);
  } else if (action == GLFW_RELEASE) {
    // Always delivered, so a drag that ends over the panel still ends.
    mouse_.release(button, *sim_);
  }
}

void App::on_cursor(double x, double y) {
  mouse_.move(x, y, window_extent(), camera_, *sim_);
}

void App::on_scroll(double dy) {
  if (ui_ && ui_->wants_mouse()) return;
  mouse_.scroll(dy, camera_);
}

int App::advance(double real_dt) {
  const double dt = sim_->solver().dt;
  if (ui_state_.paused) {
    accumulator_ = 0;
  } else {
    accumulator_ += real_dt;
  }
  int owed = int(std::floor(accumulator_ / dt));
  accumulator_ -= owed * dt;
  if (owed > kMaxStepsPerFrame) {
    ui_stats_.dropped_steps += owed - kMaxStepsPerFrame;
    owed = kMaxStepsPerFrame;
    last_drop_time_ = glfwGetTime();
  }
  ui_stats_.behind = glfwGetTime() - last_drop_time_ < 2.0;
  if (step_requested_) {
    ++owed;
    step_requested_ = false;
  }
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < owed; ++i) {
    const cloth::FrameReport report = sim_->step();
    ui_stats_.history.add(report, sim_->energies());
  }
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (owed > 0) run_stats_.add_frame(ms);
  ui_stats_.sim_ms = ms;
  ui_stats_.steps_per_frame = owed;
  return owed;
}

void App::apply(const UiActions& actions) {
  if (actions.reset) {
    mouse_.cancel(*sim_);
    sim_->reset();
    ui_stats_.history.clear();
    accumulator_ = 0;
  }
  if (actions.step) step_requested_ = true;
  if (actions.reset_camera) reset_camera();
  if (actions.screenshot) screenshot_requested_ = true;
  if (actions.toggle_recording) recording_toggle_requested_ = true;
}

void App::toggle_recording() {
  try {
    if (recorder_.active()) {
      const RecordingSummary r = recorder_.finish();
      char line[512];
      std::snprintf(line, sizeof line, "wrote video %s (%d frames, %.1f s)", r.path.c_str(),
                    r.frames, r.seconds);
      report(line);
    } else {
      int fb_w = 0, fb_h = 0;
      glfwGetFramebufferSize(window_.get(), &fb_w, &fb_h);
      const std::string path = "out/recording-" + timestamp() + ".mp4";
      ensure_parent_dir(path);
      recorder_.start(path, even_floor(fb_w), even_floor(fb_h));
      report("recording to " + path);
    }
  } catch (const std::exception& e) {
    report(std::string("recording failed: ") + e.what());
  }
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
  try {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    recorder_.add_frame(read_rgb_top_down(recorder_.width(), recorder_.height()));
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
  nlohmann::json doc = run_stats_.to_json(*sim_);
  doc["app"] = make_app_stats(*sim_, camera_, snap, mouse_.grab_log());
  write_json_atomically(options_.stats_path, doc);
}

int App::run() {
  double last_time = glfwGetTime();
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
    frame_ms_avg = frame_ms_avg == 0 ? real_dt * 1e3 : 0.95 * frame_ms_avg + 0.05 * real_dt * 1e3;

    advance(real_dt);
    mouse_.update(*sim_);

    ui_stats_.fps = ImGui::GetIO().Framerate;
    ui_stats_.frame_ms = frame_ms_avg;
    ui_stats_.recording = recorder_.active();
    ui_stats_.recording_path = recorder_.path();
    ui_stats_.recorded_frames = recorder_.frames();
    ui_->begin_frame();
    apply(ui_->build(*sim_, ui_state_, ui_stats_));

    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window_.get(), &fb_w, &fb_h);
    if (fb_w > 0 && fb_h > 0) {  // 0 x 0 while minimised
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      renderer_->draw(*sim_, camera_, fb_w, fb_h, ui_state_.view);
      ui_->render();
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
    glfwSwapBuffers(window_.get());

    if (displayed_frames_ == 1 || now - last_stats >= kStatsPeriod || last_frame) {
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

  if (recorder_.active()) {
    const RecordingSummary r = recorder_.finish();  // throws -> main prints the error, exit 2
    char line[512];
    std::snprintf(line, sizeof line, "wrote video %s (%d frames, %.1f s)", r.path.c_str(), r.frames,
                  r.seconds);
    report(line);
  }
  if (!options_.export_obj.empty()) {
    cloth::write_obj(options_.export_obj, sim_->model().mesh, sim_->state());
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
