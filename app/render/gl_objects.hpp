#pragma once
// Move-only owners of GL object names, so every buffer / vertex array / framebuffer is deleted
// exactly once, including when a constructor throws half-way.
#include <utility>

#include "render/gl.hpp"

namespace app {

template <typename Traits>
class GlObject {
 public:
  GlObject() { Traits::create(id_); }
  ~GlObject() {
    if (id_ != 0) Traits::destroy(id_);
  }
  GlObject(GlObject&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
  GlObject& operator=(GlObject&& other) noexcept {
    if (this != &other) {
      if (id_ != 0) Traits::destroy(id_);
      id_ = std::exchange(other.id_, 0);
    }
    return *this;
  }
  GlObject(const GlObject&) = delete;
  GlObject& operator=(const GlObject&) = delete;
  GLuint id() const { return id_; }

 private:
  GLuint id_ = 0;
};

struct BufferTraits {
  static void create(GLuint& id) { glGenBuffers(1, &id); }
  static void destroy(GLuint& id) { glDeleteBuffers(1, &id); }
};
struct VertexArrayTraits {
  static void create(GLuint& id) { glGenVertexArrays(1, &id); }
  static void destroy(GLuint& id) { glDeleteVertexArrays(1, &id); }
};
struct FramebufferTraits {
  static void create(GLuint& id) { glGenFramebuffers(1, &id); }
  static void destroy(GLuint& id) { glDeleteFramebuffers(1, &id); }
};
struct RenderbufferTraits {
  static void create(GLuint& id) { glGenRenderbuffers(1, &id); }
  static void destroy(GLuint& id) { glDeleteRenderbuffers(1, &id); }
};

struct TextureTraits {
  static void create(GLuint& id) { glGenTextures(1, &id); }
  static void destroy(GLuint& id) { glDeleteTextures(1, &id); }
};

using GlBuffer = GlObject<BufferTraits>;
using GlTexture = GlObject<TextureTraits>;
using GlVertexArray = GlObject<VertexArrayTraits>;
using GlFramebuffer = GlObject<FramebufferTraits>;
using GlRenderbuffer = GlObject<RenderbufferTraits>;

}  // namespace app
