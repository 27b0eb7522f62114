#pragma once
// The one table of what the keyboard and the mouse do in the window: the key handler
// (App::on_key) looks a key up here, the help overlay (F1) lists it, and the README's "Using the
// app" table is this table (KeyBindings.TheReadmeTableIsTheTable holds them together).
#include <array>
#include <optional>
#include <string>

namespace app {

/// What a key asks the App to do.
enum class Command {
  Escape,         ///< close a dropdown or the help; otherwise ask, and a second one quits
  Quit,
  PauseOrPlay,    ///< pause / resume the simulation, or the replay while it shows the past
  Step,
  Reset,
  Replay,
  ReplayBack,
  ReplayForward,
  Live,
  Wireframe,
  Caption,
  Record,
  Screenshot,
  Plots,
  Reload,
  Save,
  Help,
  Fullscreen,
  Larger,
  Smaller,
  NormalSize,
};

struct KeyBinding {
  Command command;
  std::array<int, 2> keys;  ///< GLFW key codes that do it (0: none)
  bool ctrl;                ///< only with Ctrl held
  const char* label;        ///< the key as the help and the README name it
  const char* what;
};

/// A mouse gesture: drawn in the same tables, handled by MouseController.
struct PointerBinding {
  const char* label;
  const char* what;
};

/// The keys, in the order the help and the README list them.
extern const std::array<KeyBinding, 21> kKeyBindings;
/// The mouse, listed before the keys.
extern const std::array<PointerBinding, 7> kPointerBindings;

/// The command of a GLFW key with modifiers `mods`, if it has one.
std::optional<Command> command_for(int key, int mods);

/// The README's table: "| input | action |", its rule, then one row per binding (mouse first).
std::string bindings_markdown();

}  // namespace app
