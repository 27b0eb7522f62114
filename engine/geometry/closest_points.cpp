// Closest points on triangles and between segments (Ericson 2005, 5.1.5 and 5.1.9).
#include "geometry/closest_points.hpp"

#include <algorithm>

namespace cloth {

namespace {
// Weight of b on the segment (a, b) closest to p.
double segment_parameter(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double len2 = ab.squaredNorm();
  return len2 > 0 ? std::clamp((p - a).dot(ab) / len2, 0.0, 1.0) : 0.0;
}
}  // namespace

Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return Vec3(1, 0, 0);  // vertex region a
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return Vec3(0, 1, 0);  // vertex region b
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {  // edge region ab
    const double v = d1 / (d1 - d3);
    return Vec3(1 - v, v, 0);
  }
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return Vec3(0, 0, 1);  // vertex region c
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {  // edge region ac
    const double w = d2 / (d2 - d6);
    return Vec3(1 - w, 0, w);
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {  // edge region bc
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return Vec3(0, 1 - w, w);
  }
  const double sum = va + vb + vc;
  if (!(sum > 0)) {
    // Degenerate (zero-area) triangle that fell through the region tests: closest point over the
    // three edges.
    const double tab = segment_parameter(p, a, b), tbc = segment_parameter(p, b, c),
                 tca = segment_parameter(p, c, a);
    const Vec3 w_ab(1 - tab, tab, 0), w_bc(0, 1 - tbc, tbc), w_ca(tca, 0, 1 - tca);
    auto dist2 = [&](const Vec3& w) { return (p - (w[0] * a + w[1] * b + w[2] * c)).squaredNorm(); };
    Vec3 best = w_ab;
    if (dist2(w_bc) < dist2(best)) best = w_bc;
    if (dist2(w_ca) < dist2(best)) best = w_ca;
    return best;
  }
  const double v = vb / sum, w = vc / sum;  // face region
  return Vec3(1 - v - w, v, w);
}

void closest_points_on_segments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1,
                                double& s, double& t) {
  const Vec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  // Relative tolerance for "is a point": squared length below (1e-14 x scale)^2.
  const double scale2 = std::max({a, e, r.squaredNorm()});
  const double tiny = 1e-28 * scale2;
  if (a <= tiny && e <= tiny) {
    s = t = 0;
    return;
  }
  if (a <= tiny) {
    s = 0;
    t = std::clamp(f / e, 0.0, 1.0);
    return;
  }
  const double c = d1.dot(r);
  if (e <= tiny) {
    t = 0;
    s = std::clamp(-c / a, 0.0, 1.0);
    return;
  }
  const double b = d1.dot(d2);
  const double denom = a * e - b * b;  // >= 0
  s = denom > 1e-14 * a * e ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
  t = (b * s + f) / e;
  if (t < 0) {
    t = 0;
    s = std::clamp(-c / a, 0.0, 1.0);
  } else if (t > 1) {
    t = 1;
    s = std::clamp((b - c) / a, 0.0, 1.0);
  }
}

}  // namespace cloth
