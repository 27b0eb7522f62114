#include "render/gl_errors.hpp"

#include <cstdio>

#include "render/gl.hpp"

namespace app {
namespace {

const char* gl_error_name(GLenum e) {
  switch (e) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    default: return "unknown GL error";
  }
}

}  // namespace

std::string take_gl_errors(const std::string& where) {
  std::string names;
  // Bounded: a lost context can report errors forever.
  for (int k = 0; k < 16; ++k) {
    const GLenum e = glGetError();
    if (e == GL_NO_ERROR) break;
    char code[64];
    std::snprintf(code, sizeof code, "%s (0x%04x)", gl_error_name(e), unsigned(e));
    names += (names.empty() ? "" : ", ") + std::string(code);
  }
  return names.empty() ? "" : "OpenGL error " + names + " while " + where;
}

}  // namespace app
