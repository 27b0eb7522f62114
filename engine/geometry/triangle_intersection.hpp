#pragma once
// Exact triangle-triangle and segment-triangle intersection tests on closed sets (boundary
// included), built only on the exact predicates of exact_predicates.hpp: touching at a point or an
// edge counts as intersecting, and coplanar / degenerate configurations get the same answer as
// exact real arithmetic would give. Used by tests to prove that a cloth does not pass through
// itself.
#include <array>
#include <vector>

#include "core/vec.hpp"

namespace cloth {

/// True when the closed triangles (a0, a1, a2) and (b0, b1, b2) share at least one point.
/// General position: Guigue & Devillers 2003 ("Fast and robust triangle-triangle overlap test
/// using orientation predicates"). Coplanar pairs: 2D overlap in all three coordinate projections
/// (exact, no normal-dependent axis choice). Degenerate (zero-area) triangles are treated as the
/// union of their edges.
bool triangles_intersect(const Vec3& a0, const Vec3& a1, const Vec3& a2, const Vec3& b0,
                         const Vec3& b1, const Vec3& b2);

/// True when the closed segment (p, q) (possibly a point) meets the closed triangle (a, b, c)
/// (possibly degenerate).
bool segment_intersects_triangle(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b,
                                 const Vec3& c);

/// True when the closed segments (p0, p1) and (q0, q1) in 3D share a point.
bool segments_intersect(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1);

/// True when the triangle's corners are exactly collinear (zero area).
bool triangle_is_degenerate(const Vec3& a, const Vec3& b, const Vec3& c);

/// Number of unordered pairs of triangles of `triangles` (indices into x) that intersect, skipping
/// pairs that share a vertex (adjacent triangles always touch). Broad phase: the spatial hash over
/// the triangles' bounding boxes; narrow phase: triangles_intersect.
long long count_intersecting_triangle_pairs(const std::vector<std::array<int, 3>>& triangles,
                                            const std::vector<Vec3>& x);

/// The same count by brute force over all pairs (O(T^2)); for tests.
long long count_intersecting_triangle_pairs_brute_force(
    const std::vector<std::array<int, 3>>& triangles, const std::vector<Vec3>& x);

}  // namespace cloth
