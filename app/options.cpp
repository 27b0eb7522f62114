#include "options.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <filesystem>
#include <sstream>

#include "core/error.hpp"
#include "drape/drape_settings.hpp"
#include "io/compare_panes.hpp"
#include "io/scene.hpp"
#include "run/paths.hpp"
#include "render/render_scale.hpp"
#include "ui/ui_scale.hpp"

namespace app {

std::optional<WindowSize> parse_window_size(const std::string& text) {
  const auto x = text.find_first_of("xX");
  if (x == std::string::npos) return std::nullopt;
  WindowSize size;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [p1, e1] = std::from_chars(begin, begin + x, size.width);
  auto [p2, e2] = std::from_chars(begin + x + 1, end, size.height);
  if (e1 != std::errc() || e2 != std::errc() || p1 != begin + x || p2 != end) return std::nullopt;
  // Below 16 px nothing useful is visible; above 16384 no GL implementation has such buffers.
  constexpr int kMin = 16, kMax = 16384;
  if (size.width < kMin || size.height < kMin || size.width > kMax || size.height > kMax)
    return std::nullopt;
  return size;
}

std::string case_scene_path(const std::string& test_case) {
  // The implicit cloth project's test cases set up the initial state by case number (1, 2 or 3).
  const char* file = test_case == "1"   ? "case1_patch.json"
                     : test_case == "2" ? "case2_flag.json"
                     : test_case == "3" ? "waving_handkerchief.json"
                                        : nullptr;
  if (file == nullptr) throw cloth::InputError("--case must be 1, 2 or 3 (the implicit cloth project's test cases), got '" + test_case + "'");
  return (std::filesystem::path(default_scene_path()).parent_path() / file).string();
}

ParseResult parse_command_line(int argc, char** argv) {
  ParseResult result;
  Options& o = result.options;
  o.scene_path = default_scene_path();
  o.shader_dir = default_shader_dir();

  CLI::App cli{"clothsim: interactive real-time cloth simulator (SI units throughout)", "clothsim"};
  std::string integrator;
  std::string window_text;
  std::string test_case;
  std::string view_list;
  cli.add_option("--scene", o.scene_path, "Scene JSON file")->capture_default_str();
  cli.add_option("--case", test_case,
                 "The implicit cloth project's test case: "
                 "1 (horizontal patch, two adjacent corners pinned), "
                 "2 (vertical flag in wind), 3 (waving handkerchief); instead of --scene");
  cli.add_flag("--headless", o.headless,
               "Run without a window (automatic when DISPLAY is not set)");
  cli.add_option("--frames", o.frames, "Headless: number of fixed steps (frames) to simulate")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000000));
  cli.add_option("--export-obj", o.export_obj, "Write the final cloth positions as OBJ");
  cli.add_option("--export-sequence", o.export_sequence,
                 "Write every simulated frame as DIR/frame_00001.obj, ... (positions, normals, "
                 "texture coordinates; DIR created when missing)");
  cli.add_option("--export-pc2", o.export_pc2,
                 "Write the run as a PC2 point cache (Blender's Mesh Cache modifier), one sample per "
                 "simulated frame from frame 1");
  cli.add_option("--drape", o.drape,
                 "Headless: find the static drape (Feynman 1986) before the frames: newton, "
                 "multigrid-v, multigrid-w, relax-red-black, relax-sequential, relax-jacobi, or geometric (Weil's catenaries)");
  double drape_tolerance = cloth::DrapeSettings{}.options.force_tolerance;
  cli.add_option("--drape-tolerance", drape_tolerance,
                 "Static drape stop rule: largest residual force on a free vertex, N (same as "
                 "--set drape.force_tolerance=X; default: the scene's)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cli.add_option("--stats", o.stats_path,
                 "Write run statistics JSON (interactive: also refreshed every 0.5 s)");
  cli.add_option("--record", o.record_path, "Record an H.264 video through ffmpeg (.mp4)");
  cli.add_option("--integrator", integrator,
                 "Time integrator (same as --set solver.integrator=NAME)");
  // One key=value per --set; repeat the flag for more (so a value can never swallow the next
  // positional-looking argument).
  cli.add_option("--set", o.overrides, "Override a scene field: --set cloth.material.bending=2e-4")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cli.add_option("--compare", o.compare,
                 "Side by side: one pane per value of a scene field, e.g. "
                 "--compare solver.integrator=symplectic-euler,implicit (2 to 4 values)");
  cli.add_option("--screenshot", o.screenshot_path, "Save a PNG of the last frame on exit");
  cli.add_option("--window", window_text, "Window / video size WxH in px, e.g. 1280x720");
  cli.add_option("--quit-after-frames", o.quit_after_frames,
                 "Interactive: quit after N displayed frames (for tests)")
      ->check(CLI::NonNegativeNumber);
  cli.add_option("--view", view_list,
                 "Render modes and overlays, comma-separated: wireframe, heat-map, velocity, force, "
                 "wind, contacts, springs, caption, checker, fabric, no-pins, no-ground, no-shadow");
  float ui_scale = 1.0f;
  cli.add_option("--ui-scale", ui_scale,
                 "Presentation scale of text, markers and arrows, 0.75 to 3 in steps of 0.25 "
                 "(the window starts at it; Ctrl + / Ctrl - change it)")
      ->check(CLI::Range(kUiScaleMin, kUiScaleMax));
  float render_scale = 1.0f;
  cli.add_option("--render-scale", render_scale,
                 "Window: draw the cloth panes at this fraction of the window's width and height, "
                 "0.25 to 1, scaled up under the panel (default 1 on a GPU, 0.5 on a software renderer)")
      ->check(CLI::Range(double(kMinRenderScale), 1.0));
  cli.add_flag("--parameter-reference", o.parameter_reference,
               "Print the scene parameters' reference table (Markdown, as in docs/scene-format.md) "
               "and exit");
  cli.add_option("--shader-dir", o.shader_dir, "Directory of the GLSL shaders")
      ->capture_default_str();

  try {
    cli.parse(argc, argv);
    if (!window_text.empty()) {
      o.window = parse_window_size(window_text);
      if (!o.window)
        throw CLI::ValidationError(
            "--window", "expected WxH with 16..16384 px each, got '" + window_text + "'");
    }
  } catch (const CLI::ParseError& e) {
    result.exit_code = cli.exit(e);
    return result;
  }
  if (cli.count("--case") > 0) {
    if (cli.count("--scene") > 0) throw cloth::InputError("--case and --scene both name a scene: give one");
    o.scene_path = case_scene_path(test_case);
  }
  if (cli.count("--view") > 0) o.view = parse_view_list(view_list);
  if (cli.count("--ui-scale") > 0) o.ui_scale = stepped_ui_scale(ui_scale, 0);
  if (cli.count("--render-scale") > 0) o.render_scale = render_scale;
  if (!integrator.empty()) o.overrides.push_back("solver.integrator=" + integrator);
  if (cli.count("--drape-tolerance") > 0) {
    std::ostringstream value;
    value.precision(17);
    value << drape_tolerance;
    o.overrides.push_back("drape.force_tolerance=" + value.str());
  }
  return result;
}

Options options_for_scene(const Options& running, const std::string& path) {
  Options options = running;
  options.scene_path = path;
  if (path != running.scene_path) {
    options.overrides.clear();
    options.compare.clear();
    options.one_pane = false;
  }
  return options;
}

std::vector<PaneScene> scenes_to_run(const Options& options, std::vector<std::string>& warnings) {
  const nlohmann::json document = cloth::load_scene_document(options.scene_path, options.overrides);
  const std::string dir = cloth::scene_source_dir(options.scene_path);
  cloth::Scene scene = cloth::parse_scene(document, dir, warnings);
  cloth::give_switched_integrator_its_substeps(scene, options.scene_path, options.overrides);
  const std::vector<cloth::ComparePane> panes = options.one_pane          ? std::vector<cloth::ComparePane>{}
                                                 : options.compare.empty() ? scene.compare
                                                                           : cloth::compare_sweep(options.compare);
  if (panes.empty()) return {PaneScene{"", std::move(scene), document, dir}};
  const std::vector<cloth::Scene> scenes =
      cloth::load_pane_scenes(options.scene_path, options.overrides, panes, warnings);
  std::vector<PaneScene> out;
  for (size_t k = 0; k < panes.size(); ++k) {
    nlohmann::json pane_document = document;
    for (const std::string& o : panes[k].overrides) cloth::apply_override(pane_document, o);
    out.push_back(PaneScene{panes[k].label, scenes[k], std::move(pane_document), dir});
  }
  return out;
}

}  // namespace app
