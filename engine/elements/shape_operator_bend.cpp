// Shape-operator bend element (shape_operator_bend.hpp): the hinge angles of a triangle's three
// edges (bend_condition, Baraff & Witkin 1998, sec. 4.3) coupled through the triangle's discrete
// shape operator.
#include "elements/shape_operator_bend.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "geometry/element_geometry.hpp"

namespace cloth {

namespace {

// Element slots of hinge i's four vertices (v[i], v[i+1], v[i+2], v[3+i]).
constexpr int kLocal[3][4] = {{0, 1, 2, 3}, {1, 2, 0, 4}, {2, 0, 1, 5}};

// The hinge angles theta, their Jacobian J (3 x 18) and dE/dtheta + damping, g = K (B theta +
// k_d theta_dot): what the force and every stiffness start from.
struct HingeAngles {
  Eigen::Vector3d theta = Eigen::Vector3d::Zero();
  Eigen::Matrix<double, 3, 18> jac = Eigen::Matrix<double, 3, 18>::Zero();
  Eigen::Vector3d effective, g;
};

HingeAngles hinge_angles(const ShapeOperatorTriangle& t, const std::vector<Vec3>& x,
                         const std::vector<Vec3>& v, double bending, double damping) {
  assert(v.size() == x.size());
  HingeAngles h;
  for (int i = 0; i < 3; ++i) {
    if (!t.interior(i)) continue;
    const Condition<12, 1> c = bend_condition(t.hinges[size_t(i)], x, /*hessian=*/false);
    h.theta[i] = c.value[0];
    for (int a = 0; a < 4; ++a) h.jac.block<1, 3>(i, 3 * kLocal[i][a]) = c.grad.col(0).segment<3>(3 * a).transpose();
  }
  const Eigen::Vector3d theta_dot = h.jac * gather<6>(t.v, v);
  h.effective = bending * h.theta + damping * theta_dot;  // N*m per hinge
  h.g = t.stiffness * h.effective;
  return h;
}

ElementEval<18> evaluate(const ShapeOperatorTriangle& t, const std::vector<Vec3>& x,
                         const std::vector<Vec3>& v, double bending, double damping, bool definite) {
  const auto [theta, jac, effective, g] = hinge_angles(t, x, v, bending, damping);
  ElementEval<18> out;
  out.energy = 0.5 * bending * theta.dot(t.stiffness * theta);
  out.force = -jac.transpose() * g;
  Eigen::Matrix<double, 18, 18> jkj = jac.transpose() * t.stiffness * jac;
  jkj = 0.5 * (jkj + jkj.transpose());  // bit-symmetric: A stores one block of each pair
  out.dfdv = -damping * jkj;
  out.dfdx = -bending * jkj;
  // The curvature term -sum_i g_i d2theta_i/dx2, hinge by hinge. Definite: Gauss-Newton -B J^T K J
  // (negative semidefinite by construction) plus each hinge's term projected on its own, 12 x 12
  // (a 9 x 9 eigensolve), and only where that hinge's effective angle exceeds
  // kBendGaussNewtonAngle (the reasons of eval_bend_definite). A sum of negative semidefinite
  // parts is one, and each projection only stiffens, so definite - exact is negative semidefinite
  // (ShapeOperatorBend.DefiniteStiffnessIsGaussNewtonPlusEachLargeHingeProjected). Projecting the
  // whole 18 x 18 instead cost a 15 x 15 eigensolve per triangle with any large hinge: half the
  // implicit step's time on the default scene.
  for (int i = 0; i < 3; ++i) {
    if (!t.interior(i) || g[i] == 0) continue;
    if (definite && std::abs(effective[i]) <= kBendGaussNewtonAngle * bending) continue;
    const Condition<12, 1> c = bend_condition(t.hinges[size_t(i)], x, /*hessian=*/true);
    Eigen::Matrix<double, 12, 12> curvature = -g[i] * c.hess[0];
    curvature = 0.5 * (curvature + curvature.transpose()).eval();
    if (definite) curvature = definite_stiffness<12>(curvature);
    for (int a = 0; a < 4; ++a) {
      for (int b = 0; b < 4; ++b) {
        out.dfdx.block<3, 3>(3 * kLocal[i][a], 3 * kLocal[i][b]) += curvature.block<3, 3>(3 * a, 3 * b);
      }
    }
  }
  out.dfdx = 0.5 * (out.dfdx + out.dfdx.transpose()).eval();
  return out;
}

}  // namespace

std::vector<ShapeOperatorTriangle> build_shape_operator_bend(const RestMesh& mesh, double k_u, double k_v) {
  // The interior edges' hinges give the vertex across each edge and B&W's sec. 4.3 weight.
  const std::vector<BendEdge> hinges = build_bend_edges(mesh, k_u, k_v);
  std::map<std::pair<int, int>, size_t> by_edge;
  for (size_t h = 0; h < hinges.size(); ++h) {
    by_edge[{std::min(hinges[h].v[0], hinges[h].v[1]), std::max(hinges[h].v[0], hinges[h].v[1])}] = h;
  }
  std::vector<ShapeOperatorTriangle> out;
  out.reserve(mesh.triangles.size());
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
    const auto& tri = mesh.triangles[size_t(t)];
    const double area = rest_area(mesh, t);
    if (!(area > 0)) throw InputError("triangle " + std::to_string(t) + " is degenerate in rest (u, v)");
    ShapeOperatorTriangle e;
    e.v = {tri[0], tri[1], tri[2], tri[2], tri[0], tri[1]};
    std::array<Vec2, 3> normal;
    Eigen::Vector3d c = Eigen::Vector3d::Zero(), w = Eigen::Vector3d::Zero();
    for (int i = 0; i < 3; ++i) {
      const int p = tri[size_t(i)], q = tri[size_t((i + 1) % 3)], o = tri[size_t((i + 2) % 3)];
      const Vec2 d = mesh.uv[size_t(q)] - mesh.uv[size_t(p)];
      normal[size_t(i)] = Vec2(-d.y(), d.x()).normalized();
      c[i] = d.norm() / (2 * area);
      const auto found = by_edge.find({std::min(p, q), std::max(p, q)});
      if (found == by_edge.end()) continue;  // boundary or non-manifold edge: theta_i = 0
      const BendEdge& h = hinges[found->second];
      const int flap = h.v[2] == o ? h.v[3] : h.v[2];
      e.v[size_t(3 + i)] = flap;
      // The shared hinge seen from this triangle: reversing its edge and exchanging its opposite
      // vertices keeps the angle (bw_conditions.hpp); doing only one of the two negates it.
      e.shared[size_t(i)] = int(found->second);
      e.shared_sign[size_t(i)] = (h.v[0] == p) == (h.v[2] == o) ? 1.0 : -1.0;
      w[i] = h.weight;
      BendEdge& local = e.hinges[size_t(i)];
      local.v = {p, q, o, flap};
      local.rest_angle = bend_condition(local, mesh.positions, /*hessian=*/false).value[0];
    }
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        const double nn = normal[size_t(i)].dot(normal[size_t(j)]);
        e.stiffness(i, j) = area * c[i] * c[j] * nn * nn * std::sqrt(w[i] * w[j]);
      }
    }
    out.push_back(e);
  }
  return out;
}

ElementForce<18> shape_operator_bend_force(const ShapeOperatorTriangle& t, const std::vector<Vec3>& x,
                                           const std::vector<Vec3>& v, double bending, double damping) {
  const HingeAngles h = hinge_angles(t, x, v, bending, damping);
  return {0.5 * bending * h.theta.dot(t.stiffness * h.theta), -h.jac.transpose() * h.g};
}

void update_hinge(const std::vector<BendEdge>& hinges, size_t h, const std::vector<Vec3>& x,
                  const std::vector<Vec3>& v, double bending, double damping, ShapeOperatorScratch& scratch) {
  scratch.angle[h] = bend_angle(hinges[h], x);
  const double theta_dot = scratch.angle[h].grad.dot(gather<4>(hinges[h].v, v));
  scratch.effective[h] = bending * scratch.angle[h].value + damping * theta_dot;
}

void update_hinges(const std::vector<BendEdge>& hinges, const std::vector<Vec3>& x, const std::vector<Vec3>& v,
                   double bending, double damping, ShapeOperatorScratch& scratch) {
  scratch.angle.resize(hinges.size());
  scratch.effective.resize(hinges.size());
  for (size_t h = 0; h < hinges.size(); ++h) update_hinge(hinges, h, x, v, bending, damping, scratch);
}

double add_shape_operator_bend_forces(const std::vector<ShapeOperatorTriangle>& triangles,
                                      const std::vector<BendEdge>& hinges, const std::vector<Vec3>& x,
                                      const std::vector<Vec3>& v, double bending, double damping,
                                      ShapeOperatorScratch& scratch, std::vector<Vec3>& f) {
  const size_t n = hinges.size();
  update_hinges(hinges, x, v, bending, damping, scratch);
  scratch.sum.assign(n, 0.0);
  // Per triangle, as hinge_angles: theta_i and the effective angles from the shared hinges, then
  // g = K eff sent back to them. The force is -sum_i g_i dtheta_i/dx = -sum_h sum(h) grad_h.
  double energy = 0;
  for (const ShapeOperatorTriangle& t : triangles) {
    Eigen::Vector3d theta = Eigen::Vector3d::Zero(), effective = Eigen::Vector3d::Zero();
    for (int i = 0; i < 3; ++i) {
      if (!t.interior(i)) continue;
      const size_t h = size_t(t.shared[size_t(i)]);
      theta[i] = t.shared_sign[size_t(i)] * scratch.angle[h].value;
      effective[i] = t.shared_sign[size_t(i)] * scratch.effective[h];
    }
    energy += 0.5 * bending * theta.dot(t.stiffness * theta);
    const Eigen::Vector3d g = t.stiffness * effective;
    for (int i = 0; i < 3; ++i) {
      if (t.interior(i)) scratch.sum[size_t(t.shared[size_t(i)])] += t.shared_sign[size_t(i)] * g[i];
    }
  }
  for (size_t h = 0; h < n; ++h) {
    for (int a = 0; a < 4; ++a) f[size_t(hinges[h].v[size_t(a)])] -= scratch.sum[h] * scratch.angle[h].grad.segment<3>(3 * a);
  }
  return energy;
}

double shape_operator_bend_rate(const std::vector<ShapeOperatorTriangle>& triangles,
                                const std::vector<Vec3>& rest_positions, const std::vector<double>& mass) {
  std::vector<double> vertex_sum(mass.size(), 0.0);
  const std::vector<Vec3> still(rest_positions.size(), Vec3::Zero());
  for (const ShapeOperatorTriangle& t : triangles) {
    // At rest every angle is its rest angle, so H_t = J^T K J exactly (B = 1), and the nonzero
    // eigenvalues of M_t^-1/2 J^T K J M_t^-1/2 are those of the 3 x 3 K^1/2 (J M_t^-1 J^T) K^1/2.
    const Eigen::Matrix<double, 3, 18> jac = hinge_angles(t, rest_positions, still, 1.0, 0.0).jac;
    // A boundary edge repeats a vertex in the stencil: fold its columns onto distinct vertices.
    std::array<int, 6> distinct{};
    Eigen::Matrix<double, 3, 18> folded = Eigen::Matrix<double, 3, 18>::Zero();
    int count = 0;
    for (int a = 0; a < 6; ++a) {
      const int slot = static_cast<int>(std::find(distinct.begin(), distinct.begin() + count, t.v[size_t(a)]) - distinct.begin());
      if (slot == count) distinct[size_t(count++)] = t.v[size_t(a)];
      folded.block<3, 3>(0, 3 * slot) += jac.block<3, 3>(0, 3 * a);
    }
    Eigen::Matrix3d g = Eigen::Matrix3d::Zero();  // J M_t^-1 J^T
    for (int a = 0; a < count; ++a) {
      g += folded.block<3, 3>(0, 3 * a) * folded.block<3, 3>(0, 3 * a).transpose() / mass[size_t(distinct[size_t(a)])];
    }
    // K is semidefinite (a boundary edge gives it a zero row): clamp round-off below zero.
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> k_eigen(t.stiffness);
    const Eigen::Matrix3d k_root = k_eigen.eigenvectors() * k_eigen.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal() *
                                   k_eigen.eigenvectors().transpose();
    const Eigen::Matrix3d scaled = k_root * g * k_root;
    const double lambda = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(scaled, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
    for (int a = 0; a < count; ++a) vertex_sum[size_t(distinct[size_t(a)])] += std::max(lambda, 0.0);
  }
  return vertex_sum.empty() ? 0.0 : *std::max_element(vertex_sum.begin(), vertex_sum.end());
}

ShapeOperatorVertexShare shape_operator_bend_vertex(const ShapeOperatorTriangle& t, int vertex,
                                                    const std::vector<BendEdge>& hinges,
                                                    const ShapeOperatorScratch& cache, const std::vector<Vec3>& x,
                                                    double bending, double damping) {
  // As add_shape_operator_bend_forces' per-triangle pass, with J_v (row i: dtheta_i/dx at the
  // vertex, summed over the hinge's slots that hold it) in place of the 3 x 18 Jacobian.
  Eigen::Vector3d effective = Eigen::Vector3d::Zero();
  Eigen::Matrix3d jac = Eigen::Matrix3d::Zero();
  std::array<bool, 3> holds{};
  for (int i = 0; i < 3; ++i) {
    if (!t.interior(i)) continue;
    const size_t h = size_t(t.shared[size_t(i)]);
    const double sign = t.shared_sign[size_t(i)];
    effective[i] = sign * cache.effective[h];
    for (int a = 0; a < 4; ++a) {
      if (hinges[h].v[size_t(a)] != vertex) continue;
      holds[size_t(i)] = true;
      jac.row(i) += sign * cache.angle[h].grad.segment<3>(3 * a).transpose();
    }
  }
  const Eigen::Vector3d g = t.stiffness * effective;
  ShapeOperatorVertexShare out;
  out.force = -jac.transpose() * g;
  Eigen::Matrix3d jkj = jac.transpose() * t.stiffness * jac;
  jkj = 0.5 * (jkj + jkj.transpose()).eval();
  out.stiffness = bending * jkj;
  out.damping = damping * jkj;
  for (int i = 0; i < 3; ++i) {
    if (!holds[size_t(i)] || g[i] == 0 || std::abs(effective[i]) <= kBendGaussNewtonAngle * bending) continue;
    // A shared hinge is interior: its four vertices are distinct, the vertex in one slot.
    const BendEdge& hinge = hinges[size_t(t.shared[size_t(i)])];
    assert(std::count(hinge.v.begin(), hinge.v.end(), vertex) == 1);
    const int slot = static_cast<int>(std::find(hinge.v.begin(), hinge.v.end(), vertex) - hinge.v.begin());
    Eigen::Matrix3d curvature = bend_hessian_block(hinge, x, slot);
    // theta_i = sign * the shared hinge's angle: its Hessian carries the sign too.
    curvature = (t.shared_sign[size_t(i)] * g[i] * 0.5) * (curvature + curvature.transpose()).eval();
    out.stiffness += project_psd<3>(curvature);
  }
  return out;
}

ElementEval<18> eval_shape_operator_bend(const ShapeOperatorTriangle& t, const std::vector<Vec3>& x,
                                         const std::vector<Vec3>& v, double bending, double damping) {
  return evaluate(t, x, v, bending, damping, /*definite=*/false);
}

ElementEval<18> eval_shape_operator_bend_definite(const ShapeOperatorTriangle& t,
                                                  const std::vector<Vec3>& x,
                                                  const std::vector<Vec3>& v, double bending,
                                                  double damping) {
  return evaluate(t, x, v, bending, damping, /*definite=*/true);
}

}  // namespace cloth
