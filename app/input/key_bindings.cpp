#include "input/key_bindings.hpp"

#include <GLFW/glfw3.h>

namespace app {

const std::array<PointerBinding, 7> kPointerBindings = {{
    {"left-drag on the cloth", "grab the vertex under the cursor and drag it; release lets go"},
    {"Ctrl + left-click", "pin / unpin the vertex under the cursor"},
    {"Shift + left-drag on a solid", "move the solid (sphere, box, table...) by hand; Reset puts it back"},
    {"left-drag on empty space, or right-drag", "orbit the camera"},
    {"middle-drag, or Shift + right-drag", "pan"},
    {"scroll", "zoom"},
    {"click in a pane", "side by side: the panels edit that pane; Space, N, R act on all"},
}};

const std::array<KeyBinding, 21> kKeyBindings = {{
    {Command::PauseOrPlay, {GLFW_KEY_SPACE, 0}, false, "Space", "pause / resume (the replay, while it shows the past)"},
    {Command::Step, {GLFW_KEY_N, 0}, false, "N", "single step (one dt) while paused"},
    {Command::Reset, {GLFW_KEY_R, 0}, false, "R", "reset the cloth, its pins and solids (all panes side by side); settings are kept"},
    {Command::Replay, {GLFW_KEY_HOME, 0}, false, "Home",
     "replay the last 30 s (fewer for a large cloth) in slow motion; the simulation waits"},
    {Command::ReplayBack, {GLFW_KEY_LEFT, 0}, false, "Left", "replay: one frame back"},
    {Command::ReplayForward, {GLFW_KEY_RIGHT, 0}, false, "Right", "replay: one frame on"},
    {Command::Live, {GLFW_KEY_END, 0}, false, "End", "back to the live simulation, where it waited"},
    {Command::Wireframe, {GLFW_KEY_W, 0}, false, "W", "wireframe on / off"},
    {Command::Caption, {GLFW_KEY_C, 0}, false, "C", "the scene's caption in the picture on / off (in screenshots and videos too)"},
    {Command::Plots, {GLFW_KEY_P, 0}, false, "P", "live plots on / off (time per step as in B&W Table 1, CG iterations, energy)"},
    {Command::Record, {GLFW_KEY_V, 0}, false, "V",
     "start / stop recording out/recording-<time>.mp4, one frame per 1/60 s simulated (REC in the picture)"},
    {Command::Screenshot, {GLFW_KEY_F12, 0}, false, "F12", "screenshot to out/screenshot-<time>.png"},
    {Command::Save, {GLFW_KEY_S, 0}, true, "Ctrl + S", "save the scene as it runs to out/<scene>-saved.json (the Scene section takes another path)"},
    {Command::Reload, {GLFW_KEY_L, 0}, false, "L", "reload the scene file from disk (a broken file keeps the running scene)"},
    {Command::Fullscreen, {GLFW_KEY_F11, 0}, false, "F11", "fullscreen on / off (for a projector)"},
    {Command::Larger, {GLFW_KEY_EQUAL, GLFW_KEY_KP_ADD}, true, "Ctrl + +", "larger panel text, markers and arrows (kept between runs)"},
    {Command::Smaller, {GLFW_KEY_MINUS, GLFW_KEY_KP_SUBTRACT}, true, "Ctrl + -", "smaller panel text, markers and arrows"},
    {Command::NormalSize, {GLFW_KEY_0, GLFW_KEY_KP_0}, true, "Ctrl + 0", "normal panel text, markers and arrows"},
    {Command::Help, {GLFW_KEY_F1, 0}, false, "F1", "this help on / off"},
    {Command::Escape, {GLFW_KEY_ESCAPE, 0}, false, "Esc",
     "close a dropdown or the help; otherwise the first asks (\"Esc again to quit\") and a second within 3 s quits"},
    {Command::Quit, {GLFW_KEY_Q, 0}, true, "Ctrl + Q", "quit"},
}};

std::optional<Command> command_for(int key, int mods) {
  const bool ctrl = (mods & GLFW_MOD_CONTROL) != 0;
  for (const KeyBinding& b : kKeyBindings) {
    if (key != 0 && (b.keys[0] == key || b.keys[1] == key) && b.ctrl == ctrl) return b.command;
  }
  return std::nullopt;
}

std::string bindings_markdown() {
  std::string table = "| input | action |\n|---|---|\n";
  for (const PointerBinding& b : kPointerBindings) table += std::string("| ") + b.label + " | " + b.what + " |\n";
  for (const KeyBinding& b : kKeyBindings) table += std::string("| ") + b.label + " | " + b.what + " |\n";
  return table;
}

}  // namespace app
