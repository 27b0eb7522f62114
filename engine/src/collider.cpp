// Signed-distance colliders and the contact response used by position-based integrators.
#include "cloth/collider.hpp"

#include <algorithm>
#include <cmath>

namespace cloth {

double signed_distance(const Collider& c, const Vec3& p, Vec3* normal) {
  if (const auto* plane = std::get_if<PlaneShape>(&c.shape)) {
    *normal = plane->normal;
    return (p - plane->point).dot(plane->normal);
  }
  const auto& sphere = std::get<SphereShape>(c.shape);
  const Vec3 d = p - sphere.center;
  const double len = d.norm();
  // At the exact centre any direction is the closest one; pick +y (out through the top).
  *normal = len > 1e-12 ? Vec3(d / len) : Vec3(Vec3::UnitY());
  return len - sphere.radius;
}

int resolve_contacts(ClothState& state, const std::vector<Collider>& colliders,
                     const std::vector<std::uint8_t>& pinned) {
  int contacts = 0;
  for (const Collider& c : colliders) {
    for (int i = 0; i < state.vertex_count(); ++i) {
      if (!pinned.empty() && pinned[i]) continue;
      Vec3 n;
      const double depth = c.thickness - signed_distance(c, state.x[i], &n);
      if (depth <= 0) continue;
      ++contacts;
      state.x[i] += depth * n;  // back onto the offset surface
      Vec3& v = state.v[i];
      const double vn = v.dot(n);
      if (vn >= 0) continue;  // already separating: keep its velocity
      // Inelastic contact: the approaching normal speed |vn| is removed. Coulomb friction then
      // removes at most friction * |vn| of tangential speed (an impulse bounded by mu x normal
      // impulse); below that the vertex sticks.
      Vec3 vt = v - vn * n;
      const double vt_len = vt.norm();
      const double drop = c.friction * (-vn);
      vt = vt_len > drop ? Vec3(vt * (1.0 - drop / vt_len)) : Vec3(Vec3::Zero());
      v = vt;
    }
  }
  return contacts;
}

}  // namespace cloth
