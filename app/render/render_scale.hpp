#pragma once
// The resolution the interactive window draws its panes at, as a fraction of the window's width
// and height (the panel always draws at full resolution). On a CPU rasteriser every pixel the
// ground, the sphere or the cloth touches costs a few nanoseconds of shading, so a frame's draw
// time is nearly proportional to its pixel count: at 1280 x 720 under Mesa's llvmpipe the ground's
// per-pixel grid alone took ~10 ms (bench/README.md, "App frame"). At half the width and height
// the panes shade a quarter of the pixels and pay one upscale copy (scene_layer.hpp). GL-free.
#include <string>

namespace app {

inline constexpr float kMinRenderScale = 0.25f;
/// What a CPU rasteriser draws the panes at unless the user chooses (--render-scale, the panel).
inline constexpr float kSoftwareRenderScale = 0.5f;

/// 1 on a GPU, kSoftwareRenderScale on a CPU rasteriser (software_gl.hpp) for a GL_RENDERER string.
float default_render_scale(const std::string& gl_renderer);

/// `scale` held to [kMinRenderScale, 1]; NaN gives 1.
float clamped_render_scale(float scale);

struct LayerSize {
  int width = 0, height = 0;  ///< px
  bool operator==(const LayerSize&) const = default;
};

/// The panes' picture for a fb_w x fb_h framebuffer at `scale` (clamped_render_scale), rounded to
/// whole pixels, at least 1 x 1.
LayerSize scaled_layer_size(int fb_w, int fb_h, float scale);

}  // namespace app
