#include "capture/offscreen.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "capture/pixels.hpp"

namespace app {
namespace {

void check_complete(const char* what) {
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    char code[16];
    std::snprintf(code, sizeof code, "0x%x", status);
    throw std::runtime_error(std::string("offscreen ") + what +
                             " framebuffer is incomplete (status " + code + ")");
  }
}

}  // namespace

OffscreenTarget::OffscreenTarget(int w, int h, int samples) : w_(w), h_(h) {
  GLint max_samples = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  samples = std::clamp(samples, 0, int(max_samples));

  glBindRenderbuffer(GL_RENDERBUFFER, msaa_color_.id());
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, w, h);
  glBindRenderbuffer(GL_RENDERBUFFER, msaa_depth_.id());
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH24_STENCIL8, w, h);
  glBindFramebuffer(GL_FRAMEBUFFER, msaa_fbo_.id());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                            msaa_color_.id());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                            msaa_depth_.id());
  check_complete("multisampled");

  glBindRenderbuffer(GL_RENDERBUFFER, resolve_color_.id());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
  glBindFramebuffer(GL_FRAMEBUFFER, resolve_fbo_.id());
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                            resolve_color_.id());
  check_complete("resolve");

  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void OffscreenTarget::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, msaa_fbo_.id());
}

std::vector<std::uint8_t> OffscreenTarget::read_rgb() {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, msaa_fbo_.id());
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_fbo_.id());
  glBlitFramebuffer(0, 0, w_, h_, 0, 0, w_, h_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolve_fbo_.id());
  std::vector<std::uint8_t> rgb = read_rgb_top_down(w_, h_);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return rgb;
}

}  // namespace app
