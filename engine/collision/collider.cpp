// Signed distances and outward normals of the solid shapes.
#include "collision/collider.hpp"

#include <algorithm>
#include <cmath>

#include "collision/mesh_collider.hpp"

namespace cloth {
namespace {

/// A unit vector along d, or +y where d is (numerically) zero: at a shape's centre line every
/// direction is equally close, so any consistent choice will do.
Vec3 unit_or_up(const Vec3& d) {
  const double len = d.norm();
  return len > 1e-12 ? Vec3(d / len) : Vec3(Vec3::UnitY());
}

/// Any unit vector perpendicular to the unit vector a.
Vec3 perpendicular(const Vec3& a) {
  const Vec3 helper = std::abs(a.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  return a.cross(helper).normalized();
}

double plane_distance(const PlaneShape& s, const Vec3& p, Vec3* n) {
  *n = s.normal;
  return (p - s.point).dot(s.normal);
}

double sphere_distance(const SphereShape& s, const Vec3& p, Vec3* n) {
  const Vec3 d = p - s.center;
  *n = unit_or_up(d);
  return d.norm() - s.radius;
}

double capsule_distance(const CapsuleShape& s, const Vec3& p, Vec3* n) {
  const Vec3 axis = s.b - s.a;
  const double len2 = axis.squaredNorm();
  const double t = len2 > 0 ? std::clamp((p - s.a).dot(axis) / len2, 0.0, 1.0) : 0.0;
  const Vec3 d = p - (s.a + t * axis);
  *n = d.norm() > 1e-12 ? Vec3(d.normalized()) : (len2 > 0 ? perpendicular(axis.normalized())
                                                          : Vec3(Vec3::UnitY()));
  return d.norm() - s.radius;
}

double cylinder_distance(const CylinderShape& s, const Vec3& p, Vec3* n) {
  const Vec3 axis = (s.b - s.a).normalized();
  const double half = 0.5 * (s.b - s.a).norm();
  const Vec3 rel = p - 0.5 * (s.a + s.b);
  const double along = rel.dot(axis);
  const Vec3 radial_vec = rel - along * axis;
  const double r = radial_vec.norm();
  const Vec3 radial = r > 1e-12 ? Vec3(radial_vec / r) : perpendicular(axis);
  const Vec3 axial = along >= 0 ? axis : Vec3(-axis);
  const double dr = r - s.radius;            // outside the infinite cylinder if > 0
  const double da = std::abs(along) - half;  // beyond an end plane if > 0
  if (dr > 0 && da > 0) {                    // nearest to the rim circle
    *n = (dr * radial + da * axial).normalized();
    return std::hypot(dr, da);
  }
  if (dr > da) {  // the side is nearest (inside: the side is the least deep face)
    *n = radial;
    return dr;
  }
  *n = axial;
  return da;
}

double box_distance(const BoxShape& s, const Vec3& p, Vec3* n) {
  const Vec3 local = s.rotation.transpose() * (p - s.center);
  const Vec3 q = local.cwiseAbs() - s.half_extents;
  const Vec3 sign = local.unaryExpr([](double x) { return x >= 0 ? 1.0 : -1.0; });
  const Vec3 outside = q.cwiseMax(0.0);
  if (outside.squaredNorm() > 0) {
    *n = s.rotation * outside.cwiseProduct(sign).normalized();
    return outside.norm();
  }
  int axis = 0;  // inside: the face with the least depth is the closest
  q.maxCoeff(&axis);
  Vec3 local_n = Vec3::Zero();
  local_n[axis] = sign[axis];
  *n = s.rotation * local_n;
  return q[axis];
}

/// Exact distance to an ellipsoid in its own frame (centre 0, axes along x, y, z). The closest
/// surface point is x_i = r_i^2 p_i / (t + r_i^2) for the root t > -min r_i^2 of
/// F(t) = sum (r_i p_i / (t + r_i^2))^2 - 1 (Eberly, "Distance from a point to an ellipse, an
/// ellipsoid, or a hyperellipsoid"); F decreases there, so a safeguarded Newton iteration on the
/// bracket finds it.
double ellipsoid_distance_local(const Vec3& r, const Vec3& p, Vec3* n_local) {
  const Vec3 r2 = r.cwiseProduct(r);
  int min_axis = 0;
  const double r2_min = r2.minCoeff(&min_axis);
  auto F = [&](double t, double* dF) {
    double f = -1, df = 0;
    for (int i = 0; i < 3; ++i) {
      const double term = r[i] * p[i] / (t + r2[i]);
      f += term * term;
      df += -2 * term * term / (t + r2[i]);
    }
    if (dF) *dF = df;
    return f;
  };
  Vec3 x;
  const double tiny = 1e-12 * r2_min;
  if (F(-r2_min + tiny, nullptr) < 0) {
    // p lies on the ellipsoid's medial set (its components along the shortest axes are ~0) deep
    // inside: t = -min r^2, and the nearest points leave that set along the shortest axes (all
    // of them when two or three radii are equal and smallest), on p's side.
    Vec3 shortest = Vec3::Zero();  // p's part along the shortest axes
    double rest = 1;
    for (int i = 0; i < 3; ++i) {
      if (r2[i] - r2_min <= 1e-12 * r2_min) {
        x[i] = 0;
        shortest[i] = p[i];
      } else {
        x[i] = r2[i] * p[i] / (r2[i] - r2_min);
        rest -= (x[i] / r[i]) * (x[i] / r[i]);
      }
    }
    Vec3 dir = shortest.norm() > 0 ? Vec3(shortest.normalized()) : Vec3(Vec3::Unit(min_axis));
    x += std::sqrt(std::max(rest, 0.0)) * std::sqrt(r2_min) * dir;
  } else {
    double lo = -r2_min + tiny, hi = r.maxCoeff() * p.norm() + r2.maxCoeff();
    double t = std::max(0.0, lo);
    if (F(t, nullptr) < 0) t = lo;  // the root is below 0: p is inside
    for (int it = 0; it < 100; ++it) {
      double df = 0;
      const double f = F(t, &df);
      if (f > 0) lo = t; else hi = t;
      if (std::abs(f) < 1e-14 || hi - lo < 1e-15 * std::max(1.0, std::abs(t))) break;
      const double newton = t - f / df;
      t = (newton > lo && newton < hi) ? newton : 0.5 * (lo + hi);
    }
    for (int i = 0; i < 3; ++i) x[i] = r2[i] * p[i] / (t + r2[i]);
  }
  *n_local = x.cwiseQuotient(r2).normalized();  // gradient of sum (x_i / r_i)^2 at x
  const double level = p.cwiseQuotient(r).squaredNorm() - 1;
  return (level < 0 ? -1.0 : 1.0) * (p - x).norm();
}

double ellipsoid_distance(const EllipsoidShape& s, const Vec3& p, Vec3* n) {
  Vec3 n_local;
  const double d = ellipsoid_distance_local(s.radii, s.rotation.transpose() * (p - s.center), &n_local);
  *n = s.rotation * n_local;
  return d;
}

double mesh_distance(const MeshShape& s, const Vec3& p, Vec3* n) {
  return s.mesh->signed_distance(p - s.offset, n);
}

}  // namespace

double shape_signed_distance(const Shape& shape, const Vec3& p, Vec3* normal) {
  return std::visit(
      [&](const auto& s) -> double {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, PlaneShape>) return plane_distance(s, p, normal);
        if constexpr (std::is_same_v<T, SphereShape>) return sphere_distance(s, p, normal);
        if constexpr (std::is_same_v<T, CapsuleShape>) return capsule_distance(s, p, normal);
        if constexpr (std::is_same_v<T, CylinderShape>) return cylinder_distance(s, p, normal);
        if constexpr (std::is_same_v<T, BoxShape>) return box_distance(s, p, normal);
        if constexpr (std::is_same_v<T, EllipsoidShape>) return ellipsoid_distance(s, p, normal);
        if constexpr (std::is_same_v<T, MeshShape>) return mesh_distance(s, p, normal);
      },
      shape);
}

double signed_distance(const Collider& c, const Vec3& p, Vec3* normal, double t) {
  // A moving solid: the point as seen from the solid's starting place.
  const Vec3 local = p - c.displacement(t);
  return shape_signed_distance(c.shape, local, normal);
}

Eigen::Matrix3d rotation_from_degrees(const Vec3& degrees) {
  const Vec3 rad = degrees * (3.14159265358979323846 / 180.0);
  return (Eigen::AngleAxisd(rad.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(rad.y(), Vec3::UnitY()) *
          Eigen::AngleAxisd(rad.x(), Vec3::UnitX()))
      .toRotationMatrix();
}

void update_rotation(Shape& shape) {
  if (auto* box = std::get_if<BoxShape>(&shape)) box->rotation = rotation_from_degrees(box->rotation_deg);
  if (auto* e = std::get_if<EllipsoidShape>(&shape)) e->rotation = rotation_from_degrees(e->rotation_deg);
}

const char* shape_name(const Shape& shape) {
  static constexpr const char* kNames[] = {"plane", "sphere", "capsule", "cylinder",
                                           "box", "ellipsoid", "mesh"};
  return kNames[shape.index()];
}

}  // namespace cloth
