#include "kinematics/kinematic_constraints.hpp"

#include <cmath>

namespace cloth {

Vec3 SlideConstraint::project(const Vec3& x) const {
  const Vec3 rel = x - point;
  return kind == Kind::Line ? Vec3(point + rel.dot(direction) * direction)
                            : Vec3(x - rel.dot(direction) * direction);
}

Vec3 SlideConstraint::allowed(const Vec3& v) const {
  return kind == Kind::Line ? Vec3(v.dot(direction) * direction)
                            : Vec3(v - v.dot(direction) * direction);
}

std::vector<Vec3> SlideConstraint::blocked_directions() const {
  if (kind == Kind::Plane) return {direction};
  const Vec3 helper = std::abs(direction.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 p = direction.cross(helper).normalized();
  return {p, direction.cross(p)};
}

}  // namespace cloth
