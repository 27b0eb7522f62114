#include "capture/pixels.hpp"

#include <stb_image_write.h>  // implementation lives in Debian's libstb

#include <algorithm>
#include <stdexcept>

#include "render/gl.hpp"

namespace app {

std::vector<std::uint8_t> read_rgb_top_down(int w, int h) {
  const size_t row = size_t(w) * 3;
  std::vector<std::uint8_t> pixels(row * size_t(h));
  glPixelStorei(GL_PACK_ALIGNMENT, 1);  // rows of 3*w bytes, no padding to 4
  glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
  for (int y = 0; y < h / 2; ++y)
    std::swap_ranges(pixels.begin() + std::ptrdiff_t(size_t(y) * row),
                     pixels.begin() + std::ptrdiff_t(size_t(y + 1) * row),
                     pixels.begin() + std::ptrdiff_t(size_t(h - 1 - y) * row));
  return pixels;
}

void write_png(const std::string& path, int w, int h, const std::vector<std::uint8_t>& rgb) {
  if (stbi_write_png(path.c_str(), w, h, 3, rgb.data(), w * 3) == 0)
    throw std::runtime_error("cannot write PNG '" + path + "'");
}

}  // namespace app
