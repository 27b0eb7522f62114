#include "render/texture.hpp"

#include <stb_image.h>  // implementation lives in Debian's libstb

#include <memory>
#include <stdexcept>

namespace app {

GlTexture load_texture(const std::string& path) {
  int w = 0, h = 0, channels = 0;
  stbi_set_flip_vertically_on_load(1);  // GL's texture origin is the bottom-left
  std::unique_ptr<unsigned char, void (*)(void*)> pixels(stbi_load(path.c_str(), &w, &h, &channels, 3),
                                                         stbi_image_free);
  if (!pixels) throw std::runtime_error("cannot read texture " + path + ": " + stbi_failure_reason());
  GlTexture texture;
  glBindTexture(GL_TEXTURE_2D, texture.id());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);  // RGB rows need not be 4-byte aligned
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, w, h, 0, GL_RGB, GL_UNSIGNED_BYTE, pixels.get());
  glGenerateMipmap(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glBindTexture(GL_TEXTURE_2D, 0);
  return texture;
}

}  // namespace app
