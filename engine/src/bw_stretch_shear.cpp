// Baraff-Witkin stretch and shear conditions (seed 001, sections 4.2-4.3) and their elements.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>

#include "cloth/bw_conditions.hpp"
#include "cloth/element_geometry.hpp"
#include "cloth/error.hpp"

namespace cloth {

namespace {

// Eq. 9 makes w_u and w_v linear in the three positions: w_u = sum_i alpha_i x_i and
// w_v = sum_i beta_i x_i, with the weights read off the inverse (u, v) matrix.
struct Weights {
  std::array<double, 3> alpha, beta;
};

Weights uv_weights(const StretchShearTriangle& t) {
  Weights w;
  w.alpha[1] = t.inv_det * t.dv2;
  w.alpha[2] = -t.inv_det * t.dv1;
  w.alpha[0] = -(w.alpha[1] + w.alpha[2]);
  w.beta[1] = -t.inv_det * t.du2;
  w.beta[2] = t.inv_det * t.du1;
  w.beta[0] = -(w.beta[1] + w.beta[2]);
  return w;
}

Vec3 combine(const std::array<double, 3>& c, const StretchShearTriangle& t, const std::vector<Vec3>& x) {
  return c[0] * x[t.v[0]] + c[1] * x[t.v[1]] + c[2] * x[t.v[2]];
}

// a (|w| - b) with w = sum_i c_i x_i: gradient a c_i w_hat, Hessian a c_i c_j (I - w_hat w_hat^T) / |w|.
void stretch_component(const std::array<double, 3>& c, const Vec3& w, double a, double b,
                       Condition<9, 2>& out, int m) {
  const double len = w.norm();
  out.value[m] = a * (len - b);
  out.grad.col(m).setZero();
  out.hess[m].setZero();
  // A triangle collapsed to zero extent along u (or v) has no stretch direction: the condition is
  // not differentiable there, and zero is the minimum-norm subgradient.
  if (len == 0) return;
  const Vec3 dir = w / len;
  const Eigen::Matrix3d proj = (Eigen::Matrix3d::Identity() - dir * dir.transpose()) / len;
  for (int i = 0; i < 3; ++i) {
    out.grad.col(m).segment<3>(3 * i) = a * c[i] * dir;
    for (int j = 0; j < 3; ++j) out.hess[m].block<3, 3>(3 * i, 3 * j) = a * c[i] * c[j] * proj;
  }
}

}  // namespace

std::array<Vec3, 2> stretch_vectors(const StretchShearTriangle& t, const std::vector<Vec3>& x) {
  const Weights w = uv_weights(t);
  return {combine(w.alpha, t, x), combine(w.beta, t, x)};
}

std::vector<StretchShearTriangle> build_stretch_shear(const RestMesh& mesh) {
  std::vector<StretchShearTriangle> out;
  out.reserve(mesh.triangles.size());
  for (size_t n = 0; n < mesh.triangles.size(); ++n) {
    StretchShearTriangle t;
    t.v = mesh.triangles[n];
    const Vec2 d1 = mesh.uv[t.v[1]] - mesh.uv[t.v[0]];
    const Vec2 d2 = mesh.uv[t.v[2]] - mesh.uv[t.v[0]];
    t.du1 = d1.x();
    t.dv1 = d1.y();
    t.du2 = d2.x();
    t.dv2 = d2.y();
    const double det = t.du1 * t.dv2 - t.du2 * t.dv1;
    // Relative to the triangle's own size, so that the test does not depend on the mesh's units.
    const double size2 = std::max(d1.squaredNorm(), d2.squaredNorm());
    if (!std::isfinite(det) || !(std::abs(det) > 1e-10 * size2)) {
      throw InputError("triangle " + std::to_string(n) + " is degenerate in rest (u, v)");
    }
    t.inv_det = 1.0 / det;
    t.area = 0.5 * std::abs(det);
    out.push_back(t);
  }
  return out;
}

Condition<9, 2> stretch_condition(const StretchShearTriangle& t, const std::vector<Vec3>& x,
                                  double b_u, double b_v) {
  const Weights w = uv_weights(t);
  Condition<9, 2> c;
  stretch_component(w.alpha, combine(w.alpha, t, x), t.area, b_u, c, 0);
  stretch_component(w.beta, combine(w.beta, t, x), t.area, b_v, c, 1);
  return c;
}

Condition<9, 1> shear_condition(const StretchShearTriangle& t, const std::vector<Vec3>& x) {
  const Weights w = uv_weights(t);
  const Vec3 wu = combine(w.alpha, t, x), wv = combine(w.beta, t, x);
  Condition<9, 1> c;
  c.value[0] = t.area * wu.dot(wv);
  // C is bilinear in (w_u, w_v): gradient a (alpha_i w_v + beta_i w_u), constant Hessian.
  for (int i = 0; i < 3; ++i) {
    c.grad.col(0).segment<3>(3 * i) = t.area * (w.alpha[i] * wv + w.beta[i] * wu);
    for (int j = 0; j < 3; ++j) {
      c.hess[0].block<3, 3>(3 * i, 3 * j) =
          t.area * (w.alpha[i] * w.beta[j] + w.beta[i] * w.alpha[j]) * Eigen::Matrix3d::Identity();
    }
  }
  return c;
}

// k / a and k_d / a turn the paper's a-scaled conditions into per-area moduli (header, SI notes).
ElementEval<9> eval_stretch(const StretchShearTriangle& t, const std::vector<Vec3>& x,
                            const std::vector<Vec3>& v, double k_stretch, double b_u, double b_v,
                            double k_damp) {
  assert(v.size() == x.size());
  return evaluate_condition(stretch_condition(t, x, b_u, b_v), k_stretch / t.area, k_damp / t.area,
                            gather<3>(t.v, v));
}

ElementEval<9> eval_shear(const StretchShearTriangle& t, const std::vector<Vec3>& x,
                          const std::vector<Vec3>& v, double k_shear, double k_damp) {
  assert(v.size() == x.size());
  return evaluate_condition(shear_condition(t, x), k_shear / t.area, k_damp / t.area, gather<3>(t.v, v));
}

}  // namespace cloth
