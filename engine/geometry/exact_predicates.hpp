#pragma once
// Exact orientation predicates on double coordinates (Shewchuk 1997 "Adaptive precision
// floating-point arithmetic and fast robust geometric predicates"): a floating-point evaluation
// with his static error bound, and on failure an exact evaluation in expansion arithmetic.
// The sign returned is the sign of the exact real determinant of the given doubles, so coplanar,
// collinear and touching configurations are classified consistently. Assumes no overflow or
// underflow (coordinates of magnitude between ~1e-50 and ~1e50 or exactly zero).
#include "core/vec.hpp"

namespace cloth {

/// Sign (-1, 0, +1) of ((b - a) x (c - a)) . (d - a): +1 when d lies on the side the normal of
/// the counter-clockwise triangle (a, b, c) points to.
int orient3d(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d);

/// Sign (-1, 0, +1) of (b - a) x (c - a) in 2D: +1 when (a, b, c) turn counter-clockwise.
int orient2d(const Vec2& a, const Vec2& b, const Vec2& c);

}  // namespace cloth
