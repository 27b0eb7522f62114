#pragma once
// Dear ImGui set up on one GLFW window with the OpenGL 3 backend: the app's panel (ui.hpp) and
// the labels of headless side-by-side videos (headless.cpp) share it.
#include <string>

#include "render/gl.hpp"

namespace app {

class ImGuiSession {
 public:
  /// install_callbacks: the backend takes mouse and keyboard input (chaining to callbacks
  /// installed before); false for an offscreen window that draws only. `window` null: no GLFW
  /// at all (a surfaceless context), the picture's size given by set_display_size. `ini_path`: where ImGui
  /// keeps its window places and sizes between runs ("" = nowhere: the same layout every time).
  ImGuiSession(GLFWwindow* window, bool install_callbacks, const std::string& ini_path = "");
  ~ImGuiSession();
  ImGuiSession(const ImGuiSession&) = delete;
  ImGuiSession& operator=(const ImGuiSession&) = delete;

  /// Draws text at kUiFontPx * scale (ImGui's built-in font rasterised at that size, so it stays
  /// sharp on a projector) and every padding, spacing and rounding scaled alike. Between frames.
  void set_scale(float scale);
  float scale() const { return scale_; }
  /// The picture's size, px, where there is no window to ask.
  void set_display_size(int width, int height);

  void begin_frame();
  /// Draws this frame's UI into the bound framebuffer.
  void render();

 private:
  std::string ini_path_;  ///< ImGui keeps a pointer to it
  bool glfw_backend_ = false;
  float scale_ = 1.0f;
};

}  // namespace app
