#pragma once
// Vertices whose motion is prescribed in one, two or three dimensions (B&W section 5.1): pins that
// follow a scripted path, and vertices that may only slide along a line or in a plane (the implicit
// cloth project's shower curtain: rings on a rod). Static pins stay in Simulation's pinned /
// pin_positions arrays; these are the extra kinds.
#include <vector>

#include "kinematics/motion_path.hpp"
#include "core/vec.hpp"

namespace cloth {

/// A pin that follows `path`: the vertex is at anchor + path.offset(t) with velocity
/// path.velocity_at(t). The vertex also counts as pinned (infinitely heavy for the solvers).
struct MovingPin {
  int vertex = -1;
  Vec3 anchor = Vec3::Zero();  ///< m, where the path starts
  MotionPath path;

  Vec3 position(double t) const { return anchor + path.offset(t); }
};

/// A vertex held on a line (it may slide along `direction`) or in a plane (normal `direction`).
struct SlideConstraint {
  enum class Kind { Line, Plane };
  int vertex = -1;
  Kind kind = Kind::Line;
  Vec3 point = Vec3::Zero();          ///< a point of the line / plane, m
  Vec3 direction = Vec3::UnitX();     ///< unit: the line's direction, or the plane's normal

  /// The nearest point of the line / plane to x.
  Vec3 project(const Vec3& x) const;
  /// The part of a velocity the constraint allows (along the line / in the plane).
  Vec3 allowed(const Vec3& v) const;
  /// Unit directions along which the vertex may not move: two for a line, one for a plane.
  std::vector<Vec3> blocked_directions() const;
};

}  // namespace cloth
