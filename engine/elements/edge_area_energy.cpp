// Edge-strain + triangle-area membrane of the implicit cloth project (CS176 2011: Part I energy,
// Part II damping) with per-triangle moduli forms (edge_area_energy.hpp). The derivatives are
// taken in the edge vectors and mapped to the vertices with constant selector matrices.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>

#include "elements/edge_area_energy.hpp"
#include "geometry/element_geometry.hpp"
#include "core/error.hpp"

namespace cloth {
namespace {

// Unit vector along the mesh's u direction in the rest triangle's plane (normal n): the rest
// deformation gradient's w_u of B&W eq. 9 from the (u, v) map, projected into the plane; the first
// edge where the map is missing or degenerate.
Vec3 material_u_direction(const RestMesh& mesh, const std::array<int, 3>& tri, const Vec3& n) {
  const Vec3 e1 = mesh.positions[tri[1]] - mesh.positions[tri[0]];
  const Vec3 e2 = mesh.positions[tri[2]] - mesh.positions[tri[0]];
  if (mesh.uv.size() == mesh.positions.size()) {
    const Vec2 d1 = mesh.uv[tri[1]] - mesh.uv[tri[0]], d2 = mesh.uv[tri[2]] - mesh.uv[tri[0]];
    const double det = d1.x() * d2.y() - d2.x() * d1.y();
    if (std::abs(det) > 1e-12 * std::max(d1.squaredNorm(), d2.squaredNorm())) {
      const Vec3 w_u = (e1 * d2.y() - e2 * d1.y()) / det;
      const Vec3 in_plane = w_u - n * n.dot(w_u);
      if (in_plane.norm() > 1e-6 * w_u.norm()) return in_plane.normalized();
    }
  }
  return e1.normalized();
}

}  // namespace

std::vector<EdgeAreaTriangle> build_edge_area_elements(const RestMesh& mesh) {
  const auto& p = mesh.positions;
  std::vector<EdgeAreaTriangle> out;
  out.reserve(mesh.triangles.size());
  for (size_t n = 0; n < mesh.triangles.size(); ++n) {
    const auto& tri = mesh.triangles[n];
    const Vec3 e1 = p[tri[1]] - p[tri[0]], e2 = p[tri[2]] - p[tri[0]];
    const Vec3 normal = e1.cross(e2);
    const double area = 0.5 * normal.norm();
    // Relative to the triangle's size, so that the test does not depend on the mesh's units.
    const double size2 = std::max({e1.squaredNorm(), e2.squaredNorm(), (e2 - e1).squaredNorm()});
    if (!std::isfinite(area) || !std::isfinite(size2) || !(area > 1e-10 * size2)) {
      throw InputError("triangle " + std::to_string(n) + " is degenerate in the rest positions");
    }
    EdgeAreaTriangle t;
    t.v = tri;
    t.rest_area = area;
    const Vec3 unit_normal = normal.normalized();
    const Vec3 axis_u = material_u_direction(mesh, tri, unit_normal);
    const Vec3 axis_v = unit_normal.cross(axis_u);
    // Row k maps the strain (eps_uu, eps_vv, eps_uv) to edge k's strain d^T eps d.
    Eigen::Matrix3d edge_of_strain;
    for (int k = 0; k < 3; ++k) {
      const Vec3 e = p[tri[(k + 1) % 3]] - p[tri[k]];
      t.rest_length[size_t(k)] = e.norm();
      const double du = e.dot(axis_u) / e.norm(), dv = e.dot(axis_v) / e.norm();
      edge_of_strain.row(k) << du * du, dv * dv, 2 * du * dv;
    }
    const Eigen::Matrix3d strain_of_edges = edge_of_strain.inverse();
    t.axial_form = area * strain_of_edges.transpose() * Eigen::Vector3d(1, 1, 0).asDiagonal() * strain_of_edges;
    t.shear_form = area * strain_of_edges.transpose() * Eigen::Vector3d(0, 0, 4).asDiagonal() * strain_of_edges;
    out.push_back(t);
  }
  return out;
}

double edge_term_axial_modulus(double young, double beta) {
  const double c = 0.5 * (young + std::sqrt(young * young + 16 * beta * beta));
  return c - 2 * beta;
}

// Edge k: |e| with e = x_{k+1} - x_k has gradient (-e_hat, e_hat) and Hessian
// [[J, -J], [-J, J]], J = (I - e_hat e_hat^T) / |e|.
// Area: A = |N| / 2 with N = e1 x e2, e1 = x1 - x0, e2 = x2 - x0. In (e1, e2):
//   dN = J_N d(e1, e2),  J_N = [-[e2]x, [e1]x],
//   dA/de = 1/2 J_N^T n,  d2A/de2 = 1/2 (J_N^T (I - n n^T) / |N| J_N + d2(n . N)/de2 at fixed n),
// where n . N = e1 . (e2 x n) has the constant blocks d2/de1 de2 = -[n]x, d2/de2 de1 = [n]x.
Condition<9, 4> edge_area_conditions(const EdgeAreaTriangle& t, const std::vector<Vec3>& x) {
  Condition<9, 4> c;
  c.grad.setZero();
  for (auto& h : c.hess) h.setZero();
  for (int k = 0; k < 3; ++k) {
    const int a = k, b = (k + 1) % 3;
    const double rest = t.rest_length[size_t(k)];
    const Vec3 d = x[t.v[b]] - x[t.v[a]];
    c.value[k] = d.norm() / rest - 1;
    if (d.squaredNorm() == 0) continue;
    const UnitDirection u(d);
    c.grad.block<3, 1>(3 * b, k) = u.dir / rest;
    c.grad.block<3, 1>(3 * a, k) = -u.dir / rest;
    const Eigen::Matrix3d j = u.jac / rest;
    c.hess[k].block<3, 3>(3 * a, 3 * a) = j;
    c.hess[k].block<3, 3>(3 * b, 3 * b) = j;
    c.hess[k].block<3, 3>(3 * a, 3 * b) = -j;
    c.hess[k].block<3, 3>(3 * b, 3 * a) = -j;
  }
  const Vec3 e1 = x[t.v[1]] - x[t.v[0]], e2 = x[t.v[2]] - x[t.v[0]];
  const Vec3 normal = e1.cross(e2);
  c.value[3] = (0.5 * normal.norm() - t.rest_area) / t.rest_area;
  if (normal.squaredNorm() == 0) return c;
  const UnitDirection n(normal);
  Eigen::Matrix<double, 3, 6> jn;
  jn << -cross_matrix(e2), cross_matrix(e1);
  Eigen::Matrix<double, 6, 6> h = jn.transpose() * n.jac * jn;
  h.block<3, 3>(0, 3) -= cross_matrix(n.dir);
  h.block<3, 3>(3, 0) += cross_matrix(n.dir);
  // (e1, e2) = S (x0, x1, x2).
  Eigen::Matrix<double, 6, 9> sel;
  const Eigen::Matrix3d id = Eigen::Matrix3d::Identity();
  sel << -id, id, Eigen::Matrix3d::Zero(), -id, Eigen::Matrix3d::Zero(), id;
  const double s = 0.5 / t.rest_area;
  c.grad.col(3) = s * sel.transpose() * (jn.transpose() * n.dir);
  c.hess[3] = s * sel.transpose() * h * sel;
  return c;
}

ElementEval<9> eval_edge_area(const EdgeAreaTriangle& t, const std::vector<Vec3>& x,
                              const std::vector<Vec3>& v, double young, double shear, double beta,
                              double k_damp) {
  assert(v.size() == x.size());
  Eigen::Matrix4d k = Eigen::Matrix4d::Zero(), k_d = Eigen::Matrix4d::Zero();
  k.topLeftCorner<3, 3>() = edge_term_axial_modulus(young, beta) * t.axial_form + shear * t.shear_form;
  k(3, 3) = 2 * beta * t.rest_area;
  k_d.topLeftCorner<3, 3>() = k_damp * (t.axial_form + t.shear_form);
  k_d(3, 3) = k_damp * t.rest_area;
  return evaluate_condition(edge_area_conditions(t, x), k, k_d, gather<3>(t.v, v));
}

}  // namespace cloth
