#pragma once
// Scripted motion of a pin or a solid: a translation offset(t) from where it starts, with its
// velocity. The implicit cloth project's "waving handkerchief" (a vertex moving on a path) and
// moving colliders use it. Every path starts at offset(0) = 0, so a pin or a solid starts where the
// scene put it.
#include <cstdint>
#include <string>

#include "core/enum_names.hpp"
#include "core/parameter.hpp"
#include "core/vec.hpp"

namespace cloth {

struct MotionPath {
  enum class Kind {
    Fixed,        ///< no motion
    Linear,       ///< offset = velocity * t
    Oscillate,    ///< offset = amplitude * sin(2 pi t / period) * axis_u
    Circle,       ///< radius-amplitude circle in the (axis_u, axis_v) plane through the start
    FigureEight,  ///< lemniscate of Gerono: amplitude * (sin w t, sin w t cos w t)
    Wander,       ///< smooth seeded random path: Catmull-Rom through random knots
  };
  Kind kind = Kind::Fixed;
  Vec3 velocity = Vec3::Zero();  ///< Linear: m/s
  double amplitude = 0.1;        ///< radius / half-width of the path, m
  double period = 2.0;           ///< time of one loop (Wander: between knots), s
  Vec3 axis_u = Vec3::UnitX();   ///< unit vectors of the path's plane
  Vec3 axis_v = Vec3::UnitY();
  std::uint32_t seed = 1;        ///< Wander: knots are a pure function of (seed, knot index)

  bool moves() const { return kind != Kind::Fixed; }
  Vec3 offset(double t) const;    ///< m, offset(0) = 0
  Vec3 velocity_at(double t) const;  ///< d offset / dt, m/s
};

/// Turns m.axis_v perpendicular to m.axis_u (Gram-Schmidt, then unit), so that a circle stays a
/// circle whatever two directions were given. Throws InputError "KEY: axis_u and axis_v must not
/// be parallel".
void make_axes_perpendicular(MotionPath& m, const std::string& key);

/// Calls v(field, ParamInfo) for each parameter of a "motion" object (a collider's or a pin's).
/// A reader then turns axis_v perpendicular to axis_u (make_axes_perpendicular).
template <class Visitor, class Motion>
void visit_motion(Visitor&& v, Motion& m) {
  using enum MotionPath::Kind;
  const auto k = m.kind;
  const bool loops = k == Oscillate || k == Circle || k == FigureEight || k == Wander;
  v(m.kind, {.key = "type", .label = "motion",
             .tip = "Path of the translation: fixed, linear (velocity t), oscillate (along axis_u), "
                    "circle and figure-eight (in the axis_u, axis_v plane), wander (smooth, seeded)"});
  v(m.velocity, {.key = "velocity", .unit = "m/s", .lo = -1e3, .hi = 1e3, .tip = "Linear: the constant velocity",
                 .ui_lo = -2, .ui_hi = 2, .visible = k == Linear});
  v(m.amplitude, {.key = "amplitude", .unit = "m", .lo = 0, .hi = 1e3,
                  .tip = "Half-width of the oscillation, radius of the circle, size of the figure "
                         "eight; wander: about how far it strays per axis",
                  .ui_lo = 0, .ui_hi = 2, .visible = loops});
  v(m.period, {.key = "period", .unit = "s", .lo = 1e-3, .hi = 1e6,
               .tip = "Time of one loop (wander: between its random knots)", .log = true, .ui_lo = 0.1,
               .ui_hi = 60, .visible = loops});
  v(Direction{m.axis_u}, {.key = "axis_u", .lo = -1, .hi = 1, .label = "motion axis u",
                          .tip = "Direction of the oscillation; the first axis of the circle's and "
                                 "the figure eight's plane",
                          .visible = k == Oscillate || k == Circle || k == FigureEight});
  v(Direction{m.axis_v}, {.key = "axis_v", .lo = -1, .hi = 1, .label = "motion axis v",
                          .tip = "The plane's second axis, made perpendicular to axis_u (default y, "
                                 "or z when axis_u is near y)",
                          .visible = k == Circle || k == FigureEight});
  v(m.seed, {.key = "seed", .lo = 0, .hi = 1 << 30, .label = "motion seed",
             .tip = "Wander: its random knots are a pure function of the seed", .ui_lo = 0, .ui_hi = 100,
             .visible = k == Wander});
}

inline constexpr NamedValue<MotionPath::Kind> kMotionKindNames[] = {
    {MotionPath::Kind::Fixed, "fixed"},
    {MotionPath::Kind::Linear, "linear"},
    {MotionPath::Kind::Oscillate, "oscillate"},
    {MotionPath::Kind::Circle, "circle"},
    {MotionPath::Kind::FigureEight, "figure-eight"},
    {MotionPath::Kind::Wander, "wander"},
};
constexpr std::span<const NamedValue<MotionPath::Kind>> value_names(MotionPath::Kind) {
  return kMotionKindNames;
}

}  // namespace cloth
