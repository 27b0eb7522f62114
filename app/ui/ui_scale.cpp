#include "ui/ui_scale.hpp"

#include <algorithm>
#include <cmath>

namespace app {

float stepped_ui_scale(float scale, int steps) {
  if (!std::isfinite(scale)) return 1.0f;
  const float quarters = std::round(scale / kUiScaleStep) + float(steps);
  return std::clamp(quarters * kUiScaleStep, kUiScaleMin, kUiScaleMax);
}

}  // namespace app
