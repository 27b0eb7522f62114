#include "render/render_scale.hpp"

#include <algorithm>
#include <cmath>

#include "render/software_gl.hpp"

namespace app {

float default_render_scale(const std::string& gl_renderer) {
  return is_software_renderer(gl_renderer) ? kSoftwareRenderScale : 1.0f;
}

float clamped_render_scale(float scale) {
  return std::isnan(scale) ? 1.0f : std::clamp(scale, kMinRenderScale, 1.0f);
}

LayerSize scaled_layer_size(int fb_w, int fb_h, float scale) {
  const float s = clamped_render_scale(scale);
  return {std::max(1, int(std::lround(float(fb_w) * s))), std::max(1, int(std::lround(float(fb_h) * s)))};
}

}  // namespace app
