#include "run/draw_pacer.hpp"

namespace app {

bool DrawPacer::draw_now(double now, bool behind) {
  if (behind && now - last_draw_ < kMaxDrawGap) {
    ++skipped_;
    return false;
  }
  last_draw_ = now;
  return true;
}

}  // namespace app
