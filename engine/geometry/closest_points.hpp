#pragma once
// Closest-point queries between cloth primitives (Ericson, "Real-Time Collision Detection",
// sections 5.1.5 and 5.1.9), used by the self-collision proximity tests.
#include "core/vec.hpp"

namespace cloth {

/// Barycentric weights (wa, wb, wc), each in [0, 1] and summing to 1, of the point of the closed
/// triangle (a, b, c) closest to p. A degenerate triangle is handled as its longest edge.
Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c);

/// Parameters s, t in [0, 1] of the closest points p0 + s (p1 - p0) and q0 + t (q1 - q0) of two
/// closed segments (either may be a point). For parallel segments one of the closest pairs.
void closest_points_on_segments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1,
                                double& s, double& t);

}  // namespace cloth
