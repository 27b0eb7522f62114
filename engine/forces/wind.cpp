#include "forces/wind.hpp"

#include <cmath>


namespace cloth {

Vec3 WindField::velocity(const Vec3& x, double t, Eigen::Matrix3d* jacobian) const {
  if (jacobian) jacobian->setZero();
  switch (type) {
    case Type::None: return Vec3::Zero();
    case Type::Constant: return speed * direction;
    case Type::Yu: {
      // The report uses the particle's x coordinate as the phase (implicitly k = 1 rad/m);
      // we keep k explicit and evaluate at the current position so that ∂U/∂x exists.
      const double phase = wavenumber * x.x() + frequency * t;
      const double s = std::sin(phase);
      if (jacobian) (*jacobian)(0, 0) = speed * (s >= 0 ? 1.0 : -1.0) * std::cos(phase) * wavenumber;
      return speed * Vec3(std::abs(s), 0, 0.5 * std::sin(frequency * t));
    }
    case Type::Gusty: {
      // A tensor product of sinusoids (the course project's suggestion) travelling downwind.
      const double a = wavenumber * direction.dot(x) - frequency * t;
      const double b = 0.5 * wavenumber * x.y() + 1.3 * frequency * t;
      const double envelope = 1.0 + gust * std::sin(a) * std::sin(b);
      if (jacobian) {
        const Vec3 grad = gust * (std::cos(a) * std::sin(b) * wavenumber * direction +
                                  std::sin(a) * std::cos(b) * 0.5 * wavenumber * Vec3::UnitY());
        *jacobian = speed * direction * grad.transpose();
      }
      return speed * envelope * direction;
    }
  }
  return Vec3::Zero();
}

double WindField::max_speed() const {
  switch (type) {
    case Type::None: return 0;
    case Type::Constant: return std::abs(speed) * direction.norm();
    case Type::Yu: return std::abs(speed) * std::sqrt(1.25);
    case Type::Gusty: return std::abs(speed) * (1.0 + std::abs(gust)) * direction.norm();
  }
  return 0;
}

}  // namespace cloth
