#pragma once
// GLSL programs loaded from files at run time (shaders/ in the source tree, or --shader-dir).
#include <glm/glm.hpp>
#include <string>

#include "render/gl.hpp"

namespace app {

/// A linked vertex (+ geometry) + fragment program. Move-only; deletes the GL program on
/// destruction.
class ShaderProgram {
 public:
  ShaderProgram() = default;
  /// Loads `<dir>/<name>.vert`, `<dir>/<name>.geom` where that file exists, and
  /// `<dir>/<name>.frag`; throws std::runtime_error naming the file and carrying the GLSL
  /// compiler / linker log.
  ShaderProgram(const std::string& dir, const std::string& name);
  ~ShaderProgram();
  ShaderProgram(ShaderProgram&& other) noexcept;
  ShaderProgram& operator=(ShaderProgram&& other) noexcept;
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;

  void use() const { glUseProgram(id_); }
  GLuint id() const { return id_; }

  // Uniform setters; a name the compiler optimised away is silently ignored (location -1).
  void set(const char* name, const glm::mat4& m) const;
  void set(const char* name, const glm::vec2& v) const;
  void set(const char* name, const glm::vec3& v) const;
  void set(const char* name, const glm::vec4& v) const;
  void set(const char* name, float f) const;
  void set(const char* name, int i) const;

 private:
  GLuint id_ = 0;
};

}  // namespace app
