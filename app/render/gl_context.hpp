#pragma once
// GLFW start-up and GL 3.3 core window creation, shared by the interactive App and the headless
// recorder (which uses a hidden window only to own a GL context).
#include <memory>
#include <stdexcept>
#include <string>

#include "render/gl.hpp"

namespace app {

/// glfwInit failed: there is no display to talk to (no X server, bad DISPLAY).
class NoDisplayError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// glfwInit / glfwTerminate as a scope guard. Throws NoDisplayError with GLFW's reason.
class GlfwLibrary {
 public:
  GlfwLibrary();
  ~GlfwLibrary();
  GlfwLibrary(const GlfwLibrary&) = delete;
  GlfwLibrary& operator=(const GlfwLibrary&) = delete;
};

struct WindowDeleter {
  void operator()(GLFWwindow* w) const { glfwDestroyWindow(w); }
};
using WindowPtr = std::unique_ptr<GLFWwindow, WindowDeleter>;

struct WindowSpec {
  int width = 1280;  ///< px (window coordinates)
  int height = 720;  ///< px
  std::string title = "clothsim";
  bool visible = true;
  int samples = 4;  ///< MSAA samples of the default framebuffer (0 = none)
};

/// Creates a window with a GL 3.3 core context, makes it current and loads GL through glad.
/// Falls back to no MSAA if the display has no multisampled visual, and uses none on a software
/// renderer (software_gl.hpp). Throws std::runtime_error.
WindowPtr create_gl_window(const WindowSpec& spec);

/// The last message GLFW reported through its error callback ("" if none).
std::string last_glfw_error();

}  // namespace app
