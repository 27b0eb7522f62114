#include "run/pane_layout.hpp"

#include <algorithm>
#include <cmath>

namespace app {

std::vector<PaneRect> pane_rects(int count, double width, double height, double left_inset) {
  const double left = std::clamp(left_inset, 0.0, 0.5 * width);
  width -= left;
  const int columns = count == 4 ? 2 : std::max(count, 1);
  const int rows = count == 4 ? 2 : 1;
  const double gap = count > 1 ? kPaneGap : 0.0;
  const double w = std::max((width - gap * (columns - 1)) / columns, 1.0);
  const double h = std::max((height - gap * (rows - 1)) / rows, 1.0);
  std::vector<PaneRect> rects;
  for (int k = 0; k < std::max(count, 1); ++k) {
    const int column = k % columns, row = k / columns;
    rects.push_back(PaneRect{left + column * (w + gap), row * (h + gap), w, h});
  }
  return rects;
}

int pane_at(const std::vector<PaneRect>& rects, double x, double y) {
  for (size_t k = 0; k < rects.size(); ++k) {
    if (rects[k].contains(x, y)) return int(k);
  }
  return -1;
}

Viewport to_viewport(const PaneRect& rect, int fb_height) {
  const int x0 = int(std::lround(rect.left)), x1 = int(std::lround(rect.left + rect.width));
  const int y0 = int(std::lround(rect.top)), y1 = int(std::lround(rect.top + rect.height));
  return Viewport{x0, fb_height - y1, std::max(x1 - x0, 1), std::max(y1 - y0, 1)};
}

}  // namespace app
