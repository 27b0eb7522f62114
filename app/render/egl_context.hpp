#pragma once
// An OpenGL 3.3 core context with no window and no X server: Mesa's surfaceless EGL platform
// (EGL_MESA_platform_surfaceless), for headless --record and --screenshot on a server or in CI,
// where GLFW (built for X11) cannot start. Everything is drawn into an offscreen framebuffer
// (offscreen.hpp), so no surface is needed.
#include <stdexcept>

namespace app {

/// Creates the context, makes it current and loads GL through glad; the destructor releases
/// it. Throws std::runtime_error saying what EGL refused.
class SurfacelessContext {
 public:
  SurfacelessContext();
  ~SurfacelessContext();
  SurfacelessContext(const SurfacelessContext&) = delete;
  SurfacelessContext& operator=(const SurfacelessContext&) = delete;

 private:
  void* display_ = nullptr;  ///< EGLDisplay
  void* context_ = nullptr;  ///< EGLContext
};

}  // namespace app
