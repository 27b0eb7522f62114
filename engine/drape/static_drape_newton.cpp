// Newton's method for the static drape (not in Feynman's thesis: the modern comparison). Each
// iteration solves H d = f with H the material Hessian whose element blocks are projected onto
// the PSD cone (add_internal_jacobians with `definite`, as the implicit integrator assembles it;
// gravity is linear and adds nothing), restricted to the free directions, then backtracks along d
// until the energy drops (Armijo).
#include <algorithm>
#include <cmath>

#include <Eigen/SparseCholesky>

#include "drape/static_drape_newton.hpp"

#include "forces/force_jacobians.hpp"
#include "forces/internal_forces.hpp"

namespace cloth::drape {
namespace {
constexpr double kMaxMoveEdges = 4;  ///< the longest vertex move of one Newton step, in edge lengths
}  // namespace

NewtonSolver::NewtonSolver(const Level& L)
    : pairs_(coupled_pairs(L.model)),
      dfdx_(L.n(), pairs_),
      dfdv_(L.n(), pairs_) {}

bool NewtonSolver::step(Level& L, std::vector<Vec3>& x) {
  const int n = L.n();
  ClothState s;
  s.x = x;
  s.v = L.zero_v;
  JacobianTarget jac(dfdx_, dfdv_);
  jac.set_zero();
  add_internal_jacobians(L.model, s, /*definite=*/true, jac);
  const Eigen::SparseMatrix<double> H = -dfdx_.to_eigen();

  std::vector<Vec3> f;
  level_forces(L, x, f);
  // Free directions per vertex: none for fixed points; the tangent plane for a vertex that a
  // solid holds (it touches it and its force pushes into it: an active contact); all otherwise.
  std::vector<Eigen::Triplet<double>> st, ct;
  Eigen::VectorXd rhs(3 * n);
  for (int i = 0; i < n; ++i) {
    Eigen::Matrix3d S = Eigen::Matrix3d::Identity();
    Vec3 nrm;
    if (L.fixed[i]) {
      S.setZero();
    } else if (touching_normal(*L.colliders, x[i], f[i], &nrm)) {
      S -= nrm * nrm.transpose();
    }
    rhs.segment<3>(3 * i) = S * f[i];
    const Eigen::Matrix3d C = Eigen::Matrix3d::Identity() - S;
    for (int a = 0; a < 3; ++a) {
      for (int b = 0; b < 3; ++b) {
        if (S(a, b) != 0) st.emplace_back(3 * i + a, 3 * i + b, S(a, b));
        if (C(a, b) != 0) ct.emplace_back(3 * i + a, 3 * i + b, C(a, b));
      }
    }
  }
  Eigen::SparseMatrix<double> S(3 * n, 3 * n), C(3 * n, 3 * n);
  S.setFromTriplets(st.begin(), st.end());
  C.setFromTriplets(ct.begin(), ct.end());
  const Eigen::SparseMatrix<double> A0 = Eigen::SparseMatrix<double>(S * H * S) + C;
  double mean_diag = 0;
  for (int k = 0; k < A0.rows(); ++k) mean_diag += A0.coeff(k, k);
  mean_diag /= std::max<Eigen::Index>(1, A0.rows());

  // The projected Hessian may be singular (a mode that only the neglected indefinite parts
  // stiffen): Levenberg-Marquardt shift mu I, grown until the step is a descent direction.
  Eigen::VectorXd d;
  for (double mu = 1e-10 * mean_diag; mu < 1e3 * mean_diag; mu *= 100) {
    Eigen::SparseMatrix<double> I(3 * n, 3 * n);
    I.setIdentity();
    const Eigen::SparseMatrix<double> A = A0 + mu * I;
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(A);
    if (ldlt.info() != Eigen::Success) continue;
    d = ldlt.solve(rhs);
    if (ldlt.info() == Eigen::Success && d.allFinite() && d.dot(rhs) > 0) break;
    d.resize(0);
  }
  if (d.size() == 0) return false;

  // A trust region of kMaxMoveEdges edge lengths per vertex: the LM shift is tiny, so where the
  // material does not resist (a cloth falling freely onto a solid) d is a fall of kilometres, and
  // the line search's halvings would end, still metres long, with vertices stopped at the solid
  // and their neighbours far past it (StaticDrape.FeynmanFigure20RestsOnTheSphereItStartsAbove).
  double longest = 0;
  for (int i = 0; i < n; ++i) longest = std::max(longest, d.segment<3>(3 * i).norm());
  if (longest > kMaxMoveEdges * L.spacing) d *= kMaxMoveEdges * L.spacing / longest;

  const double slope = d.dot(rhs);  // -dE/dalpha at 0
  const double e0 = material_energy(L, x);
  std::vector<Vec3> y(n);
  const auto at = [&](double a) {
    for (int i = 0; i < n; ++i) {
      y[i] = L.fixed[i] ? x[i] : move_outside(*L.colliders, x[i], x[i] + a * Vec3(d.segment<3>(3 * i)));
    }
  };
  for (double a = 1.0; a > 1e-10; a *= 0.5) {
    at(a);
    const double de = level_energy_change(L, x, e0, y);
    if (de <= -1e-4 * a * slope) {
      x = y;
      return true;
    }
  }
  // Near the minimum the energy change of a full step is below round-off; accept it if it
  // lowers the residual force instead.
  at(1.0);
  std::vector<Vec3> r0, r1;
  residual_forces(L, x, r0);
  residual_forces(L, y, r1);
  if (max_norm(r1) < max_norm(r0)) {
    x = y;
    return true;
  }
  return false;
}

}  // namespace cloth::drape
