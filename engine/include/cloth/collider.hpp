#pragma once
// Solid colliders as signed-distance shapes. The foundation has a plane (floor) and a sphere;
// issue 6 adds capsules, boxes, ellipsoids and meshes behind the same struct.
#include <cstdint>
#include <variant>
#include <vector>

#include "cloth/state.hpp"

namespace cloth {

struct PlaneShape {
  Vec3 point = Vec3::Zero();       ///< any point on the plane, m
  Vec3 normal = Vec3::UnitY();     ///< unit normal pointing into the free side
};

struct SphereShape {
  Vec3 center = Vec3::Zero();  ///< m
  double radius = 0.25;        ///< m
};

struct Collider {
  std::variant<PlaneShape, SphereShape> shape;
  double thickness = 0.005;  ///< contact offset kept between cloth vertices and the surface, m
  double friction = 0.3;     ///< Coulomb coefficient (dimensionless)
};

/// Signed distance from p to the collider's surface (negative inside), m; also the outward unit
/// normal at the closest surface point.
double signed_distance(const Collider& c, const Vec3& p, Vec3* normal);

/// Pushes every vertex closer than `thickness` back to the offset surface, removes the approaching
/// normal velocity (inelastic contact) and applies Coulomb friction: the tangential speed drops
/// by at most friction x the normal speed removed. `pinned` vertices are left alone.
/// Returns the number of vertices in contact.
int resolve_contacts(ClothState& state, const std::vector<Collider>& colliders,
                     const std::vector<std::uint8_t>& pinned);

}  // namespace cloth
