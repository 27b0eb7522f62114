#pragma once
// Command-line options of clothsim (CLI11). One struct for both modes: the headless runner and
// the interactive App read the fields they need.
#include <optional>
#include <string>
#include <vector>

#include "run/pane.hpp"
#include "render/view_options.hpp"

namespace app {

struct WindowSize {
  int width = 1280;  ///< px
  int height = 720;  ///< px
};

struct Options {
  std::string scene_path;              ///< --scene (default: the bundled default scene)
  bool headless = false;               ///< --headless, or forced when there is no display
  bool parameter_reference = false;    ///< --parameter-reference: print the table and exit
  int frames = 180;                    ///< --frames: headless frames to simulate
  std::string export_obj;              ///< --export-obj PATH ("" = none)
  std::string export_sequence;         ///< --export-sequence DIR: an OBJ per frame ("" = none)
  std::string export_pc2;              ///< --export-pc2 PATH.pc2: a point cache of the run ("" = none)
  std::string drape;                   ///< --drape METHOD: static drape before the frames ("" = none),
                                       ///< with the scene's other "drape" settings
  std::string stats_path;              ///< --stats PATH.json ("" = none)
  std::string record_path;             ///< --record PATH.mp4 ("" = none)
  std::string screenshot_path;         ///< --screenshot PATH.png, written on exit ("" = none)
  std::vector<std::string> overrides;  ///< --set key=value, in order; --integrator and
                                       ///< --drape-tolerance appended
  std::string compare;                 ///< --compare KEY=V1,V2[,..]: side-by-side panes ("" = none)
  bool one_pane = false;               ///< the panel's "One cloth": not even the scene's own "compare"
  std::optional<WindowSize> window;    ///< --window WxH (absent: mode's default size)
  int quit_after_frames = 0;           ///< --quit-after-frames N (0 = run until closed)
  std::string shader_dir;              ///< --shader-dir (default: baked-in source dir)
  std::optional<ViewOptions> view;     ///< --view LIST (absent: the saved view, else the defaults)
  std::optional<float> ui_scale;       ///< --ui-scale S, on ui_scale.hpp's steps (absent: the saved
                                       ///< scale in the window, 1 headless)
  std::optional<float> render_scale;   ///< --render-scale S: the window's panes drawn at S of its
                                       ///< width and height (absent: render_scale.hpp's default)
};

/// Parses "WxH" (e.g. "1024x768"); nullopt if malformed or outside 16..16384 px.
std::optional<WindowSize> parse_window_size(const std::string& text);

/// The scene file of the implicit cloth project's test case "1", "2" or "3" (--case); throws
/// cloth::InputError (one line) for anything else.
std::string case_scene_path(const std::string& test_case);

/// Result of parsing argv: either options to run with, or an exit code to return right away
/// (--help prints usage and gives 0; a bad argument prints CLI11's message and gives non-zero).
struct ParseResult {
  Options options;
  std::optional<int> exit_code;
};

ParseResult parse_command_line(int argc, char** argv);

/// The options to run the scene file `path` with, from those of the running scene. Picking
/// another file (the Scene list) leaves --set, --integrator and --compare with the file they were
/// given for: they may name keys or entries the other file does not have. Reloading the same file
/// (L) keeps them.
Options options_for_scene(const Options& running, const std::string& path);

/// The scene of options.scene_path with options.overrides, alone or once per pane: --compare
/// wins over the scene's own "compare", and options.one_pane over both. Appends load warnings; throws cloth::InputError.
std::vector<PaneScene> scenes_to_run(const Options& options, std::vector<std::string>& warnings);

}  // namespace app
