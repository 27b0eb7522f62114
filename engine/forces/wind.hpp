#pragma once
// Analytic spatio-temporal wind: an air velocity field U(x, t) in m/s with its spatial Jacobian
// ∂U/∂x (the course project, seed 004, asks for ∂f_wind/∂x; the force follows from U through
// aerodynamics.hpp).
#include <string>

#include "core/vec.hpp"

namespace cloth {

struct WindField {
  enum class Type {
    None,      ///< still air
    Constant,  ///< U = speed * direction
    Yu,        ///< seed 002 sec. 4: U = speed (|sin(k x + w t)|, 0, 1/2 sin(w t)) in world axes
    Gusty,     ///< U = speed * direction * (1 + gust sin(k d.x - w t) sin(k y / 2 + 1.3 w t))
  };
  Type type = Type::None;
  double speed = 0;                      ///< m/s
  Vec3 direction = Vec3::UnitX();        ///< unit vector (Constant, Gusty)
  double frequency = 1.0;                ///< angular frequency w, rad/s
  double wavenumber = 1.0;               ///< spatial wavenumber k, rad/m
  double gust = 0.5;                     ///< relative gust amplitude (Gusty), 0..1

  /// Air velocity at x and time t; if `jacobian` is given, also ∂U/∂x (row r = ∂U_r/∂x).
  Vec3 velocity(const Vec3& x, double t, Eigen::Matrix3d* jacobian) const;
};

/// "none", "constant", "yu", "gusty"; throws InputError otherwise.
WindField::Type wind_type_from_name(const std::string& name);
const char* wind_type_name(WindField::Type type);

}  // namespace cloth
