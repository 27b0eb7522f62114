#include "render/collider_meshes.hpp"

#include <cmath>
#include <glm/gtc/constants.hpp>

#include "collision/mesh_collider.hpp"

namespace app {
namespace {

constexpr int kSlices = 48;
constexpr int kStacks = 24;

glm::vec3 to_glm(const cloth::Vec3& v) { return glm::vec3(float(v.x()), float(v.y()), float(v.z())); }

/// Rows of `kSlices + 1` vertices stitched into quads, counter-clockwise seen from outside when
/// the rows run from the shape's +axis end to its -axis end.
void stitch_rows(SimpleMesh& m, std::uint32_t first, int rows) {
  const auto idx = [first](int i, int j) { return first + std::uint32_t(j * (kSlices + 1) + i); };
  for (int j = 0; j + 1 < rows; ++j) {
    for (int i = 0; i < kSlices; ++i) {
      m.indices.insert(m.indices.end(), {idx(i, j), idx(i + 1, j), idx(i + 1, j + 1)});
      m.indices.insert(m.indices.end(), {idx(i, j), idx(i + 1, j + 1), idx(i, j + 1)});
    }
  }
}

/// An orthonormal frame whose second column is `axis` (the uv sphere's "up").
cloth::Vec3 any_perpendicular(const cloth::Vec3& a) {
  const cloth::Vec3 helper = std::abs(a.x()) < 0.9 ? cloth::Vec3::UnitX() : cloth::Vec3::UnitY();
  return a.cross(helper).normalized();
}
Eigen::Matrix3d frame_with_up(const cloth::Vec3& axis) {
  Eigen::Matrix3d f;
  const cloth::Vec3 x = any_perpendicular(axis);
  f.col(0) = x;
  f.col(1) = axis;
  f.col(2) = x.cross(axis);
  return f;
}

/// A unit-sphere direction for ring j of `stacks` (from +y) and slice i.
cloth::Vec3 sphere_dir(double theta, int i) {
  const double phi = 2 * glm::pi<double>() * i / kSlices;
  return {std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi)};
}

SimpleMesh ellipsoid(const cloth::Vec3& c, const cloth::Vec3& r, const Eigen::Matrix3d& R) {
  SimpleMesh m;
  for (int j = 0; j <= kStacks; ++j) {
    for (int i = 0; i <= kSlices; ++i) {
      const cloth::Vec3 u = sphere_dir(glm::pi<double>() * j / kStacks, i);
      m.positions.push_back(to_glm(c + R * r.cwiseProduct(u)));
      m.normals.push_back(to_glm((R * u.cwiseQuotient(r)).normalized()));
    }
  }
  stitch_rows(m, 0, kStacks + 1);
  return m;
}

SimpleMesh capsule(const cloth::Vec3& a, const cloth::Vec3& b, double radius) {
  SimpleMesh m;
  const cloth::Vec3 d = b - a;
  const Eigen::Matrix3d F = frame_with_up(d.norm() > 1e-9 ? cloth::Vec3(d.normalized()) : cloth::Vec3::UnitY());
  // Upper hemisphere around b (rows 0..kStacks/2), lower around a: the two equator rows make
  // the cylindrical band between them.
  for (int j = 0; j <= kStacks + 1; ++j) {
    const bool upper = j <= kStacks / 2;
    const double theta = glm::pi<double>() * (upper ? j : j - 1) / kStacks;
    for (int i = 0; i <= kSlices; ++i) {
      const cloth::Vec3 n = F * sphere_dir(theta, i);
      m.positions.push_back(to_glm((upper ? b : a) + radius * n));
      m.normals.push_back(to_glm(n));
    }
  }
  stitch_rows(m, 0, kStacks + 2);
  return m;
}

SimpleMesh cylinder(const cloth::Vec3& a, const cloth::Vec3& b, double radius) {
  SimpleMesh m;
  const cloth::Vec3 axis = (b - a).normalized();
  const Eigen::Matrix3d F = frame_with_up(axis);
  const double half_pi = 0.5 * glm::pi<double>();
  // Side: two rings with radial normals.
  for (const cloth::Vec3& end : {b, a}) {
    for (int i = 0; i <= kSlices; ++i) {
      const cloth::Vec3 n = F * sphere_dir(half_pi, i);
      m.positions.push_back(to_glm(end + radius * n));
      m.normals.push_back(to_glm(n));
    }
  }
  stitch_rows(m, 0, 2);
  // Caps: a centre row and a rim row each, with the axial normal.
  for (int cap = 0; cap < 2; ++cap) {
    const cloth::Vec3 end = cap == 0 ? b : a;
    const cloth::Vec3 n = cap == 0 ? axis : cloth::Vec3(-axis);
    const auto first = std::uint32_t(m.positions.size());
    for (int row = 0; row < 2; ++row) {
      for (int i = 0; i <= kSlices; ++i) {
        const double r = (row == 0) == (cap == 0) ? 0.0 : radius;
        m.positions.push_back(to_glm(end + r * (F * sphere_dir(half_pi, i))));
        m.normals.push_back(to_glm(n));
      }
    }
    stitch_rows(m, first, 2);
  }
  return m;
}

/// Flat-shaded triangles: every triangle gets its own three vertices with the face normal.
SimpleMesh flat_triangles(const std::vector<cloth::Vec3>& p, const std::vector<std::array<int, 3>>& tris) {
  SimpleMesh m;
  for (const auto& t : tris) {
    const glm::vec3 n = to_glm((p[t[1]] - p[t[0]]).cross(p[t[2]] - p[t[0]]).normalized());
    for (int k = 0; k < 3; ++k) {
      m.indices.push_back(std::uint32_t(m.positions.size()));
      m.positions.push_back(to_glm(p[t[k]]));
      m.normals.push_back(n);
    }
  }
  return m;
}

SimpleMesh box(const cloth::BoxShape& s) {
  std::vector<cloth::Vec3> p;
  for (int k = 0; k < 8; ++k) {
    const cloth::Vec3 local(k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1);
    p.push_back(s.center + s.rotation * local.cwiseProduct(s.half_extents));
  }
  const std::vector<std::array<int, 3>> t = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6},
                                             {0, 1, 4}, {1, 5, 4}, {2, 6, 3}, {3, 6, 7},
                                             {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  return flat_triangles(p, t);
}

}  // namespace

std::optional<SimpleMesh> collider_mesh(const cloth::Shape& shape) {
  using namespace cloth;
  if (std::holds_alternative<PlaneShape>(shape)) return std::nullopt;
  if (const auto* s = std::get_if<SphereShape>(&shape))
    return ellipsoid(s->center, Vec3::Constant(s->radius), Eigen::Matrix3d::Identity());
  if (const auto* s = std::get_if<EllipsoidShape>(&shape)) return ellipsoid(s->center, s->radii, s->rotation);
  if (const auto* s = std::get_if<CapsuleShape>(&shape)) return capsule(s->a, s->b, s->radius);
  if (const auto* s = std::get_if<CylinderShape>(&shape)) return cylinder(s->a, s->b, s->radius);
  if (const auto* s = std::get_if<BoxShape>(&shape)) return box(*s);
  const auto& mesh = std::get<MeshShape>(shape);
  std::vector<Vec3> moved = mesh.mesh->positions();
  for (Vec3& p : moved) p += mesh.offset;
  return flat_triangles(moved, mesh.mesh->triangles());
}

}  // namespace app
