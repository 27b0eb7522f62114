// clothsim entry point: parses the command line, loads the scene, and runs either the headless
// runner or the interactive app. This is the error boundary: bad input of any kind ends in ONE
// line `clothsim: error: <reason>` on stderr and exit code 2, never in a crash.
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "app.hpp"
#include "core/error.hpp"
#include "render/gl_context.hpp"
#include "headless.hpp"
#include "io/parameter_reference.hpp"
#include "options.hpp"
#include "run/pane.hpp"
#include "run/paths.hpp"
#include "shutdown_signal.hpp"

namespace {

constexpr int kExitBadInput = 2;

bool has_display() {
  const char* x11 = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  return (x11 != nullptr && *x11 != '\0') || (wayland != nullptr && *wayland != '\0');
}

int fail(const std::string& message) {
  std::cerr << "clothsim: error: " << message << "\n";
  return kExitBadInput;
}

int run(int argc, char** argv) {
  app::ParseResult parsed = app::parse_command_line(argc, argv);
  if (parsed.exit_code) return *parsed.exit_code;
  app::Options& options = parsed.options;
  if (options.parameter_reference) {
    std::cout << cloth::parameter_reference_markdown();
    return 0;
  }

  // Output paths are checked before anything runs: a typo must not cost a long run.
  app::check_output_path("--export-obj", options.export_obj);
  app::check_output_path("--export-pc2", options.export_pc2);
  app::check_output_path("--stats", options.stats_path);
  app::check_output_path("--record", options.record_path);
  app::check_output_path("--screenshot", options.screenshot_path);

  if (!options.headless && !has_display()) {
    std::cerr << "clothsim: no DISPLAY set, running headless\n";
    options.headless = true;
  }
  std::vector<std::string> warnings;
  std::vector<app::PaneScene> scenes;
  std::string scene_error;
  const std::string asked_path = options.scene_path;
  try {
    scenes = app::scenes_to_run(options, warnings);
  } catch (const cloth::InputError& e) {
    // A headless run ends here. The window opens on the default scene instead, with the error
    // in its panel, where another scene can be picked or the file fixed and loaded again.
    if (options.headless || options.scene_path == app::default_scene_path()) throw;
    std::cerr << "clothsim: error: " << e.what() << " (opening the default scene)\n";
    scene_error = e.what();
    options.scene_path = app::default_scene_path();
    options.overrides.clear();  // they may be what failed, and they were meant for the other file
    options.compare.clear();
    warnings.clear();
    scenes = app::scenes_to_run(options, warnings);
  }
  for (const std::string& w : warnings) std::cerr << "clothsim: warning: " << w << "\n";
  if (options.headless) return app::run_headless(options, scenes);

  app::App application(options, scenes);
  if (!scene_error.empty()) application.show_scene_error(asked_path, scene_error);
  return application.run();
}

}  // namespace

int main(int argc, char** argv) {
  app::install_shutdown_handlers();
  try {
    return run(argc, argv);
  } catch (const cloth::InputError& e) {
    return fail(e.what());
  } catch (const app::NoDisplayError& e) {
    return fail(std::string("cannot open a window (") + e.what() +
                "); use --headless, or run under xvfb-run -a");
  } catch (const std::exception& e) {
    return fail(e.what());
  } catch (...) {
    return fail("unexpected internal error");
  }
}
