// Edge-length and triangle-area conditions of the implicit cloth project (CS176 2011: Part I
// energy, Part II damping) and their
// element arrays. The derivatives are taken in the edge vectors and mapped to the vertices with a
// constant selector matrix S (x-space gradient S^T g, Hessian S^T H S).
#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "elements/edge_area_energy.hpp"
#include "geometry/element_geometry.hpp"
#include "core/error.hpp"

namespace cloth {

EdgeAreaElements build_edge_area_elements(const RestMesh& mesh) {
  const auto& p = mesh.positions;
  EdgeAreaElements out;
  std::map<std::pair<int, int>, double> edge_area;  // undirected edge -> a_e
  for (size_t n = 0; n < mesh.triangles.size(); ++n) {
    const auto& tri = mesh.triangles[n];
    const Vec3 e1 = p[tri[1]] - p[tri[0]], e2 = p[tri[2]] - p[tri[0]];
    const double area = 0.5 * e1.cross(e2).norm();
    // Relative to the triangle's size, so that the test does not depend on the mesh's units.
    const double size2 = std::max({e1.squaredNorm(), e2.squaredNorm(), (e2 - e1).squaredNorm()});
    if (!std::isfinite(area) || !std::isfinite(size2) || !(area > 1e-10 * size2)) {
      throw InputError("triangle " + std::to_string(n) + " is degenerate in the rest positions");
    }
    out.triangles.push_back({tri, area});
    for (int k = 0; k < 3; ++k) {
      const int a = tri[k], b = tri[(k + 1) % 3];
      edge_area[{std::min(a, b), std::max(a, b)}] += area / 3;
    }
  }
  for (const auto& [edge, area] : edge_area) {
    out.edges.push_back({{edge.first, edge.second}, (p[edge.first] - p[edge.second]).norm(), area});
  }
  return out;
}

// |e| with e = x0 - x1: gradient (e_hat, -e_hat), Hessian [[J, -J], [-J, J]], J = (I - e_hat e_hat^T) / |e|.
Condition<6, 1> edge_strain_condition(const EdgeLengthElement& e, const std::vector<Vec3>& x) {
  const Vec3 d = x[e.v[0]] - x[e.v[1]];
  Condition<6, 1> c;
  c.value[0] = (d.norm() - e.rest_length) / e.rest_length;
  c.grad.setZero();
  c.hess[0].setZero();
  if (d.squaredNorm() == 0) return c;
  const UnitDirection u(d);
  const double s = 1 / e.rest_length;
  c.grad.col(0) << s * u.dir, -s * u.dir;
  c.hess[0] = two_point_matrix(s * u.jac);
  return c;
}

// A = |N| / 2 with N = e1 x e2, e1 = x1 - x0, e2 = x2 - x0. In (e1, e2):
//   dN = J_N d(e1, e2),  J_N = [-[e2]x, [e1]x],
//   dA/de = 1/2 J_N^T n,  d2A/de2 = 1/2 (J_N^T (I - n n^T) / |N| J_N + d2(n . N)/de2 at fixed n),
// where n . N = e1 . (e2 x n) has the constant blocks d2/de1 de2 = -[n]x, d2/de2 de1 = [n]x.
Condition<9, 1> area_strain_condition(const TriangleAreaElement& t, const std::vector<Vec3>& x) {
  const Vec3 e1 = x[t.v[1]] - x[t.v[0]], e2 = x[t.v[2]] - x[t.v[0]];
  const Vec3 normal = e1.cross(e2);
  Condition<9, 1> c;
  c.value[0] = (0.5 * normal.norm() - t.rest_area) / t.rest_area;
  c.grad.setZero();
  c.hess[0].setZero();
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
  c.grad.col(0) = s * sel.transpose() * (jn.transpose() * n.dir);
  c.hess[0] = s * sel.transpose() * h * sel;
  return c;
}

// E = alpha a_e C^2 = k/2 C^2 with k = 2 alpha a_e; damping constant k_damp a_e (header, SI notes).
ElementEval<6> eval_edge_length(const EdgeLengthElement& e, const std::vector<Vec3>& x,
                                const std::vector<Vec3>& v, double alpha, double k_damp) {
  assert(v.size() == x.size());
  return evaluate_condition(edge_strain_condition(e, x), 2 * alpha * e.area, k_damp * e.area,
                            gather<2>(e.v, v));
}

ElementEval<9> eval_triangle_area(const TriangleAreaElement& t, const std::vector<Vec3>& x,
                                  const std::vector<Vec3>& v, double beta, double k_damp_area) {
  assert(v.size() == x.size());
  return evaluate_condition(area_strain_condition(t, x), 2 * beta * t.rest_area,
                            k_damp_area * t.rest_area, gather<3>(t.v, v));
}

}  // namespace cloth
