#include "collision/picking.hpp"

#include <cmath>

namespace cloth {

std::optional<PickHit> pick(const RestMesh& mesh, const ClothState& state, const Vec3& origin,
                            const Vec3& direction) {
  std::optional<PickHit> best;
  // Moller-Trumbore: solve origin + t d = a + b1 (b - a) + b2 (c - a) for (t, b1, b2).
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
    const auto& tri = mesh.triangles[t];
    const Vec3& a = state.x[tri[0]];
    const Vec3 e1 = state.x[tri[1]] - a, e2 = state.x[tri[2]] - a;
    const Vec3 p = direction.cross(e2);
    const double det = e1.dot(p);
    if (std::abs(det) < 1e-14) continue;  // ray parallel to the triangle
    const double inv = 1.0 / det;
    const Vec3 s = origin - a;
    const double b1 = s.dot(p) * inv;
    if (b1 < 0 || b1 > 1) continue;
    const Vec3 q = s.cross(e1);
    const double b2 = direction.dot(q) * inv;
    if (b2 < 0 || b1 + b2 > 1) continue;
    const double dist = e2.dot(q) * inv;
    if (dist <= 0 || (best && dist >= best->distance)) continue;
    PickHit hit;
    hit.triangle = t;
    hit.distance = dist;
    hit.point = origin + dist * direction;
    const double weights[3] = {1 - b1 - b2, b1, b2};
    int k = 0;
    for (int m = 1; m < 3; ++m) if (weights[m] > weights[k]) k = m;
    hit.vertex = tri[k];
    best = hit;
  }
  return best;
}

std::optional<ColliderHit> pick_collider(const std::vector<Collider>& colliders, double t,
                                         const Vec3& origin, const Vec3& direction,
                                         double max_distance) {
  const Vec3 dir = direction.normalized();
  std::optional<ColliderHit> best;
  for (size_t k = 0; k < colliders.size(); ++k) {
    if (std::holds_alternative<PlaneShape>(colliders[k].shape)) continue;
    // Sphere tracing: the signed distance is a safe step (no surface is nearer than it).
    double s = 0;
    Vec3 n;
    for (int it = 0; it < 256 && s < max_distance; ++it) {
      const double d = signed_distance(colliders[k], origin + s * dir, &n, t);
      if (d < 1e-5) {
        if (!best || s < best->distance) best = ColliderHit{int(k), s, origin + s * dir};
        break;
      }
      s += d;
    }
  }
  return best;
}

}  // namespace cloth
