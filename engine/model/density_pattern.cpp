#include "model/density_pattern.hpp"

#include <cmath>

namespace cloth {

double density_factor(const DensityPattern& p, const Vec2& uv) {
  switch (p.kind) {
    case DensityPattern::Kind::None:
      return 1.0;
    case DensityPattern::Kind::Stripes: {
      const double along = uv[p.axis == DensityPattern::Axis::U ? 0 : 1];
      const double s = along - p.period * std::floor(along / p.period);
      return s < p.width ? p.factor : 1.0;
    }
    case DensityPattern::Kind::Checker: {
      const double cells = std::floor(uv.x() / p.period) + std::floor(uv.y() / p.period);
      return std::fmod(std::abs(cells), 2.0) == 0.0 ? p.factor : 1.0;
    }
  }
  return 1.0;
}

}  // namespace cloth
