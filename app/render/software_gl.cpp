#include "render/software_gl.hpp"

#include <algorithm>
#include <cctype>

namespace app {

bool is_software_renderer(const std::string& gl_renderer) {
  std::string lower = gl_renderer;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  for (const char* name : {"llvmpipe", "softpipe", "swiftshader"})
    if (lower.find(name) != std::string::npos) return true;
  return false;
}

}  // namespace app
