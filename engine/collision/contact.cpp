#include "collision/contact.hpp"

#include <algorithm>

namespace cloth {

void apply_coulomb_friction(Vec3& v, const Vec3& solid_v, const Vec3& n, double normal_dv,
                            double mu_static, double mu_kinetic) {
  const Vec3 rel = v - solid_v;
  const Vec3 rel_t = rel - rel.dot(n) * n;
  const double slip = rel_t.norm();
  if (slip <= mu_static * normal_dv) {
    v -= rel_t;  // sticks: moves with the solid along the surface
  } else {
    v -= std::min(1.0, mu_kinetic * normal_dv / slip) * rel_t;
  }
}

int resolve_contacts(ClothState& state, const std::vector<Collider>& colliders,
                     const std::vector<std::uint8_t>& pinned, double t, double h) {
  int contacts = 0;
  for (const Collider& c : colliders) {
    const Vec3 solid_v = c.motion.velocity_at(t);
    for (int i = 0; i < state.vertex_count(); ++i) {
      if (!pinned.empty() && pinned[i]) continue;
      Vec3 n;
      const double depth = c.thickness - signed_distance(c, state.x[i], &n, t);
      if (depth <= 0) continue;
      ++contacts;
      state.x[i] += depth * n;  // back onto the offset surface
      Vec3& v = state.v[i];
      const double vn = (v - solid_v).dot(n);
      if (vn >= 0) continue;  // already separating: keep its velocity
      v -= vn * n;  // inelastic: the approaching normal speed |vn| is removed
      const Vec3 before = v;
      apply_coulomb_friction(v, solid_v, n, -vn, c.friction, c.mu_kinetic());
      state.x[i] += h * (v - before);
    }
  }
  return contacts;
}

}  // namespace cloth
