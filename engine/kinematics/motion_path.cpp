#include "kinematics/motion_path.hpp"

#include <cmath>

#include "core/error.hpp"

namespace cloth {
namespace {

constexpr double kTwoPi = 6.283185307179586;

/// A pseudo-random point of [-1, 1]^3 for knot k: a pure function of (seed, k), so the path is
/// the same after a reset and in every run (splitmix64 of the pair).
Vec3 knot(std::uint32_t seed, std::int64_t k) {
  std::uint64_t z = (std::uint64_t(seed) << 32) ^ std::uint64_t(k);
  Vec3 out;
  for (int axis = 0; axis < 3; ++axis) {
    z += 0x9E3779B97F4A7C15ull;
    std::uint64_t r = z;
    r = (r ^ (r >> 30)) * 0xBF58476D1CE4E5B9ull;
    r = (r ^ (r >> 27)) * 0x94D049BB133111EBull;
    r ^= r >> 31;
    out[axis] = double(r >> 11) / double(1ull << 53) * 2.0 - 1.0;
  }
  return out;
}

/// Catmull-Rom spline through the knots at integer s, and its derivative d/ds.
void catmull_rom(std::uint32_t seed, double s, Vec3* value, Vec3* derivative) {
  const double fl = std::floor(s);
  const auto k = static_cast<std::int64_t>(fl);
  const double u = s - fl;
  const Vec3 p0 = knot(seed, k - 1), p1 = knot(seed, k), p2 = knot(seed, k + 1),
             p3 = knot(seed, k + 2);
  const Vec3 a = 2 * p1, b = p2 - p0, c = 2 * p0 - 5 * p1 + 4 * p2 - p3,
             d = -p0 + 3 * p1 - 3 * p2 + p3;
  if (value) *value = 0.5 * (a + u * (b + u * (c + u * d)));
  if (derivative) *derivative = 0.5 * (b + u * (2 * c + u * 3 * d));
}

}  // namespace

void make_axes_perpendicular(MotionPath& m, const std::string& key) {
  const Vec3 v_perp = m.axis_v - m.axis_v.dot(m.axis_u) * m.axis_u;
  if (v_perp.norm() < 1e-6) throw InputError(key + ": axis_u and axis_v must not be parallel");
  m.axis_v = v_perp.normalized();
}

Vec3 MotionPath::offset(double t) const {
  const double w = kTwoPi / period;
  switch (kind) {
    case Kind::Fixed: return Vec3::Zero();
    case Kind::Linear: return velocity * t;
    case Kind::Oscillate: return amplitude * std::sin(w * t) * axis_u;
    case Kind::Circle:
      return amplitude * ((std::cos(w * t) - 1.0) * axis_u + std::sin(w * t) * axis_v);
    case Kind::FigureEight:
      return amplitude * (std::sin(w * t) * axis_u + std::sin(w * t) * std::cos(w * t) * axis_v);
    case Kind::Wander: {
      Vec3 now, start;
      catmull_rom(seed, t / period, &now, nullptr);
      catmull_rom(seed, 0.0, &start, nullptr);
      return amplitude * (now - start);
    }
  }
  return Vec3::Zero();
}

Vec3 MotionPath::velocity_at(double t) const {
  const double w = kTwoPi / period;
  switch (kind) {
    case Kind::Fixed: return Vec3::Zero();
    case Kind::Linear: return velocity;
    case Kind::Oscillate: return amplitude * w * std::cos(w * t) * axis_u;
    case Kind::Circle:
      return amplitude * w * (-std::sin(w * t) * axis_u + std::cos(w * t) * axis_v);
    case Kind::FigureEight:
      return amplitude * w * (std::cos(w * t) * axis_u + std::cos(2 * w * t) * axis_v);
    case Kind::Wander: {
      Vec3 d;
      catmull_rom(seed, t / period, nullptr, &d);
      return amplitude / period * d;
    }
  }
  return Vec3::Zero();
}

}  // namespace cloth
