#include "render/gl_context.hpp"

#include "render/software_gl.hpp"

namespace app {
namespace {

// GLFW reports errors through a C callback; keep the latest for our one-line messages.
std::string& glfw_error_text() {
  static std::string text;
  return text;
}

void on_glfw_error(int code, const char* description) {
  glfw_error_text() = std::string(description ? description : "unknown") + " (GLFW error " +
                      std::to_string(code) + ")";
}

}  // namespace

std::string last_glfw_error() {
  return glfw_error_text();
}

GlfwLibrary::GlfwLibrary() {
  glfwSetErrorCallback(on_glfw_error);
  if (glfwInit() != GLFW_TRUE) throw NoDisplayError(last_glfw_error());
}

GlfwLibrary::~GlfwLibrary() {
  glfwTerminate();
}

WindowPtr create_gl_window(const WindowSpec& spec) {
  auto try_create = [&](int samples) {
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);  // required on macOS, harmless elsewhere
    glfwWindowHint(GLFW_SAMPLES, samples);
    glfwWindowHint(GLFW_VISIBLE, spec.visible ? GLFW_TRUE : GLFW_FALSE);
    return WindowPtr(
        glfwCreateWindow(spec.width, spec.height, spec.title.c_str(), nullptr, nullptr));
  };
  auto make_current = [](GLFWwindow* w) {
    glfwMakeContextCurrent(w);
    if (gladLoadGL(glfwGetProcAddress) == 0)
      throw std::runtime_error("cannot load OpenGL 3.3 core functions (glad)");
  };
  WindowPtr window = try_create(spec.samples);
  if (!window && spec.samples > 0) window = try_create(0);
  if (!window)
    throw std::runtime_error("cannot create an OpenGL 3.3 core window: " + last_glfw_error());
  make_current(window.get());
  // The renderer is known only once a context exists: on a CPU rasteriser the window is made
  // again without multisampling (software_gl.hpp).
  const GLubyte* renderer = glGetString(GL_RENDERER);
  if (spec.samples > 0 && renderer && is_software_renderer(reinterpret_cast<const char*>(renderer))) {
    glfwMakeContextCurrent(nullptr);
    window.reset();
    window = try_create(0);
    if (!window)
      throw std::runtime_error("cannot create an OpenGL 3.3 core window: " + last_glfw_error());
    make_current(window.get());
  }
  return window;
}

}  // namespace app
