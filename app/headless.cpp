#include "headless.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>

#include "render/camera.hpp"
#include "io/export.hpp"
#include "drape/static_drape.hpp"
#include "drape/weil_drape.hpp"
#include "run/frame_exports.hpp"
#include "render/gl_context.hpp"
#include "render/gl_errors.hpp"
#include "ui/imgui_session.hpp"
#include "capture/offscreen.hpp"
#include "ui/pane_overlay.hpp"
#include "ui/picture_overlay.hpp"
#include "render/egl_context.hpp"
#include "run/paths.hpp"
#include "capture/pixels.hpp"
#include "capture/recorder.hpp"
#include "render/renderer.hpp"
#include "shutdown_signal.hpp"

namespace app {
namespace {

constexpr int kProgressEvery = 60;  ///< frames between progress lines (1 s at the default dt)
constexpr int kVideoFps = 60;

/// The GL context of offscreen drawing: a hidden GLFW window where there is an X display, else
/// Mesa's surfaceless EGL (a server, CI), so that --record and --screenshot need no X server.
struct OffscreenContext {
  std::unique_ptr<GlfwLibrary> glfw;
  WindowPtr window;  ///< hidden; exists only to own the GL context (null with EGL)
  std::unique_ptr<SurfacelessContext> egl;

  OffscreenContext(int w, int h) {
    try {
      glfw = std::make_unique<GlfwLibrary>();
    } catch (const NoDisplayError& no_display) {
      try {
        egl = std::make_unique<SurfacelessContext>();
      } catch (const std::exception& e) {
        throw NoDisplayError(std::string(no_display.what()) + "; " + e.what());
      }
      return;
    }
    window = create_gl_window(WindowSpec{w, h, "clothsim (offscreen)", false, 0});
  }
};

/// Everything needed to draw frames without a visible window. Built only when a video or a
/// screenshot was asked for, so plain headless runs never touch GLFW or GL at all.
struct OffscreenView {
  OffscreenContext context;  ///< first: outlives every GL object below
  OrbitCamera camera;
  std::vector<std::unique_ptr<Renderer>> renderers;  ///< one per pane
  std::unique_ptr<OffscreenTarget> target;
  std::unique_ptr<ImGuiSession> overlay;  ///< the panes' labels, caption and legend, as in the app
  ViewOptions view_options;              ///< --view (headless never reads the saved view)
  std::string caption;                    ///< the scene's name

  OffscreenView(const Options& o, const cloth::Scene& scene, const std::vector<Pane>& panes, int w,
                int h)
      : context(w, h),
        view_options(o.view.value_or(ViewOptions{})),
        caption(scene.name) {
    const auto& c = scene.camera;
    camera.set(glm::vec3(float(c.target.x()), float(c.target.y()), float(c.target.z())),
               float(c.distance), float(c.yaw_deg), float(c.pitch_deg));
    const float scale = o.ui_scale.value_or(1.0f);
    for (const Pane& p : panes) {
      renderers.push_back(std::make_unique<Renderer>(o.shader_dir, cloth::SimulationView(*p.sim)));
      renderers.back()->set_marker_scale(scale);
    }
    target = std::make_unique<OffscreenTarget>(w, h, 4);
    if (panes.size() > 1 || view_options.caption || view_options.strain_heat_map) {
      overlay = std::make_unique<ImGuiSession>(context.window.get(), false);
      overlay->set_scale(scale);
    }
  }

  std::vector<std::uint8_t> render(const std::vector<Pane>& panes) {
    target->bind();
    const std::vector<PaneRect> rects = pane_rects(int(panes.size()), target->width(), target->height());
    draw_panes(renderers, panes, rects, camera, target->width(), target->height(), view_options, false);
    if (overlay) {
      std::vector<PaneSummary> summaries;
      for (size_t k = 0; k < panes.size(); ++k) {
        summaries.push_back(PaneSummary{panes[k].label, rects[k], cloth::SimulationView(*panes[k].sim),
                                        panes[k].sim_ms, false});
      }
      if (!context.window) overlay->set_display_size(target->width(), target->height());
      overlay->begin_frame();
      draw_pane_labels(summaries);
      draw_picture_overlay(view_options.caption ? caption : "",
                           view_options.strain_heat_map ? view_options.heat_map_top : 0.0f,
                           PaneRect{0, 0, float(target->width()), float(target->height())}, "");
      overlay->render();
    }
    if (const std::string error = take_gl_errors("drawing a frame"); !error.empty())
      throw std::runtime_error(error);
    return target->read_rgb();
  }
};

std::unique_ptr<OffscreenView> make_offscreen_view(const Options& o, const cloth::Scene& scene,
                                                   const std::vector<Pane>& panes, int w, int h) {
  try {
    return std::make_unique<OffscreenView>(o, scene, panes, w, h);
  } catch (const NoDisplayError& e) {
    throw std::runtime_error(
        std::string(o.record_path.empty() ? "--screenshot" : "--record") +
        " needs OpenGL: an X display (DISPLAY, or xvfb-run -a) or Mesa's surfaceless EGL "
        "(libegl-mesa0): " + e.what());
  }
}

/// The static drape of --drape, applied as the starting state of the frames: that method with
/// the scene's other "drape" settings (--drape-tolerance is --set drape.force_tolerance).
/// "geometric" (Weil's model) stops on its own averaging change, not on the tolerance.
void drape(cloth::Simulation& sim, cloth::DrapeSettings settings, const Options& o) {
  settings.method = o.drape;
  const bool geometric = o.drape == cloth::kGeometricDrapeName;
  cloth::DrapeOptions options;
  if (!geometric) options = cloth::drape_options(settings);
  const auto t0 = std::chrono::steady_clock::now();
  const cloth::DrapeProblem problem = cloth::drape_problem_from(sim);
  const cloth::DrapeResult r = geometric ? cloth::geometric_drape(problem, cloth::WeilOptions{})
                                         : cloth::solve_drape(problem, options);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  char line[512];
  std::snprintf(line, sizeof line,
                "clothsim: drape (%s): %s after %d iterations (%d fine sweeps), energy %.9g J, "
                "max residual force %.3g N, %.0f ms",
                o.drape.c_str(), r.converged ? "converged" : "NOT converged", r.iterations,
                r.fine_sweeps, r.energy, r.max_force, ms);
  std::cout << line << "\n";
  if (!r.converged || geometric) std::cout << "clothsim: drape: " << r.message << "\n";
  sim.set_positions(r.x);
}

}  // namespace

int run_headless(const Options& o, const std::vector<PaneScene>& scenes) {
  std::vector<Pane> panes = make_panes(scenes);
  const cloth::Scene scene = shared_scene(scenes);

  // The first pane's cloth, one frame per step, as --export-obj writes it.
  FrameExports exports;
  start_requested_exports(exports, o.export_sequence, o.export_pc2, panes.front().sim->model().vertex_count());

  // Video frames must have even sizes for H.264 / yuv420p.
  const WindowSize size = o.window.value_or(WindowSize{1280, 720});
  const int w = even_floor(size.width), h = even_floor(size.height);
  std::unique_ptr<OffscreenView> view;
  Recorder recorder;
  if (!o.record_path.empty() || !o.screenshot_path.empty())
    view = make_offscreen_view(o, scene, panes, w, h);
  if (!o.record_path.empty()) recorder.start(o.record_path, w, h, kVideoFps);

  for (const Pane& p : panes) {
    const cloth::Simulation& sim = *p.sim;
    std::cout << "clothsim: headless '" << scenes.front().scene.name << "'"
              << (p.label.empty() ? "" : " pane '" + p.label + "'") << ": "
              << sim.model().vertex_count() << " vertices, integrator " << cloth::name_of(sim.solver().integrator)
              << ", dt " << sim.solver().dt << " s, " << o.frames << " frames\n";
  }

  if (!o.drape.empty()) {
    for (Pane& p : panes) drape(*p.sim, p.drape, o);
  }

  if (view && recorder.active()) recorder.add_frame(view->render(panes));  // the initial state
  for (int frame = 1; frame <= o.frames; ++frame) {
    if (shutdown_signal() != 0) break;  // stop early, but still write everything below
    for (Pane& p : panes) {
      const auto t0 = std::chrono::steady_clock::now();
      p.sim->step();
      const auto t1 = std::chrono::steady_clock::now();
      p.sim_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
      p.run_stats.add_frame(p.sim_ms);
    }
    if (recorder.active() && frame < o.frames) recorder.add_frame(view->render(panes));
    exports.add_frame(panes.front().sim->model().mesh, panes.front().sim->state());
    if (frame % kProgressEvery == 0 || frame == o.frames) {
      for (const Pane& p : panes) {
        char line[256];
        std::snprintf(line, sizeof line, "frame %d/%d  t=%.3f s  kinetic=%.6g J  instabilities=%d%s%s",
                      frame, o.frames, p.sim->time(), p.sim->energies().kinetic,
                      p.sim->statistics().instabilities, p.label.empty() ? "" : "  pane ", p.label.c_str());
        std::cout << line << "\n" << std::flush;
      }
    }
  }
  // The recording holds frames 0..N-1 (N frames); the screenshot shows the final state N.
  if (!o.screenshot_path.empty()) {
    write_png(o.screenshot_path, w, h, view->render(panes));
    std::cout << "clothsim: wrote screenshot " << o.screenshot_path << " (" << w << "x" << h
              << ")\n";
  }
  if (recorder.active()) {
    std::cout << "clothsim: " << recorder.finish().describe() << "\n";
  }
  if (!o.export_obj.empty()) {
    // One file: the first pane's cloth (the others differ only by their overrides).
    cloth::write_obj(o.export_obj, panes.front().sim->model().mesh, panes.front().sim->state());
    std::cout << "clothsim: wrote mesh " << o.export_obj << "\n";
  }
  for (const std::string& line : {exports.stop_sequence(), exports.stop_point_cache()})
    if (!line.empty()) std::cout << "clothsim: " << line << "\n";
  if (!o.stats_path.empty()) {
    cloth::write_json(o.stats_path, panes_stats_json(panes));
    std::cout << "clothsim: wrote stats " << o.stats_path << "\n";
  }
  if (const int signal = shutdown_signal()) {
    std::cout << "clothsim: stopped by signal " << signal << " after "
              << panes.front().sim->statistics().steps << " frames\n";
    return exit_status_for_signal(signal);
  }
  return 0;
}

}  // namespace app
