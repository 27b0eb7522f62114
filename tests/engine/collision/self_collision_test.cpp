// Self-collision: exact predicates, the exact triangle-triangle test, the spatial hash,
// proximity queries, the impulse response, and a cloth dropped onto itself that must end with no
// intersecting triangle pairs (and does end with some when self-collision is off).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "geometry/closest_points.hpp"
#include "geometry/exact_predicates.hpp"
#include "forces/forces.hpp"
#include "mesh/mesh.hpp"
#include "model/model.hpp"
#include "collision/self_collision.hpp"
#include "geometry/spatial_hash.hpp"
#include "geometry/triangle_intersection.hpp"

namespace cloth {
namespace {

using Tri = std::array<Vec3, 3>;
__extension__ typedef __int128 Int128;  // GCC / Clang extension, exact integer reference

// ---------------------------------------------------------------------------------------------
// Exact predicates against Int128 integer determinants where plain doubles fail.

Int128 det3_int(const std::array<long long, 3>& u, const std::array<long long, 3>& v,
                  const std::array<long long, 3>& w) {
  const Int128 a = static_cast<Int128>(u[0]) * (static_cast<Int128>(v[1]) * w[2] - static_cast<Int128>(v[2]) * w[1]);
  const Int128 b = static_cast<Int128>(u[1]) * (static_cast<Int128>(v[0]) * w[2] - static_cast<Int128>(v[2]) * w[0]);
  const Int128 c = static_cast<Int128>(u[2]) * (static_cast<Int128>(v[0]) * w[1] - static_cast<Int128>(v[1]) * w[0]);
  return a - b + c;
}

int sign128(Int128 v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

TEST(ExactPredicates, Orient3dMatchesIntegerDeterminantOnNearCoplanarPoints) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<long long> big(-(1LL << 29), 1LL << 29);
  std::uniform_int_distribution<int> small(-1, 1);
  int naive_wrong = 0, zeros = 0;
  for (int it = 0; it < 20000; ++it) {
    std::array<long long, 3> a, b, c, d;
    for (int k = 0; k < 3; ++k) {
      a[k] = big(rng);
      b[k] = big(rng);
      c[k] = big(rng);
      d[k] = b[k] + c[k] - a[k] + small(rng);  // on the plane (a, b, c) up to +-1
    }
    std::array<long long, 3> u, v, w;
    for (int k = 0; k < 3; ++k) {
      u[k] = b[k] - a[k];
      v[k] = c[k] - a[k];
      w[k] = d[k] - a[k];
    }
    const int exact = sign128(det3_int(u, v, w));
    auto P = [](const std::array<long long, 3>& p) {
      return Vec3(static_cast<double>(p[0]), static_cast<double>(p[1]), static_cast<double>(p[2]));
    };
    ASSERT_EQ(orient3d(P(a), P(b), P(c), P(d)), exact) << "iteration " << it;
    const double naive = (P(b) - P(a)).cross(P(c) - P(a)).dot(P(d) - P(a));
    naive_wrong += (naive > 0 ? 1 : naive < 0 ? -1 : 0) != exact;
    zeros += exact == 0;
  }
  EXPECT_GT(zeros, 100);        // the exactly coplanar case is exercised
  EXPECT_GT(naive_wrong, 100);  // and these inputs do defeat plain floating point
}

TEST(ExactPredicates, Orient2dMatchesIntegerDeterminantOnNearCollinearPoints) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<long long> big(-(1LL << 50), 1LL << 50);  // c stays below 2^53
  std::uniform_int_distribution<int> small(-1, 1);
  int naive_wrong = 0;
  for (int it = 0; it < 20000; ++it) {
    const long long ax = big(rng), ay = big(rng), bx = big(rng), by = big(rng);
    const long long cx = 2 * bx - ax + small(rng), cy = 2 * by - ay + small(rng);
    const Int128 exact = static_cast<Int128>(bx - ax) * (cy - ay) -
                           static_cast<Int128>(by - ay) * (cx - ax);
    const Vec2 A(static_cast<double>(ax), static_cast<double>(ay));
    const Vec2 B(static_cast<double>(bx), static_cast<double>(by));
    const Vec2 C(static_cast<double>(cx), static_cast<double>(cy));
    ASSERT_EQ(orient2d(A, B, C), sign128(exact)) << "iteration " << it;
    const double naive = (B - A).x() * (C - A).y() - (B - A).y() * (C - A).x();
    naive_wrong += (naive > 0 ? 1 : naive < 0 ? -1 : 0) != sign128(exact);
  }
  EXPECT_GT(naive_wrong, 100);
}

TEST(ExactPredicates, NonIntegerCoplanarPointsGiveZero) {
  // (0.1, 0.2, 0.3) etc. are not exact in binary, but d = b + c - a is computed exactly here when
  // the sums are exact, so the four stored doubles are exactly coplanar.
  const Vec3 a(0.5, 0.25, 0.125), b(0.75, 0.5, 0.375), c(0.25, 1.0, 0.625);
  const Vec3 d = b + c - a;
  EXPECT_EQ(orient3d(a, b, c, d), 0);
  // One ulp above / below the plane.
  const Vec3 up(d.x(), d.y(), std::nextafter(d.z(), 2.0)), down(d.x(), d.y(), std::nextafter(d.z(), 0.0));
  EXPECT_EQ(orient3d(a, b, c, up), orient3d(a, b, c, d + Vec3(0, 0, 1.0)));
  EXPECT_NE(orient3d(a, b, c, up), 0);
  EXPECT_EQ(orient3d(a, b, c, down), -orient3d(a, b, c, up));
  EXPECT_EQ(orient3d(b, a, c, up), -orient3d(a, b, c, up));
  EXPECT_EQ(orient3d(b, c, a, up), orient3d(a, b, c, up));
}

// ---------------------------------------------------------------------------------------------
// Triangle-triangle: hand-built cases, checked under every vertex order and both argument orders.

bool intersect(const Tri& t, const Tri& u) { return triangles_intersect(t[0], t[1], t[2], u[0], u[1], u[2]); }

void expect_intersection(const Tri& t, const Tri& u, bool expected, const char* what) {
  std::array<int, 3> pt = {0, 1, 2};
  do {
    std::array<int, 3> pu = {0, 1, 2};
    do {
      const Tri tt = {t[pt[0]], t[pt[1]], t[pt[2]]};
      const Tri uu = {u[pu[0]], u[pu[1]], u[pu[2]]};
      EXPECT_EQ(intersect(tt, uu), expected) << what << " (order " << pt[0] << pt[1] << pt[2] << "/" << pu[0] << pu[1] << pu[2] << ")";
      EXPECT_EQ(intersect(uu, tt), expected) << what << " (swapped)";
    } while (std::next_permutation(pu.begin(), pu.end()));
  } while (std::next_permutation(pt.begin(), pt.end()));
}

const Tri kBase = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)};  // in the z = 0 plane

TEST(TriangleIntersection, HandBuiltCases) {
  expect_intersection(kBase, {Vec3(0.2, 0.2, -1), Vec3(0.2, 0.2, 1), Vec3(0.3, 0.3, 1)}, true,
                      "crossing (piercing the face)");
  expect_intersection(kBase, {Vec3(0.5, -0.5, -0.5), Vec3(0.5, 0.5, 0.5), Vec3(0.5, 0.5, -0.5)}, true,
                      "crossing through an edge");
  expect_intersection(kBase, {Vec3(0.25, 0.25, 0), Vec3(0.25, 0.25, 1), Vec3(0.5, 0.3, 1)}, true,
                      "touching: a vertex on the face");
  expect_intersection(kBase, {Vec3(0.25, 0.25, 1e-300), Vec3(0.25, 0.25, 1), Vec3(0.5, 0.3, 1)}, false,
                      "a vertex 1e-300 m above the face");
  expect_intersection(kBase, {Vec3(1, 0, 0), Vec3(2, 0, 1), Vec3(2, 1, 1)}, true,
                      "touching: vertex to vertex");
  expect_intersection(kBase, {Vec3(0.5, 0.5, 0), Vec3(1, 1, 1), Vec3(1, 1, -1)}, true,
                      "touching: a vertex on an edge (non-coplanar)");
  expect_intersection(kBase, {Vec3(0.2, 0, 0), Vec3(0.8, 0, 0), Vec3(0.5, -0.5, 1)}, true,
                      "touching along an edge (hinge)");
  expect_intersection(kBase, {Vec3(0.2, 0.2, 0), Vec3(1.2, 0.2, 0), Vec3(0.2, 1.2, 0)}, true,
                      "coplanar overlapping");
  expect_intersection(kBase, {Vec3(0.1, 0.1, 0), Vec3(0.3, 0.1, 0), Vec3(0.1, 0.3, 0)}, true,
                      "coplanar, one inside the other");
  expect_intersection(kBase, {Vec3(1, 1, 0), Vec3(2, 1, 0), Vec3(1, 2, 0)}, false,
                      "coplanar disjoint");
  expect_intersection(kBase, {Vec3(0.5, 0.5, 0), Vec3(1, 1, 0), Vec3(1, 0.5, 0)}, true,
                      "coplanar touching at a point on the hypotenuse");
  expect_intersection(kBase, {Vec3(0.6, 0.6, 0), Vec3(1, 1, 0), Vec3(1, 0.6, 0)}, false,
                      "coplanar, just beyond the hypotenuse");
  expect_intersection(kBase, {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0.5, -1, 0)}, true,
                      "coplanar sharing an edge");
  expect_intersection(kBase, {Vec3(0, 0, 0.01), Vec3(1, 0, 0.01), Vec3(0, 1, 0.01)}, false,
                      "parallel planes");
  expect_intersection(kBase, {Vec3(10, 10, 10), Vec3(11, 10, 10), Vec3(10, 11, 10)}, false, "far");
  expect_intersection(kBase, {Vec3(0.6, 0.6, -1), Vec3(0.6, 0.6, 1), Vec3(2, 2, 0)}, false,
                      "crossing the plane beside the triangle");
  // Degenerate (zero-area) triangles are handled as segments / points.
  expect_intersection(kBase, {Vec3(0.2, 0.2, -1), Vec3(0.2, 0.2, 0), Vec3(0.2, 0.2, 1)}, true,
                      "a degenerate triangle (segment) piercing the face");
  expect_intersection(kBase, {Vec3(0.7, 0.7, -1), Vec3(0.7, 0.7, 0), Vec3(0.7, 0.7, 1)}, false,
                      "a segment missing the face");
  expect_intersection(kBase, {Vec3(0.3, 0.3, 0), Vec3(0.3, 0.3, 0), Vec3(0.3, 0.3, 0)}, true,
                      "a point on the face");
  expect_intersection(kBase, {Vec3(0.3, 0.3, 1e-9), Vec3(0.3, 0.3, 1e-9), Vec3(0.3, 0.3, 1e-9)},
                      false, "a point just above the face");
}

// An independent reference: two closed triangles meet iff an edge of one meets the other. Plain
// double arithmetic, exact for the small integer coordinates it is used with below.
double ref_orient(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return (b - a).cross(c - a).dot(d - a);
}
int sgn(double v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

bool ref_point_in_tri_2d(const Vec2& p, const Vec2& a, const Vec2& b, const Vec2& c) {
  auto o = [](const Vec2& u, const Vec2& v, const Vec2& w) {
    return sgn((v - u).x() * (w - u).y() - (v - u).y() * (w - u).x());
  };
  const int s0 = o(a, b, p), s1 = o(b, c, p), s2 = o(c, a, p);
  return !((s0 < 0 || s1 < 0 || s2 < 0) && (s0 > 0 || s1 > 0 || s2 > 0));
}

bool ref_segments_2d(const Vec2& p, const Vec2& q, const Vec2& r, const Vec2& s) {
  // Parametric solve with a collinear special case.
  const Vec2 d = q - p, e = s - r;
  const double den = d.x() * e.y() - d.y() * e.x();
  const Vec2 w = r - p;
  if (den != 0) {
    const double t = (w.x() * e.y() - w.y() * e.x()) / den;  // along pq
    const double u = (w.x() * d.y() - w.y() * d.x()) / den;  // along rs
    return t >= 0 && t <= 1 && u >= 0 && u <= 1;
  }
  if (w.x() * d.y() - w.y() * d.x() != 0) return false;  // parallel, not collinear
  // Collinear: overlap of the projections on d (d != 0 for non-degenerate triangle edges).
  const double dd = d.squaredNorm();
  const double t0 = w.dot(d) / dd, t1 = (s - p).dot(d) / dd;
  return std::max(std::min(t0, t1), 0.0) <= std::min(std::max(t0, t1), 1.0);
}

bool ref_segment_triangle(const Vec3& p, const Vec3& q, const Tri& t) {
  const double sp = ref_orient(t[0], t[1], t[2], p), sq = ref_orient(t[0], t[1], t[2], q);
  if (sgn(sp) * sgn(sq) > 0) return false;
  if (sp == 0 && sq == 0) {
    // Coplanar: drop the dominant axis of the normal.
    const Vec3 n = (t[1] - t[0]).cross(t[2] - t[0]).cwiseAbs();
    int axis = 0;
    if (n[1] > n[axis]) axis = 1;
    if (n[2] > n[axis]) axis = 2;
    auto pr = [axis](const Vec3& v) {
      return axis == 0 ? Vec2(v.y(), v.z()) : axis == 1 ? Vec2(v.x(), v.z()) : Vec2(v.x(), v.y());
    };
    if (ref_point_in_tri_2d(pr(p), pr(t[0]), pr(t[1]), pr(t[2]))) return true;
    for (int k = 0; k < 3; ++k) {
      if (ref_segments_2d(pr(p), pr(q), pr(t[k]), pr(t[(k + 1) % 3]))) return true;
    }
    return false;
  }
  // Intersection point of the line with the plane, then a barycentric containment test with the
  // signed sub-volumes (all exact for small integers).
  const int s0 = sgn(ref_orient(p, q, t[0], t[1])), s1 = sgn(ref_orient(p, q, t[1], t[2])),
            s2 = sgn(ref_orient(p, q, t[2], t[0]));
  return !((s0 < 0 || s1 < 0 || s2 < 0) && (s0 > 0 || s1 > 0 || s2 > 0));
}

bool ref_triangles(const Tri& t, const Tri& u) {
  for (int k = 0; k < 3; ++k) {
    if (ref_segment_triangle(t[k], t[(k + 1) % 3], u)) return true;
    if (ref_segment_triangle(u[k], u[(k + 1) % 3], t)) return true;
  }
  return false;
}

bool degenerate(const Tri& t) { return (t[1] - t[0]).cross(t[2] - t[0]).squaredNorm() == 0; }

TEST(TriangleIntersection, MatchesEdgeBasedReferenceOnRandomIntegerPairs) {
  // Coordinates in {-2..2}: touching, coplanar and collinear configurations are frequent.
  std::mt19937 rng(1234);
  std::uniform_int_distribution<int> coord(-2, 2);
  auto point = [&] { return Vec3(coord(rng), coord(rng), coord(rng)); };
  int tested = 0, hits = 0, coplanar = 0;
  while (tested < 200000) {
    const Tri t = {point(), point(), point()}, u = {point(), point(), point()};
    if (degenerate(t) || degenerate(u)) continue;
    ++tested;
    const bool expected = ref_triangles(t, u);
    ASSERT_EQ(intersect(t, u), expected)
        << "T1 (" << t[0].transpose() << " | " << t[1].transpose() << " | " << t[2].transpose()
        << ") T2 (" << u[0].transpose() << " | " << u[1].transpose() << " | " << u[2].transpose() << ")";
    hits += expected;
    coplanar += ref_orient(t[0], t[1], t[2], u[0]) == 0 && ref_orient(t[0], t[1], t[2], u[1]) == 0 &&
                ref_orient(t[0], t[1], t[2], u[2]) == 0;
  }
  EXPECT_GT(hits, 20000);
  EXPECT_LT(hits, 180000);
  EXPECT_GT(coplanar, 100);
}

TEST(TriangleIntersection, MatchesEdgeBasedReferenceOnRandomRealPairs) {
  // Generic positions: the reference's rounding cannot flip a sign at these margins (checked:
  // pairs whose smallest |orientation| is tiny are skipped).
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> coord(-1, 1);
  auto point = [&] { return Vec3(coord(rng), coord(rng), coord(rng)); };
  int hits = 0;
  for (int i = 0; i < 100000; ++i) {
    const Tri t = {point(), point(), point()}, u = {point() * 0.7, point() * 0.7, point() * 0.7};
    EXPECT_EQ(intersect(t, u), ref_triangles(t, u)) << "pair " << i;
    hits += ref_triangles(t, u);
  }
  EXPECT_GT(hits, 5000);
}

TEST(TriangleIntersection, SegmentTriangleAndSegmentSegment) {
  EXPECT_TRUE(segment_intersects_triangle(Vec3(0.2, 0.2, -1), Vec3(0.2, 0.2, 1), kBase[0], kBase[1], kBase[2]));
  EXPECT_TRUE(segment_intersects_triangle(Vec3(0.2, 0.2, 0), Vec3(0.2, 0.2, 1), kBase[0], kBase[1], kBase[2]));
  EXPECT_FALSE(segment_intersects_triangle(Vec3(0.2, 0.2, 1e-12), Vec3(0.2, 0.2, 1), kBase[0], kBase[1], kBase[2]));
  EXPECT_TRUE(segment_intersects_triangle(Vec3(-1, 0.5, 0), Vec3(2, 0.5, 0), kBase[0], kBase[1], kBase[2]));
  EXPECT_FALSE(segment_intersects_triangle(Vec3(-1, 1.5, 0), Vec3(2, 1.5, 0), kBase[0], kBase[1], kBase[2]));
  EXPECT_TRUE(segments_intersect(Vec3(0, 0, 0), Vec3(2, 2, 2), Vec3(1, 1, 1), Vec3(3, 3, 3)));  // collinear overlap
  EXPECT_FALSE(segments_intersect(Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(2, 2, 2), Vec3(3, 3, 3)));
  EXPECT_TRUE(segments_intersect(Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(1, -1, 0), Vec3(1, 1, 0)));
  EXPECT_FALSE(segments_intersect(Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(1, -1, 1e-9), Vec3(1, 1, 1e-9)));
  EXPECT_TRUE(triangle_is_degenerate(Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(3, 3, 3)));
  EXPECT_FALSE(triangle_is_degenerate(Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(3, 3, 3.0000001)));
}

// ---------------------------------------------------------------------------------------------
// Spatial hash against brute force.

std::vector<Aabb> random_boxes(std::mt19937& rng, int n) {
  std::uniform_real_distribution<double> pos(-1, 1), size(0, 0.15);
  std::vector<Aabb> boxes;
  for (int i = 0; i < n; ++i) {
    const Vec3 lo(pos(rng), pos(rng), pos(rng));
    boxes.push_back(Aabb{lo, lo + Vec3(size(rng), size(rng), size(rng))});
  }
  boxes[3] = Aabb{Vec3(-1, -1, -1), Vec3(1, 1, 1)};               // oversize: spans every cell
  boxes[7] = Aabb{Vec3(-0.5, -0.5, -0.5), Vec3(0.5, 0.5, 0.5)};   // oversize too
  boxes[11] = Aabb{Vec3(NAN, 0, 0), Vec3(1, 1, 1)};               // ignored
  boxes[12] = Aabb{Vec3(0.2, 0.2, 0.2), Vec3(0.2, 0.2, 0.2)};     // a point
  boxes[13] = boxes[12];                                          // an identical point
  return boxes;
}

TEST(SpatialHash, SelfPairsAndQueriesEqualBruteForce) {
  std::mt19937 rng(5);
  const std::vector<Aabb> boxes = random_boxes(rng, 600);
  SpatialHash hash;
  hash.build(boxes, 0.1);
  EXPECT_EQ(hash.oversize_count(), 2);
  std::set<std::pair<int, int>> expected, got;
  for (int i = 0; i < 600; ++i) {
    for (int j = i + 1; j < 600; ++j) {
      if (boxes[i].valid() && boxes[j].valid() && boxes[i].overlaps(boxes[j])) expected.insert({i, j});
    }
  }
  int calls = 0;
  hash.for_each_self_pair([&](int i, int j) {
    ++calls;
    EXPECT_LT(i, j);
    got.insert({i, j});
  });
  EXPECT_EQ(calls, static_cast<int>(got.size())) << "a pair was reported twice";
  EXPECT_EQ(got, expected);
  EXPECT_TRUE(expected.count({12, 13}));

  std::uniform_real_distribution<double> pos(-1.2, 1.2), size(0, 0.3);
  for (int q = 0; q < 200; ++q) {
    const Vec3 lo(pos(rng), pos(rng), pos(rng));
    const Aabb box = q == 0 ? Aabb{Vec3::Constant(-5), Vec3::Constant(5)}  // a huge query
                            : Aabb{lo, lo + Vec3(size(rng), size(rng), size(rng))};
    std::set<int> want, have;
    int n = 0;
    for (int j = 0; j < 600; ++j) {
      if (boxes[j].valid() && boxes[j].overlaps(box)) want.insert(j);
    }
    hash.query(box, [&](int j) {
      ++n;
      have.insert(j);
    });
    EXPECT_EQ(n, static_cast<int>(have.size())) << "query " << q << " reported a box twice";
    EXPECT_EQ(have, want) << "query " << q;
  }
}

// ---------------------------------------------------------------------------------------------
// Closest points against dense sampling.

TEST(ClosestPoints, NoSampledPointIsCloser) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> c(-1, 1), u(0, 1);
  for (int it = 0; it < 300; ++it) {
    const Vec3 a(c(rng), c(rng), c(rng)), b(c(rng), c(rng), c(rng)), d(c(rng), c(rng), c(rng));
    const Vec3 p(2 * c(rng), 2 * c(rng), 2 * c(rng));
    const Vec3 w = closest_point_on_triangle(p, a, b, d);
    EXPECT_NEAR(w.sum(), 1.0, 1e-12);
    EXPECT_GE(w.minCoeff(), -1e-12);
    const double best = (p - (w[0] * a + w[1] * b + w[2] * d)).norm();
    for (int s = 0; s < 200; ++s) {
      double r1 = u(rng), r2 = u(rng);
      if (r1 + r2 > 1) {
        r1 = 1 - r1;
        r2 = 1 - r2;
      }
      ASSERT_LE(best, (p - (a + r1 * (b - a) + r2 * (d - a))).norm() + 1e-12);
    }
    const Vec3 q0(c(rng), c(rng), c(rng)), q1(c(rng), c(rng), c(rng));
    double s, t;
    closest_points_on_segments(a, b, q0, q1, s, t);
    ASSERT_GE(s, 0);
    ASSERT_LE(s, 1);
    ASSERT_GE(t, 0);
    ASSERT_LE(t, 1);
    const double seg_best = ((a + s * (b - a)) - (q0 + t * (q1 - q0))).norm();
    for (int i = 0; i <= 40; ++i) {
      for (int j = 0; j <= 40; ++j) {
        ASSERT_LE(seg_best, ((a + i / 40.0 * (b - a)) - (q0 + j / 40.0 * (q1 - q0))).norm() + 1e-12);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Proximity: hash candidates and narrow phase against brute force on a crumpled cloth.

RestMesh crumpled_grid(int n, unsigned seed) {
  GridSpec spec;
  spec.nx = spec.ny = n;
  spec.center = Vec3::Zero();
  RestMesh mesh = make_grid(spec);
  // Fold the flat sheet into a small ball-ish volume: waves in every direction plus noise.
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> noise(-0.01, 0.01);
  for (Vec3& p : mesh.positions) {
    const double u = p.x(), v = p.z();
    p = Vec3(0.25 * std::sin(7 * u) + 0.1 * std::cos(9 * v), 0.2 * std::sin(5 * u + 6 * v),
             0.25 * std::sin(8 * v) + 0.1 * std::cos(6 * u)) +
        Vec3(noise(rng), noise(rng), noise(rng));
  }
  return mesh;
}

double segment_distance(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  double s, t;
  closest_points_on_segments(p0, p1, q0, q1, s, t);
  return ((p0 + s * (p1 - p0)) - (q0 + t * (q1 - q0))).norm();
}

TEST(SelfCollisionProximity, HashCandidatesContainEveryBruteForceClosePair) {
  const RestMesh mesh = crumpled_grid(20, 17);
  const std::vector<Vec3>& x = mesh.positions;
  const double h = 0.02;
  SelfCollider collider(mesh);
  std::vector<std::array<int, 2>> vt, ee;
  collider.broad_phase(x, x, h, 0, vt, ee);
  const std::set<std::array<int, 2>> vt_set(vt.begin(), vt.end()), ee_set(ee.begin(), ee.end());
  EXPECT_EQ(vt_set.size(), vt.size()) << "duplicate vertex-triangle candidates";
  EXPECT_EQ(ee_set.size(), ee.size()) << "duplicate edge-edge candidates";

  const std::vector<ProximityPair> found = collider.find_proximities(x, x, h);
  std::set<std::array<int, 4>> found_set;
  for (const ProximityPair& p : found) {
    found_set.insert(p.vertices);
    EXPECT_GE(p.gap, 0) << "x_start = x: nothing has crossed";
    EXPECT_LT(p.gap, h);
  }

  int vt_close = 0, ee_close = 0;
  const auto& tris = mesh.triangles;
  for (int p = 0; p < mesh.vertex_count(); ++p) {
    for (int t = 0; t < static_cast<int>(tris.size()); ++t) {
      const auto& tr = tris[t];
      if (tr[0] == p || tr[1] == p || tr[2] == p) continue;
      const Vec3 w = closest_point_on_triangle(x[p], x[tr[0]], x[tr[1]], x[tr[2]]);
      const double d = (x[p] - (w[0] * x[tr[0]] + w[1] * x[tr[1]] + w[2] * x[tr[2]])).norm();
      if (d >= h) continue;
      ++vt_close;
      EXPECT_TRUE(vt_set.count({p, t})) << "vertex " << p << " triangle " << t << " at " << d;
      EXPECT_TRUE(found_set.count({p, tr[0], tr[1], tr[2]})) << "vertex " << p << " triangle " << t;
    }
  }
  const auto& edges = collider.edges();
  for (int i = 0; i < static_cast<int>(edges.size()); ++i) {
    for (int j = i + 1; j < static_cast<int>(edges.size()); ++j) {
      const auto& e = edges[i];
      const auto& f = edges[j];
      if (e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1]) continue;
      const double d = segment_distance(x[e[0]], x[e[1]], x[f[0]], x[f[1]]);
      if (d >= h) continue;
      ++ee_close;
      EXPECT_TRUE(ee_set.count({i, j})) << "edges " << i << ", " << j << " at " << d;
      EXPECT_TRUE(found_set.count({e[0], e[1], f[0], f[1]})) << "edges " << i << ", " << j;
    }
  }
  EXPECT_GT(vt_close, 50) << "the crumpled mesh should have many close pairs";
  EXPECT_GT(ee_close, 50);
  EXPECT_EQ(static_cast<int>(found.size()), vt_close + ee_close);
  // The broad phase prunes: far fewer candidates than all pairs.
  EXPECT_LT(vt.size(), static_cast<size_t>(mesh.vertex_count()) * tris.size() / 10);
  // And the hash-based intersection count agrees with brute force.
  EXPECT_EQ(count_intersecting_triangle_pairs(tris, x),
            count_intersecting_triangle_pairs_brute_force(tris, x));
  EXPECT_GT(count_intersecting_triangle_pairs(tris, x), 0) << "this crumple self-intersects";
}

TEST(SelfCollisionProximity, FlatGridAtRestHasNoClosePairs) {
  GridSpec spec;
  spec.nx = spec.ny = 32;
  const RestMesh mesh = make_grid(spec);
  SelfCollider collider(mesh);
  EXPECT_TRUE(collider.find_proximities(mesh.positions, mesh.positions, 0.004).empty());
  EXPECT_EQ(count_intersecting_triangle_pairs(mesh.triangles, mesh.positions), 0);
}

// ---------------------------------------------------------------------------------------------
// Response on one free pair.

struct TwoTriangles {
  std::vector<std::array<int, 3>> tris = {{0, 1, 2}, {3, 4, 5}};
  std::vector<double> mass = {0.3, 0.5, 0.7, 0.2, 0.4, 0.6};
  ClothState state;
  std::vector<Vec3> x_start;
};

// Triangle 0 in the z = 0 plane; triangle 1 above it with vertex 3 over the face, approaching.
TwoTriangles approaching_pair(double gap_end, const Vec3& v_vertex) {
  TwoTriangles s;
  s.state.x = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0.25, 0.3, gap_end),
               Vec3(0.25, 0.3, 1), Vec3(1, 1, 1)};
  s.state.v = {Vec3(0.1, 0, 0.2), Vec3(0, 0.05, 0.1), Vec3(-0.1, 0, 0), v_vertex,
               Vec3(0, 0, -0.5), Vec3(0.1, 0.1, -0.5)};
  s.x_start = s.state.x;
  s.x_start[3].z() += 0.01;  // came down from above
  return s;
}

Vec3 momentum(const TwoTriangles& s) {
  Vec3 p = Vec3::Zero();
  for (int i = 0; i < 6; ++i) p += s.mass[i] * s.state.v[i];
  return p;
}
Vec3 mass_moment(const TwoTriangles& s) {
  Vec3 p = Vec3::Zero();
  for (int i = 0; i < 6; ++i) p += s.mass[i] * s.state.x[i];
  return p;
}

TEST(SelfCollisionResponse, ConservesLinearMomentumAndSeparatesAFreePair) {
  SelfCollisionSettings settings;
  settings.enabled = true;
  settings.thickness = 0.004;
  settings.friction = 0.3;
  TwoTriangles s = approaching_pair(0.001, Vec3(0.4, -0.2, -1.0));
  const Vec3 p_before = momentum(s), moment_before = mass_moment(s);
  ProximityPair first;  // the pair as the first pass sees it
  ASSERT_TRUE(vertex_triangle_proximity(3, {0, 1, 2}, s.x_start, s.state.x, 0.004, first));
  EXPECT_NEAR(first.gap, 0.001, 1e-15);
  SelfCollider collider(s.tris, 6);
  const SelfCollisionStats stats = collider.resolve(s.mass, {}, s.x_start, s.state, settings);
  EXPECT_GE(stats.pairs_found, 1);
  EXPECT_GE(stats.pairs_corrected, 1);
  EXPECT_LT(stats.passes, settings.passes) << "a single pair converges before the last pass";
  EXPECT_EQ(stats.pairs_remaining, 0);
  EXPECT_LT((momentum(s) - p_before).norm(), 1e-14);
  EXPECT_LT((mass_moment(s) - moment_before).norm(), 1e-14) << "centre of mass moved";
  // The vertex is now at least h above the triangle and no longer approaching it.
  ProximityPair pair;
  const bool close = vertex_triangle_proximity(3, {0, 1, 2}, s.x_start, s.state.x, 0.004 * (1 - 1e-9), pair);
  EXPECT_FALSE(close) << "gap " << pair.gap;
  Vec3 vrel = Vec3::Zero();  // with the weights and normal the response used
  for (int k = 0; k < 4; ++k) vrel += first.weights[k] * s.state.v[first.vertices[k]];
  EXPECT_NEAR(vrel.dot(first.normal), 0.0, 1e-12) << "approaching normal speed removed";
}

TEST(SelfCollisionResponse, FrictionRemovesAtMostMuTimesTheNormalSpeed) {
  SelfCollisionSettings settings;
  settings.enabled = true;
  settings.friction = 0.25;
  std::vector<std::uint8_t> pinned = {1, 1, 1, 0, 1, 1};  // only the vertex moves
  for (const double vt : {0.1, 2.0}) {
    TwoTriangles s = approaching_pair(0.003, Vec3(vt, 0, -1.0));
    SelfCollider collider(s.tris, 6);
    const std::vector<Vec3> x_pinned = {s.state.x[0], s.state.x[1], s.state.x[2], s.state.x[4], s.state.x[5]};
    const std::vector<Vec3> v_pinned = {s.state.v[0], s.state.v[1], s.state.v[2], s.state.v[4], s.state.v[5]};
    collider.resolve(s.mass, pinned, s.x_start, s.state, settings);
    // The triangle is pinned, so the relative velocity is the vertex's own minus the triangle's.
    const Vec3 w = closest_point_on_triangle(s.state.x[3], s.state.x[0], s.state.x[1], s.state.x[2]);
    const Vec3 vtri = w[0] * s.state.v[0] + w[1] * s.state.v[1] + w[2] * s.state.v[2];
    const Vec3 rel = s.state.v[3] - vtri;
    const Vec3 rel_before = Vec3(vt, 0, -1.0) - vtri;
    EXPECT_NEAR(rel.z(), 0.0, 1e-12) << "normal speed removed";
    const double tangential_before = Vec2(rel_before.x(), rel_before.y()).norm();
    const double tangential_after = Vec2(rel.x(), rel.y()).norm();
    const double vn = -rel_before.z();
    EXPECT_NEAR(tangential_after, std::max(0.0, tangential_before - settings.friction * vn), 1e-12)
        << "vt " << vt;
    EXPECT_NEAR(s.state.x[3].z(), 0.004, 1e-8);
    const std::vector<Vec3> x_after = {s.state.x[0], s.state.x[1], s.state.x[2], s.state.x[4], s.state.x[5]};
    const std::vector<Vec3> v_after = {s.state.v[0], s.state.v[1], s.state.v[2], s.state.v[4], s.state.v[5]};
    EXPECT_EQ(x_after, x_pinned) << "pinned vertices moved";
    EXPECT_EQ(v_after, v_pinned) << "pinned vertices changed speed";
  }
}

TEST(SelfCollisionResponse, AVertexThatCrossedAFaceGoesBackToItsSide) {
  SelfCollisionSettings settings;
  settings.enabled = true;
  TwoTriangles s = approaching_pair(-0.003, Vec3(0, 0, -1.0));  // ended 3 mm below the face
  SelfCollider collider(s.tris, 6);
  collider.resolve(s.mass, {}, s.x_start, s.state, settings);
  const Vec3 n = (s.state.x[1] - s.state.x[0]).cross(s.state.x[2] - s.state.x[0]).normalized();
  EXPECT_GE(n.dot(s.state.x[3] - s.state.x[0]), 0.004 * (1 - 1e-6)) << "pushed back above";
  EXPECT_EQ(count_intersecting_triangle_pairs(s.tris, s.state.x), 0);
}

TEST(SelfCollisionResponse, DisabledDoesNothingAndSettingsAreValidated) {
  TwoTriangles s = approaching_pair(0.001, Vec3(0, 0, -1.0));
  const ClothState before = s.state;
  SelfCollider collider(s.tris, 6);
  const SelfCollisionStats stats = collider.resolve(s.mass, {}, s.x_start, s.state, SelfCollisionSettings{});
  EXPECT_EQ(stats.passes, 0);
  EXPECT_EQ(s.state.x, before.x);
  SelfCollisionSettings bad;
  EXPECT_NO_THROW(validate_self_collision_settings(bad));
  bad.thickness = -1;
  EXPECT_ANY_THROW(validate_self_collision_settings(bad));
  bad = {};
  bad.passes = 0;
  EXPECT_ANY_THROW(validate_self_collision_settings(bad));
  bad = {};
  bad.friction = NAN;
  EXPECT_ANY_THROW(validate_self_collision_settings(bad));
}

// ---------------------------------------------------------------------------------------------
// A cloth dropped onto itself: the far half of a grid, hinged at the middle row, starts tilted
// 150 degrees over the near half lying on the floor and falls onto it under gravity. Mass-spring
// forces from the engine, symplectic Euler with a floor, self-collision after every step.

struct FoldResult {
  long long intersecting_pairs = 0;
  long long max_intersecting_pairs_during = 0;
  double min_vertex_triangle_distance = 0;  // over non-adjacent pairs, final state
  double max_top_height = 0;                // highest vertex of the falling half at the end, m
  SelfCollisionStats last_stats;
  long long max_pairs_found = 0;
};

FoldResult drop_cloth_onto_itself(bool self_collision, int n) {
  const double size = 0.6, h = 0.004, floor_offset = 0.002;
  GridSpec spec;
  spec.nx = spec.ny = n;
  spec.width = spec.height = size;
  spec.center = Vec3(0, 0, 0);
  RestMesh mesh = make_grid(spec);
  const int fold_row = (n - 1) / 2;
  const double z_fold = mesh.positions[mesh.grid_index(0, fold_row)].z();
  const double angle = 150.0 * M_PI / 180.0;
  for (Vec3& p : mesh.positions) {
    const double d = p.z() - z_fold;  // distance beyond the fold line
    if (d <= 0) {
      p.y() = floor_offset;
    } else {
      p = Vec3(p.x(), floor_offset + d * std::sin(angle), z_fold + d * std::cos(angle));
    }
  }
  SpringMaterial material;  // softened so that explicit steps of 0.1 ms are stable
  material.stretch = 200;
  material.shear = 20;
  material.velocity_damping = 1.0;
  ClothModel model = build_model(mesh, material);
  ClothState state{model.mesh.positions, std::vector<Vec3>(mesh.vertex_count(), Vec3::Zero())};
  ExternalForces ext;
  SelfCollider collider(model.mesh);
  SelfCollisionSettings settings;
  settings.enabled = self_collision;
  settings.thickness = h;
  settings.passes = 6;

  FoldResult result;
  const double dt = 1e-4;
  const int steps = 3000;  // 0.3 s: the far half lands after about 0.2 s
  std::vector<Vec3> f;
  std::vector<Vec3> x_start;
  for (int step = 0; step < steps; ++step) {
    x_start = state.x;
    compute_forces(model, state, ext, step * dt, f);
    for (int i = 0; i < state.vertex_count(); ++i) {
      state.v[i] += dt * f[i] / model.mass[i];
      state.x[i] += dt * state.v[i];
      if (state.x[i].y() < floor_offset) {  // floor: inelastic, sticky
        state.x[i].y() = floor_offset;
        state.v[i] = Vec3::Zero();
      }
    }
    if (self_collision) {
      result.last_stats = collider.resolve(model.mass, {}, x_start, state, settings);
      result.max_pairs_found = std::max<long long>(result.max_pairs_found, result.last_stats.pairs_found);
    }
    if (step % 100 == 99) {
      result.max_intersecting_pairs_during =
          std::max(result.max_intersecting_pairs_during,
                   count_intersecting_triangle_pairs(model.mesh.triangles, state.x));
    }
  }
  EXPECT_TRUE(all_finite(state));
  result.intersecting_pairs = count_intersecting_triangle_pairs(model.mesh.triangles, state.x);
  double min_d = 1e9;
  const auto& tris = model.mesh.triangles;
  for (int p = 0; p < state.vertex_count(); ++p) {
    for (const auto& t : tris) {
      if (t[0] == p || t[1] == p || t[2] == p) continue;
      const Vec3 w = closest_point_on_triangle(state.x[p], state.x[t[0]], state.x[t[1]], state.x[t[2]]);
      min_d = std::min(min_d, (state.x[p] - (w[0] * state.x[t[0]] + w[1] * state.x[t[1]] +
                                             w[2] * state.x[t[2]])).norm());
    }
  }
  result.min_vertex_triangle_distance = min_d;
  for (int j = fold_row + 1; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      result.max_top_height = std::max(result.max_top_height, state.x[mesh.grid_index(i, j)].y());
    }
  }
  return result;
}

TEST(SelfCollisionScenario, ClothDroppedOntoItselfDoesNotPassThroughItself) {
  const FoldResult with = drop_cloth_onto_itself(true, 21);
  std::printf("[ fold 21x21 ] with self-collision: final intersecting pairs %lld (max during %lld), "
              "min vertex-triangle distance %.6f m, top half max height %.4f m, "
              "last step: %d VT + %d EE candidates, %d pairs found, %d passes; max pairs found %lld\n",
              with.intersecting_pairs, with.max_intersecting_pairs_during,
              with.min_vertex_triangle_distance, with.max_top_height,
              with.last_stats.vertex_triangle_candidates, with.last_stats.edge_edge_candidates,
              with.last_stats.pairs_found, with.last_stats.passes, with.max_pairs_found);
  EXPECT_EQ(with.intersecting_pairs, 0);
  EXPECT_EQ(with.max_intersecting_pairs_during, 0);
  EXPECT_GE(with.min_vertex_triangle_distance, 0.004 * (1 - 0.01));
  EXPECT_LT(with.max_top_height, 0.05) << "the far half should have fallen onto the near half";
  EXPECT_GT(with.max_pairs_found, 100) << "the halves should be in contact";

  const FoldResult without = drop_cloth_onto_itself(false, 21);
  std::printf("[ fold 21x21 ] without self-collision: final intersecting pairs %lld, "
              "min vertex-triangle distance %.6f m\n",
              without.intersecting_pairs, without.min_vertex_triangle_distance);
  EXPECT_GT(without.intersecting_pairs, 0) << "the test would not notice a missing response";
  EXPECT_LT(without.min_vertex_triangle_distance, 0.004 * (1 - 0.01));
}

}  // namespace
}  // namespace cloth
