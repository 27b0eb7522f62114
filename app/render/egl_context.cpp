#include "render/egl_context.hpp"

#include "render/gl.hpp"

#define EGL_NO_X11  // no Xlib types or macros: this path exists for machines without X
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdio>
#include <string>

namespace app {

namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error("surfaceless EGL: " + what + " (EGL error 0x" + [] {
    char hex[16];
    std::snprintf(hex, sizeof hex, "%x", unsigned(eglGetError()));
    return std::string(hex);
  }() + ")");
}

}  // namespace

SurfacelessContext::SurfacelessContext() {
  const auto get_platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (!get_platform_display) fail("no eglGetPlatformDisplayEXT");
  EGLDisplay display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (display == EGL_NO_DISPLAY) fail("no surfaceless display (is Mesa's libegl-mesa0 installed?)");
  if (!eglInitialize(display, nullptr, nullptr)) fail("eglInitialize failed");
  display_ = display;
  if (!eglBindAPI(EGL_OPENGL_API)) fail("no desktop OpenGL API");
  // The default EGL_SURFACE_TYPE asks for windows, which a surfaceless display has none of.
  const EGLint config_attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint configs = 0;
  if (!eglChooseConfig(display, config_attributes, &config, 1, &configs) || configs < 1) fail("no OpenGL config");
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                       EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  if (context == EGL_NO_CONTEXT) fail("no OpenGL 3.3 core context");
  context_ = context;
  if (!eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) fail("eglMakeCurrent failed");
  if (gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress)) == 0) fail("could not load OpenGL");
}

SurfacelessContext::~SurfacelessContext() {
  if (!display_) return;
  eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (context_) eglDestroyContext(display_, context_);
  eglTerminate(display_);
}

}  // namespace app
