#pragma once
// Analytic spatio-temporal wind: an air velocity field U(x, t) in m/s with its spatial Jacobian
// ∂U/∂x (the implicit cloth project asks for ∂f_wind/∂x; the force follows from U through
// aerodynamics.hpp).
#include "core/enum_names.hpp"
#include "core/parameter.hpp"
#include "core/vec.hpp"

namespace cloth {

struct WindField {
  enum class Type {
    None,      ///< still air
    Constant,  ///< U = speed * direction
    Yu,        ///< Yu, sec. 4: U = speed (|sin(k x + w t)|, 0, 1/2 sin(w t)) in world axes
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
  /// The largest |U| anywhere at any time, m/s (|speed| times 1 + gust for gusty, sqrt(5) / 2 for
  /// Yu's wave).
  double max_speed() const;
};

/// Calls v(field, ParamInfo) for each parameter of "forces.wind".
template <class Visitor, class Wind>
void visit_wind(Visitor&& v, Wind& w) {
  using Type = WindField::Type;
  v(w.type, {.key = "type", .label = "wind",
             .tip = "Air velocity field: none, constant, Yu's wave, or gusty"});
  v(w.speed, {.key = "speed", .unit = "m/s", .lo = -200, .hi = 200, .label = "wind speed",
              .tip = "Wind speed scale", .ui_lo = 0, .ui_hi = 30, .visible = w.type != Type::None});
  v(Direction{w.direction}, {.key = "direction", .lo = -1, .hi = 1, .label = "wind direction",
                             .tip = "Wind direction (x, y, z), made a unit vector",
                             .visible = w.type != Type::None && w.type != Type::Yu});
  v(w.frequency, {.key = "frequency", .unit = "rad/s", .lo = -1e3, .hi = 1e3, .label = "wind frequency",
                  .tip = "Angular frequency w of the wind's variation in time", .ui_lo = 0, .ui_hi = 20,
                  .visible = w.type != Type::None});
  v(w.wavenumber, {.key = "wavenumber", .unit = "rad/m", .lo = -1e3, .hi = 1e3, .label = "wind wavenumber",
                   .tip = "Spatial wavenumber k of the wind's variation", .ui_lo = 0, .ui_hi = 20,
                   .visible = w.type != Type::None});
  v(w.gust, {.key = "gust", .lo = 0, .hi = 1, .tip = "Relative gust amplitude (gusty wind)",
             .visible = w.type == Type::Gusty});
}

inline constexpr NamedValue<WindField::Type> kWindTypeNames[] = {
    {WindField::Type::None, "none"},
    {WindField::Type::Constant, "constant"},
    {WindField::Type::Yu, "yu"},
    {WindField::Type::Gusty, "gusty"},
};
constexpr std::span<const NamedValue<WindField::Type>> value_names(WindField::Type) {
  return kWindTypeNames;
}

}  // namespace cloth
