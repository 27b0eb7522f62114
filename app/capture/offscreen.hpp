#pragma once
// An offscreen render target for headless video: a multisampled framebuffer to draw into and a
// single-sampled one to resolve into and read back (glReadPixels cannot read MSAA buffers).
#include <cstdint>
#include <vector>

#include "render/gl_objects.hpp"

namespace app {

class OffscreenTarget {
 public:
  /// w x h px with up to `samples` MSAA samples (clamped to what the driver offers). Needs a
  /// current GL context. Throws std::runtime_error if the framebuffer is incomplete.
  OffscreenTarget(int w, int h, int samples);

  /// Binds the multisampled framebuffer for drawing.
  void bind() const;
  /// Resolves the MSAA image, reads it back top row first (RGB), and rebinds framebuffer 0.
  std::vector<std::uint8_t> read_rgb();

  int width() const { return w_; }
  int height() const { return h_; }

 private:
  int w_, h_;
  GlFramebuffer msaa_fbo_, resolve_fbo_;
  GlRenderbuffer msaa_color_, msaa_depth_, resolve_color_;
};

}  // namespace app
