#pragma once
// The panes drawn into a framebuffer of reduced resolution (render_scale.hpp) and copied up onto
// the window with linear filtering, before the panel is drawn over them at full resolution.
#include "render/gl_objects.hpp"
#include "render/render_scale.hpp"

namespace app {

class SceneLayer {
 public:
  /// Binds a framebuffer of `size` (colour and depth, no multisampling) for drawing, made or
  /// resized on first use. Needs a current GL context; throws std::runtime_error if the driver
  /// cannot make the framebuffer.
  void bind(LayerSize size);
  /// Copies the layer onto the whole of the fb_w x fb_h default framebuffer with linear filtering
  /// and leaves the default framebuffer bound.
  void present(int fb_w, int fb_h) const;

 private:
  LayerSize size_;
  GlFramebuffer fbo_;
  GlRenderbuffer color_, depth_;
};

}  // namespace app
