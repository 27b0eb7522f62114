#include "render/shader.hpp"

#include <fstream>
#include <glm/gtc/type_ptr.hpp>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

namespace app {
namespace {

/// GLSL logs span several lines; errors must stay one line on the terminal ("a; b; c").
std::string one_line(std::string log) {
  while (!log.empty() && (log.back() == '\n' || log.back() == '\r' || log.back() == '\0'))
    log.pop_back();
  std::string out;
  for (char c : log) {
    if (c == '\n')
      out += "; ";
    else if (c != '\r')
      out += c;
  }
  return out;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read shader '" + path + "' (use --shader-dir DIR)");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

GLuint compile(GLenum type, const std::string& path) {
  const std::string source = read_text(path);
  const GLuint shader = glCreateShader(type);
  const char* src = source.c_str();
  glShaderSource(shader, 1, &src, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok == GL_FALSE) {
    GLint len = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &len);
    std::vector<char> log(static_cast<size_t>(len > 1 ? len : 1), '\0');
    glGetShaderInfoLog(shader, len, nullptr, log.data());
    glDeleteShader(shader);
    throw std::runtime_error("shader '" + path + "' does not compile: " + one_line(log.data()));
  }
  return shader;
}

}  // namespace

ShaderProgram::ShaderProgram(const std::string& dir, const std::string& name) {
  const std::string base = dir + "/" + name;
  // The stages this program has: vertex and fragment always, a geometry stage where its file is.
  std::vector<std::pair<GLenum, std::string>> stages = {{GL_VERTEX_SHADER, base + ".vert"}};
  if (std::ifstream(base + ".geom").good()) stages.emplace_back(GL_GEOMETRY_SHADER, base + ".geom");
  stages.emplace_back(GL_FRAGMENT_SHADER, base + ".frag");
  std::vector<GLuint> shaders;
  try {
    for (const auto& [type, path] : stages) shaders.push_back(compile(type, path));
  } catch (...) {
    for (GLuint s : shaders) glDeleteShader(s);
    throw;
  }
  id_ = glCreateProgram();
  for (GLuint s : shaders) glAttachShader(id_, s);
  glLinkProgram(id_);
  for (GLuint s : shaders) glDeleteShader(s);  // flagged for deletion; freed with the program
  GLint ok = 0;
  glGetProgramiv(id_, GL_LINK_STATUS, &ok);
  if (ok == GL_FALSE) {
    GLint len = 0;
    glGetProgramiv(id_, GL_INFO_LOG_LENGTH, &len);
    std::vector<char> log(static_cast<size_t>(len > 1 ? len : 1), '\0');
    glGetProgramInfoLog(id_, len, nullptr, log.data());
    glDeleteProgram(id_);
    id_ = 0;
    throw std::runtime_error("shader program '" + base +
                             "' does not link: " + one_line(log.data()));
  }
}

ShaderProgram::~ShaderProgram() {
  if (id_ != 0) glDeleteProgram(id_);
}

ShaderProgram::ShaderProgram(ShaderProgram&& other) noexcept : id_(std::exchange(other.id_, 0)) {}

ShaderProgram& ShaderProgram::operator=(ShaderProgram&& other) noexcept {
  if (this != &other) {
    if (id_ != 0) glDeleteProgram(id_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

void ShaderProgram::set(const char* name, const glm::mat4& m) const {
  glUniformMatrix4fv(glGetUniformLocation(id_, name), 1, GL_FALSE, glm::value_ptr(m));
}
void ShaderProgram::set(const char* name, const glm::vec2& v) const {
  glUniform2fv(glGetUniformLocation(id_, name), 1, glm::value_ptr(v));
}
void ShaderProgram::set(const char* name, const glm::vec3& v) const {
  glUniform3fv(glGetUniformLocation(id_, name), 1, glm::value_ptr(v));
}
void ShaderProgram::set(const char* name, const glm::vec4& v) const {
  glUniform4fv(glGetUniformLocation(id_, name), 1, glm::value_ptr(v));
}
void ShaderProgram::set(const char* name, float f) const {
  glUniform1f(glGetUniformLocation(id_, name), f);
}
void ShaderProgram::set(const char* name, int i) const {
  glUniform1i(glGetUniformLocation(id_, name), i);
}

}  // namespace app
