#pragma once
// Where the side-by-side panes go in the window: one pane fills it; 2 and 3 panes stand in
// columns; 4 panes make a 2 x 2 grid. The same layout serves window coordinates (mouse, labels)
// and framebuffer pixels (GL viewports).
#include <vector>

namespace app {

/// A rectangle with its origin at the top-left corner, y down (window / ImGui convention).
struct PaneRect {
  double left = 0, top = 0, width = 1, height = 1;
  bool contains(double x, double y) const {
    return x >= left && x < left + width && y >= top && y < top + height;
  }
};

/// A GL viewport: framebuffer pixels, origin at the bottom-left.
struct Viewport {
  int x = 0, y = 0, width = 1, height = 1;
};

/// Gap between panes, px: the background shows through as a separator line.
constexpr double kPaneGap = 2.0;

/// The rectangles of `count` panes (1..4) in a `width` x `height` area, the first `left_inset`
/// of its width left out (the space of a docked control panel; at most half the width is given
/// up, so panes never vanish in a small window).
std::vector<PaneRect> pane_rects(int count, double width, double height, double left_inset = 0);

/// The pane under (x, y), or -1 in a gap.
int pane_at(const std::vector<PaneRect>& rects, double x, double y);

/// `rect` of a `fb_height`-pixel-high framebuffer as a GL viewport (whole pixels, y flipped).
Viewport to_viewport(const PaneRect& rect, int fb_height);

}  // namespace app
