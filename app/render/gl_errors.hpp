#pragma once
// OpenGL errors are sticky flags nobody sees unless asked: the renderer's callers ask once per
// frame, so a broken render mode fails the headless run and shows in the app's status line
// instead of drawing garbage silently (the render smoke test rests on this).
#include <string>

namespace app {

/// Drains glGetError(); "" when there was none, else one line naming the errors and `where`.
std::string take_gl_errors(const std::string& where);

}  // namespace app
