#pragma once
// Images on the cloth (the View panel's texture): a PNG read with stb_image into a repeating,
// mipmapped GL texture.
#include <string>

#include "render/gl_objects.hpp"

namespace app {

/// Loads `path` (any format stb_image reads) as an RGB texture that repeats in both directions.
/// Needs a current GL context. Throws std::runtime_error naming the file when it cannot be read.
GlTexture load_texture(const std::string& path);

}  // namespace app
