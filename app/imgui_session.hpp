#pragma once
// Dear ImGui set up on one GLFW window with the OpenGL 3 backend: the app's panel (ui.hpp) and
// the labels of headless side-by-side videos (headless.cpp) share it.
#include "gl.hpp"

namespace app {

class ImGuiSession {
 public:
  /// install_callbacks: the backend takes mouse and keyboard input (chaining to callbacks
  /// installed before); false for an offscreen window that draws only.
  ImGuiSession(GLFWwindow* window, bool install_callbacks);
  ~ImGuiSession();
  ImGuiSession(const ImGuiSession&) = delete;
  ImGuiSession& operator=(const ImGuiSession&) = delete;

  void begin_frame();
  /// Draws this frame's UI into the bound framebuffer.
  void render();
};

}  // namespace app
