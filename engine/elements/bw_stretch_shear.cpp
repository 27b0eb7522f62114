// Baraff-Witkin stretch and shear conditions (Baraff & Witkin 1998, sections 4.2-4.3) and their
// elements.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>

#include "elements/bw_conditions.hpp"
#include "geometry/element_geometry.hpp"
#include "core/error.hpp"

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

// The stretch stiffness K = -dfdx = sum_m (c_m c_m^T) (x) D_m over the two conditions (eqs. 8 and
// 12 with stretch_component's derivatives): c_u = alpha, c_v = beta (uv_weights) and
// D_m = k a^2 w_hat w_hat^T + sigma_m (I - w_hat w_hat^T), sigma_m = (k C_m + k_d C_dot_m) a / |w_m|.
// With an orthonormal basis (u1, u2) of span(alpha, beta) (c_m = r_m1 u1 + r_m2 u2) and one
// (e1, e2, n) of space with e1, e2 spanning w_u and w_v, n is an eigenvector of both D_m
// (eigenvalue sigma_m), so K splits into a 2 x 2 part along n and a 4 x 4 part in the (e1, e2)
// plane, and its projection onto the PSD cone is theirs: the translations are K's null space, and
// (u1, u2) (x) (e1, e2, n) the rest. By congruence each part has as many negative eigenvalues as
// sigma_u and sigma_v have negative signs, so a triangle with both >= 0 (stretched) is PSD as it
// is. Same matrix as definite_stiffness<9> up to round-off (tested:
// BWStretch.StructuredDefiniteStiffnessIsTheProjection), without its 6 x 6 eigensolve.
ElementEval<9> eval_stretch_definite(const StretchShearTriangle& t, const std::vector<Vec3>& x,
                                     const std::vector<Vec3>& v, double k_stretch, double b_u, double b_v,
                                     double k_damp) {
  assert(v.size() == x.size());
  const double k = k_stretch / t.area, k_d = k_damp / t.area;
  const Eigen::Matrix<double, 9, 1> vel = gather<3>(t.v, v);
  const Condition<9, 2> c = stretch_condition(t, x, b_u, b_v);
  ElementEval<9> out = evaluate_condition(c, k, k_d, vel);
  const Weights w = uv_weights(t);
  const std::array<Vec3, 2> wm = {combine(w.alpha, t, x), combine(w.beta, t, x)};
  std::array<double, 2> sigma{}, kappa{};
  std::array<bool, 2> has_length{};
  std::array<Vec3, 2> w_hat = {Vec3::Zero(), Vec3::Zero()};
  for (int m = 0; m < 2; ++m) {
    const double len = wm[m].norm();
    if (len == 0) continue;  // stretch_component's zero subgradient: D_m = 0
    has_length[m] = true;
    w_hat[m] = wm[m] / len;
    kappa[m] = k * t.area * t.area;
    sigma[m] = (k * c.value[m] + k_d * c.grad.col(m).dot(vel)) * t.area / len;
  }
  if (sigma[0] >= 0 && sigma[1] >= 0) return out;
  // Orthonormal bases by Gram-Schmidt, each second vector orthogonalised twice so that it stays
  // orthogonal to round-off however close the two vectors are: alpha, beta (independent on a
  // non-degenerate triangle) for the vertices; for space e1 along a w with a length and e2 along
  // the other's part across it (any direction across e1 when there is none).
  const auto second_vector = [](const Vec3& first, const Vec3& candidate) {
    Vec3 across = candidate - candidate.dot(first) * first;
    if (across.squaredNorm() == 0) return Vec3(first.unitOrthogonal());
    across.normalize();
    across -= across.dot(first) * first;
    return Vec3(across.normalized());
  };
  const Vec3 alpha(w.alpha[0], w.alpha[1], w.alpha[2]), beta(w.beta[0], w.beta[1], w.beta[2]);
  const Vec3 u1 = alpha.normalized(), u2 = second_vector(u1, beta);
  const std::array<Eigen::Vector2d, 2> r = {Eigen::Vector2d(alpha.dot(u1), alpha.dot(u2)),
                                            Eigen::Vector2d(beta.dot(u1), beta.dot(u2))};
  const Vec3 e1 = has_length[0] ? w_hat[0] : w_hat[1];
  const Vec3 e2 = second_vector(e1, has_length[0] && has_length[1] ? w_hat[1] : Vec3::Zero());
  const Vec3 n = e1.cross(e2);
  // dfdx = -K, so taking the negative part out of K adds it to dfdx (lambda < 0). The outer
  // product formed before scaling keeps entry (i, j) bit for bit entry (j, i) (A stores one of
  // each pair of blocks; jacobian_target.hpp).
  const auto add_back = [&](double lambda, const Eigen::Matrix<double, 9, 1>& direction) {
    const Eigen::Matrix<double, 9, 9> outer = direction.lazyProduct(direction.transpose());
    out.dfdx += lambda * outer;
  };
  // Along n: N = sum_m sigma_m r_m r_m^T.
  Eigen::Matrix2d normal_part = Eigen::Matrix2d::Zero();
  for (int m = 0; m < 2; ++m) normal_part += sigma[m] * r[m] * r[m].transpose();
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> normal_eig;
  normal_eig.computeDirect(normal_part);
  for (int j = 0; j < 2; ++j) {
    if (normal_eig.eigenvalues()[j] >= 0) continue;
    const Eigen::Vector2d z = normal_eig.eigenvectors().col(j);
    Eigen::Matrix<double, 9, 1> d;
    for (int i = 0; i < 3; ++i) d.segment<3>(3 * i) = (z[0] * u1[i] + z[1] * u2[i]) * n;
    add_back(normal_eig.eigenvalues()[j], d);
  }
  // In the (e1, e2) plane: sum_m (r_m r_m^T) (x) D_m restricted to the plane, index 2 p + q for
  // vertex basis vector p and plane basis vector q.
  Eigen::Matrix4d plane_part = Eigen::Matrix4d::Zero();
  for (int m = 0; m < 2; ++m) {
    const Eigen::Vector2d h(w_hat[m].dot(e1), w_hat[m].dot(e2));
    const Eigen::Matrix2d d_m = kappa[m] * h * h.transpose() + sigma[m] * (Eigen::Matrix2d::Identity() - h * h.transpose());
    for (int p = 0; p < 2; ++p)
      for (int p2 = 0; p2 < 2; ++p2) plane_part.block<2, 2>(2 * p, 2 * p2) += r[m][p] * r[m][p2] * d_m;
  }
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix4d> plane_eig(plane_part);
  for (int j = 0; j < 4; ++j) {
    if (plane_eig.eigenvalues()[j] >= 0) continue;
    const Eigen::Vector4d z = plane_eig.eigenvectors().col(j);
    const Vec3 y1 = z[0] * e1 + z[1] * e2, y2 = z[2] * e1 + z[3] * e2;
    Eigen::Matrix<double, 9, 1> d;
    for (int i = 0; i < 3; ++i) d.segment<3>(3 * i) = u1[i] * y1 + u2[i] * y2;
    add_back(plane_eig.eigenvalues()[j], d);
  }
  return out;
}

// The shear stiffness K = -dfdx = k g g^T + s a M (x) I3, with g = dC/dx, s = k C + k_d C_dot and
// M = alpha beta^T + beta alpha^T (shear_condition's constant Hessian), has a closed-form
// eigensystem, so its PSD projection needs no eigensolver (a 6 x 6 one per triangle took ~15% of
// an implicit frame). M has the eigenvalues mu = alpha.beta +- |alpha| |beta| along
// e = unit(alpha_hat +- beta_hat), and 0 along (1, 1, 1) (translations, where g is 0 too). With
// y = sum_i e_i g_i (g = sum over both e of e (x) y): K is lambda = s a mu on e (x) y_perp (two
// directions for each e), and on the plane of u = e (x) y_hat (one per e) the 2 x 2 matrix
// T = diag(lambda) + k [|y+|, |y-|]^T [|y+|, |y-|]. The projection subtracts every negative part.
ElementEval<9> eval_shear_definite(const StretchShearTriangle& t, const std::vector<Vec3>& x,
                                   const std::vector<Vec3>& v, double k_shear, double k_damp) {
  assert(v.size() == x.size());
  const double k = k_shear / t.area, k_d = k_damp / t.area;
  const Condition<9, 1> c = shear_condition(t, x);
  const Eigen::Matrix<double, 9, 1> vel = gather<3>(t.v, v);
  ElementEval<9> out = evaluate_condition(c, k, k_d, vel);
  const double s = k * c.value[0] + k_d * c.grad.col(0).dot(vel);
  const Weights w = uv_weights(t);
  const Vec3 alpha(w.alpha[0], w.alpha[1], w.alpha[2]), beta(w.beta[0], w.beta[1], w.beta[2]);
  const Vec3 alpha_hat = alpha.normalized(), beta_hat = beta.normalized();
  std::array<Vec3, 2> e, y_hat;
  std::array<double, 2> lambda, y_len;
  for (int j = 0; j < 2; ++j) {
    const double sign = j == 0 ? 1.0 : -1.0;
    e[j] = (alpha_hat + sign * beta_hat).normalized();
    lambda[j] = s * t.area * (alpha.dot(beta) + sign * alpha.norm() * beta.norm());
    const Vec3 y = e[j][0] * c.grad.col(0).segment<3>(0) + e[j][1] * c.grad.col(0).segment<3>(3) +
                   e[j][2] * c.grad.col(0).segment<3>(6);
    y_len[j] = y.norm();
    y_hat[j] = y_len[j] > 0 ? Vec3(y / y_len[j]) : Vec3::UnitX();  // any direction when y = 0
  }
  // dfdx = -K, so the projection -(K - negative part) adds the negative part back.
  for (int j = 0; j < 2; ++j) {
    if (lambda[j] >= 0) continue;
    const Eigen::Matrix3d across = lambda[j] * (Eigen::Matrix3d::Identity() - y_hat[j] * y_hat[j].transpose());
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) out.dfdx.block<3, 3>(3 * a, 3 * b) += e[j][a] * e[j][b] * across;
  }
  const double t00 = lambda[0] + k * y_len[0] * y_len[0], t11 = lambda[1] + k * y_len[1] * y_len[1];
  const double t01 = k * y_len[0] * y_len[1];
  // sqrt of the sum of squares rather than std::hypot, whose overflow guard costs more than the rest
  // of this kernel's tail (2.5% of a BW frame at 64²); these moduli are far from overflow.
  const double half_gap = 0.5 * (t00 - t11);
  const double t_min = 0.5 * (t00 + t11) - std::sqrt(half_gap * half_gap + t01 * t01);
  if (t_min < 0) {
    // Its eigenvector from the row of T - t_min I farther from zero (both rows vanish only when
    // T is diagonal, i.e. t01 = 0).
    Eigen::Vector2d z = std::abs(t00 - t_min) >= std::abs(t11 - t_min) ? Eigen::Vector2d(-t01, t00 - t_min)
                                                                        : Eigen::Vector2d(t11 - t_min, -t01);
    if (z.squaredNorm() == 0) z = t00 <= t11 ? Eigen::Vector2d(1, 0) : Eigen::Vector2d(0, 1);
    z.normalize();
    Eigen::Matrix<double, 9, 1> u;
    for (int a = 0; a < 3; ++a) u.segment<3>(3 * a) = z[0] * e[0][a] * y_hat[0] + z[1] * e[1][a] * y_hat[1];
    const Eigen::Matrix<double, 9, 9> outer = u.lazyProduct(u.transpose());  // see eval_stretch_definite
    out.dfdx += t_min * outer;
  }
  return out;
}

}  // namespace cloth
