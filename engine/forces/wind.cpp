#include "forces/wind.hpp"

#include <cmath>

#include "core/error.hpp"

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

WindField::Type wind_type_from_name(const std::string& name) {
  if (name == "none") return WindField::Type::None;
  if (name == "constant") return WindField::Type::Constant;
  if (name == "yu") return WindField::Type::Yu;
  if (name == "gusty") return WindField::Type::Gusty;
  throw InputError("forces.wind.type must be none, constant, yu or gusty, got \"" + name + "\"");
}

const char* wind_type_name(WindField::Type type) {
  switch (type) {
    case WindField::Type::None: return "none";
    case WindField::Type::Constant: return "constant";
    case WindField::Type::Yu: return "yu";
    case WindField::Type::Gusty: return "gusty";
  }
  return "none";
}

}  // namespace cloth
