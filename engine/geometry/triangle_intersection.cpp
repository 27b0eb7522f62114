// Exact closed-set intersection tests (see triangle_intersection.hpp).
#include "geometry/triangle_intersection.hpp"

#include <algorithm>

#include "geometry/exact_predicates.hpp"
#include "geometry/spatial_hash.hpp"

namespace cloth {
namespace {

Vec2 drop_axis(const Vec3& p, int axis) {
  switch (axis) {
    case 0: return Vec2(p.y(), p.z());
    case 1: return Vec2(p.z(), p.x());
    default: return Vec2(p.x(), p.y());
  }
}

// Closed 2D segment test, exact; handles collinear and point-like segments.
bool on_segment_2d(const Vec2& p, const Vec2& q, const Vec2& r) {  // r collinear with p, q
  return std::min(p.x(), q.x()) <= r.x() && r.x() <= std::max(p.x(), q.x()) &&
         std::min(p.y(), q.y()) <= r.y() && r.y() <= std::max(p.y(), q.y());
}

bool segments_intersect_2d(const Vec2& p0, const Vec2& p1, const Vec2& q0, const Vec2& q1) {
  const int o1 = orient2d(p0, p1, q0), o2 = orient2d(p0, p1, q1);
  const int o3 = orient2d(q0, q1, p0), o4 = orient2d(q0, q1, p1);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  if (o1 == 0 && on_segment_2d(p0, p1, q0)) return true;
  if (o2 == 0 && on_segment_2d(p0, p1, q1)) return true;
  if (o3 == 0 && on_segment_2d(q0, q1, p0)) return true;
  if (o4 == 0 && on_segment_2d(q0, q1, p1)) return true;
  // Bounding-box tests above are exact only for collinear points, which o == 0 guarantees. A
  // point-like segment (p0 == p1) has o3 == o4 == 0 only if it lies on line q; covered above.
  return false;
}

// Closed point-in-triangle in 2D for a triangle that is not degenerate in this projection.
bool point_in_triangle_2d(const Vec2& p, const Vec2& a, const Vec2& b, const Vec2& c) {
  const int s0 = orient2d(a, b, p), s1 = orient2d(b, c, p), s2 = orient2d(c, a, p);
  const bool has_neg = s0 < 0 || s1 < 0 || s2 < 0;
  const bool has_pos = s0 > 0 || s1 > 0 || s2 > 0;
  return !(has_neg && has_pos);
}

// Closed 2D triangle-triangle overlap (either may be degenerate in the projection).
bool triangles_overlap_2d(const std::array<Vec2, 3>& t, const std::array<Vec2, 3>& u) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      if (segments_intersect_2d(t[i], t[(i + 1) % 3], u[j], u[(j + 1) % 3])) return true;
    }
  }
  // No boundary crossing: overlap only if one contains the other (then any corner is inside).
  if (orient2d(u[0], u[1], u[2]) != 0 && point_in_triangle_2d(t[0], u[0], u[1], u[2])) return true;
  if (orient2d(t[0], t[1], t[2]) != 0 && point_in_triangle_2d(u[0], t[0], t[1], t[2])) return true;
  return false;
}

// For coplanar point sets: they intersect in 3D iff their projections intersect in all three
// coordinate planes (at least one projection is injective on the common plane / line).
bool coplanar_triangles_intersect(const Vec3& a0, const Vec3& a1, const Vec3& a2, const Vec3& b0,
                                  const Vec3& b1, const Vec3& b2) {
  for (int axis = 0; axis < 3; ++axis) {
    const std::array<Vec2, 3> t = {drop_axis(a0, axis), drop_axis(a1, axis), drop_axis(a2, axis)};
    const std::array<Vec2, 3> u = {drop_axis(b0, axis), drop_axis(b1, axis), drop_axis(b2, axis)};
    if (!triangles_overlap_2d(t, u)) return false;
  }
  return true;
}

// Guigue-Devillers: CHECK_MIN_MAX. T1 = (p1, q1, r1) with p1 alone on its side of T2's plane,
// T2 = (p2, q2, r2) with p2 alone on its side of T1's plane, both oriented canonically.
bool check_min_max(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                   const Vec3& q2, const Vec3& r2) {
  if (orient3d(q1, p2, p1, q2) > 0) return false;
  if (orient3d(p1, p2, r1, r2) > 0) return false;
  return true;
}

bool tri_tri_3d(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2, const Vec3& q2,
                const Vec3& r2, int dp2, int dq2, int dr2) {
  if (dp2 > 0) {
    if (dq2 > 0) return check_min_max(p1, r1, q1, r2, p2, q2);
    if (dr2 > 0) return check_min_max(p1, r1, q1, q2, r2, p2);
    return check_min_max(p1, q1, r1, p2, q2, r2);
  }
  if (dp2 < 0) {
    if (dq2 < 0) return check_min_max(p1, q1, r1, r2, p2, q2);
    if (dr2 < 0) return check_min_max(p1, q1, r1, q2, r2, p2);
    return check_min_max(p1, r1, q1, p2, q2, r2);
  }
  if (dq2 < 0) {
    if (dr2 >= 0) return check_min_max(p1, r1, q1, q2, r2, p2);
    return check_min_max(p1, q1, r1, p2, q2, r2);
  }
  if (dq2 > 0) {
    if (dr2 > 0) return check_min_max(p1, r1, q1, p2, q2, r2);
    return check_min_max(p1, q1, r1, q2, r2, p2);
  }
  if (dr2 > 0) return check_min_max(p1, q1, r1, r2, p2, q2);
  if (dr2 < 0) return check_min_max(p1, r1, q1, r2, p2, q2);
  return coplanar_triangles_intersect(p1, q1, r1, p2, q2, r2);
}

}  // namespace

bool triangle_is_degenerate(const Vec3& a, const Vec3& b, const Vec3& c) {
  // (b - a) x (c - a) = 0 exactly iff its three components (the 2D orientations of the three
  // coordinate projections) vanish.
  for (int axis = 0; axis < 3; ++axis) {
    if (orient2d(drop_axis(a, axis), drop_axis(b, axis), drop_axis(c, axis)) != 0) return false;
  }
  return true;
}

bool segments_intersect(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  if (orient3d(p0, p1, q0, q1) != 0) return false;  // not coplanar (then p0, p1, q0 not collinear)
  for (int axis = 0; axis < 3; ++axis) {
    if (!segments_intersect_2d(drop_axis(p0, axis), drop_axis(p1, axis), drop_axis(q0, axis),
                               drop_axis(q1, axis))) {
      return false;
    }
  }
  return true;
}

bool segment_intersects_triangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b,
                                 const Vec3& c) {
  if (triangle_is_degenerate(a, b, c)) {
    return segments_intersect(p, q, a, b) || segments_intersect(p, q, b, c) ||
           segments_intersect(p, q, c, a);
  }
  const int sp = orient3d(a, b, c, p), sq = orient3d(a, b, c, q);
  if (sp * sq > 0) return false;  // both strictly on one side
  if (sp == 0 && sq == 0) {       // segment in the triangle's plane
    return coplanar_triangles_intersect(p, q, q, a, b, c);
  }
  // The line pq crosses the plane at one point (an endpoint if one sign is zero); it lies in the
  // closed triangle iff the line passes on the same side of (or through) its three edges.
  const int s0 = orient3d(p, q, a, b), s1 = orient3d(p, q, b, c), s2 = orient3d(p, q, c, a);
  const bool has_neg = s0 < 0 || s1 < 0 || s2 < 0;
  const bool has_pos = s0 > 0 || s1 > 0 || s2 > 0;
  return !(has_neg && has_pos);
}

bool triangles_intersect(const Vec3& p1, const Vec3& q1, const Vec3& r1, const Vec3& p2,
                         const Vec3& q2, const Vec3& r2) {
  if (triangle_is_degenerate(p1, q1, r1)) {
    return segment_intersects_triangle(p1, q1, p2, q2, r2) ||
           segment_intersects_triangle(q1, r1, p2, q2, r2) ||
           segment_intersects_triangle(r1, p1, p2, q2, r2);
  }
  if (triangle_is_degenerate(p2, q2, r2)) {
    return segment_intersects_triangle(p2, q2, p1, q1, r1) ||
           segment_intersects_triangle(q2, r2, p1, q1, r1) ||
           segment_intersects_triangle(r2, p2, p1, q1, r1);
  }
  // Signs of T1's corners against T2's plane, and of T2's corners against T1's plane.
  const int dp1 = orient3d(p2, q2, r2, p1), dq1 = orient3d(p2, q2, r2, q1),
            dr1 = orient3d(p2, q2, r2, r1);
  if (dp1 * dq1 > 0 && dp1 * dr1 > 0) return false;
  const int dp2 = orient3d(p1, q1, r1, p2), dq2 = orient3d(p1, q1, r1, q2),
            dr2 = orient3d(p1, q1, r1, r2);
  if (dp2 * dq2 > 0 && dp2 * dr2 > 0) return false;

  // Permute T1 so that p1 is alone on its side, swapping T2's orientation accordingly.
  if (dp1 > 0) {
    if (dq1 > 0) return tri_tri_3d(r1, p1, q1, p2, r2, q2, dp2, dr2, dq2);
    if (dr1 > 0) return tri_tri_3d(q1, r1, p1, p2, r2, q2, dp2, dr2, dq2);
    return tri_tri_3d(p1, q1, r1, p2, q2, r2, dp2, dq2, dr2);
  }
  if (dp1 < 0) {
    if (dq1 < 0) return tri_tri_3d(r1, p1, q1, p2, q2, r2, dp2, dq2, dr2);
    if (dr1 < 0) return tri_tri_3d(q1, r1, p1, p2, q2, r2, dp2, dq2, dr2);
    return tri_tri_3d(p1, q1, r1, p2, r2, q2, dp2, dr2, dq2);
  }
  if (dq1 < 0) {
    if (dr1 >= 0) return tri_tri_3d(q1, r1, p1, p2, r2, q2, dp2, dr2, dq2);
    return tri_tri_3d(p1, q1, r1, p2, q2, r2, dp2, dq2, dr2);
  }
  if (dq1 > 0) {
    if (dr1 > 0) return tri_tri_3d(p1, q1, r1, p2, r2, q2, dp2, dr2, dq2);
    return tri_tri_3d(q1, r1, p1, p2, q2, r2, dp2, dq2, dr2);
  }
  if (dr1 > 0) return tri_tri_3d(r1, p1, q1, p2, q2, r2, dp2, dq2, dr2);
  if (dr1 < 0) return tri_tri_3d(r1, p1, q1, p2, r2, q2, dp2, dr2, dq2);
  return coplanar_triangles_intersect(p1, q1, r1, p2, q2, r2);
}

namespace {
bool share_vertex(const std::array<int, 3>& s, const std::array<int, 3>& t) {
  for (int a : s) {
    for (int b : t) {
      if (a == b) return true;
    }
  }
  return false;
}
}  // namespace

long long count_intersecting_triangle_pairs(const std::vector<std::array<int, 3>>& triangles,
                                            const std::vector<Vec3>& x) {
  std::vector<Aabb> boxes(triangles.size());
  double max_extent = 0;
  for (size_t t = 0; t < triangles.size(); ++t) {
    boxes[t] = Aabb::of(x[triangles[t][0]], x[triangles[t][1]], x[triangles[t][2]]);
    if (boxes[t].valid()) max_extent = std::max(max_extent, (boxes[t].hi - boxes[t].lo).maxCoeff());
  }
  SpatialHash hash;
  hash.build(boxes, max_extent > 0 ? max_extent : 1.0);
  long long count = 0;
  hash.for_each_self_pair([&](int s, int t) {
    if (share_vertex(triangles[s], triangles[t])) return;
    const auto& a = triangles[s];
    const auto& b = triangles[t];
    if (triangles_intersect(x[a[0]], x[a[1]], x[a[2]], x[b[0]], x[b[1]], x[b[2]])) ++count;
  });
  return count;
}

long long count_intersecting_triangle_pairs_brute_force(
    const std::vector<std::array<int, 3>>& triangles, const std::vector<Vec3>& x) {
  long long count = 0;
  for (size_t s = 0; s < triangles.size(); ++s) {
    for (size_t t = s + 1; t < triangles.size(); ++t) {
      if (share_vertex(triangles[s], triangles[t])) continue;
      const auto& a = triangles[s];
      const auto& b = triangles[t];
      if (triangles_intersect(x[a[0]], x[a[1]], x[a[2]], x[b[0]], x[b[1]], x[b[2]])) ++count;
    }
  }
  return count;
}

}  // namespace cloth
