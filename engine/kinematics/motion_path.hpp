#pragma once
// Scripted motion of a pin or a solid: a translation offset(t) from where it starts, with its
// velocity. The implicit cloth project's "waving handkerchief" (a vertex moving on a path) and
// moving colliders use it. Every path starts at offset(0) = 0, so a pin or a solid starts where the
// scene put it.
#include <cstdint>
#include "core/enum_names.hpp"
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
