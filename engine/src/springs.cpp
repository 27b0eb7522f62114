// Hooke springs of seed 002 (sections 3-4).
#include <algorithm>
#include <map>
#include <utility>

#include "cloth/springs.hpp"

namespace cloth {

namespace {

Spring make_spring(const RestMesh& mesh, int i, int j, SpringType type) {
  Spring s;
  s.i = i;
  s.j = j;
  s.rest = (mesh.positions[i] - mesh.positions[j]).norm();
  s.type = type;
  return s;
}

// Seed 002 section 3: structural springs along grid lines (r), shear springs on both cell
// diagonals (r sqrt 2), bend springs spanning two cells (2r).
std::vector<Spring> grid_springs(const RestMesh& mesh) {
  const int nx = mesh.grid_nx, ny = mesh.grid_ny;
  std::vector<Spring> springs;
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      const int a = mesh.grid_index(i, j);
      if (i + 1 < nx) springs.push_back(make_spring(mesh, a, mesh.grid_index(i + 1, j), SpringType::Structural));
      if (j + 1 < ny) springs.push_back(make_spring(mesh, a, mesh.grid_index(i, j + 1), SpringType::Structural));
      if (i + 1 < nx && j + 1 < ny) {
        springs.push_back(make_spring(mesh, a, mesh.grid_index(i + 1, j + 1), SpringType::Shear));
        springs.push_back(make_spring(mesh, mesh.grid_index(i + 1, j), mesh.grid_index(i, j + 1), SpringType::Shear));
      }
      if (i + 2 < nx) springs.push_back(make_spring(mesh, a, mesh.grid_index(i + 2, j), SpringType::Bend));
      if (j + 2 < ny) springs.push_back(make_spring(mesh, a, mesh.grid_index(i, j + 2), SpringType::Bend));
    }
  }
  return springs;
}

// General triangle mesh: edges are structural; across each interior edge (shared by exactly two
// triangles) a bend spring joins the two opposite vertices.
std::vector<Spring> mesh_springs(const RestMesh& mesh) {
  std::map<std::pair<int, int>, std::vector<int>> opposite;  // edge -> vertices opposite it
  for (const auto& tri : mesh.triangles) {
    for (int k = 0; k < 3; ++k) {
      const int a = tri[k], b = tri[(k + 1) % 3], c = tri[(k + 2) % 3];
      opposite[{std::min(a, b), std::max(a, b)}].push_back(c);
    }
  }
  std::vector<Spring> springs;
  for (const auto& [edge, opp] : opposite) {
    const Spring structural = make_spring(mesh, edge.first, edge.second, SpringType::Structural);
    springs.push_back(structural);
    if (opp.size() != 2 || opp[0] == opp[1]) continue;
    // A mesh folded flat puts the opposite vertices at (nearly) one rest position: such a bend
    // spring has no rest direction and k = B / (rest / 2)^2 overflows, so it is left out.
    const Spring bend = make_spring(mesh, opp[0], opp[1], SpringType::Bend);
    if (bend.rest > 1e-6 * structural.rest) springs.push_back(bend);
  }
  return springs;
}

}  // namespace

std::vector<Spring> build_springs(const RestMesh& mesh) {
  return mesh.is_grid() ? grid_springs(mesh) : mesh_springs(mesh);
}

void apply_spring_material(std::vector<Spring>& springs, const SpringMaterial& material) {
  for (Spring& s : springs) {
    switch (s.type) {
      case SpringType::Structural: s.k = material.stretch; break;
      case SpringType::Shear: s.k = material.shear; break;
      case SpringType::Bend: {
        // Bend spring spans two cells: half its rest length is the lattice spacing h.
        const double h = 0.5 * s.rest;
        s.k = material.bending / (h * h);
        break;
      }
    }
    s.kd = material.damping;
  }
}

Vec3 spring_force_on_i(const Spring& s, const Vec3& xi, const Vec3& xj, const Vec3& vi,
                       const Vec3& vj) {
  const Vec3 d = xi - xj;
  const double len = d.norm();
  if (len < 1e-12) return Vec3::Zero();  // coincident ends: the direction is undefined
  const Vec3 dir = d / len;
  const double extension = len - s.rest;               // e = |P1P2| - r
  const double closing_speed = (vi - vj).dot(dir);     // rate of change of the length
  return -(s.k * extension + s.kd * closing_speed) * dir;
}

SpringJacobian spring_jacobian(const Spring& s, const Vec3& xi, const Vec3& xj,
                              bool clamp_compression) {
  const Vec3 d = xi - xj;
  const double len = d.norm();
  SpringJacobian jac;
  if (len < 1e-12) {
    // Coincident ends: no direction. Use the isotropic limit of the axial stiffness so the
    // implicit system stays well posed.
    jac.dfdx = -s.k * Eigen::Matrix3d::Identity();
    jac.dfdv = -s.kd / 3.0 * Eigen::Matrix3d::Identity();
    return jac;
  }
  const Vec3 dir = d / len;
  const Eigen::Matrix3d axial = dir * dir.transpose();
  double transverse = 1.0 - s.rest / len;
  if (clamp_compression) transverse = std::max(transverse, 0.0);
  jac.dfdx = -s.k * (axial + transverse * (Eigen::Matrix3d::Identity() - axial));
  jac.dfdv = -s.kd * axial;
  return jac;
}

double spring_energy(const Spring& s, const Vec3& xi, const Vec3& xj) {
  const double e = (xi - xj).norm() - s.rest;
  return 0.5 * s.k * e * e;
}

}  // namespace cloth
