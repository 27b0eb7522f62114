#include "integrators/stability_bound.hpp"

#include <algorithm>
#include <cmath>

#include "forces/force_jacobians.hpp"
#include "linalg/block_sparse.hpp"

namespace cloth {
namespace {

/// The largest row sum of |M^-1 J| over the scalar rows of the block matrix J.
double largest_row_sum(const BlockSparseMatrix& J, const std::vector<double>& mass) {
  double largest = 0;
  for (int i = 0; i < J.blocks(); ++i) {
    if (!(mass[size_t(i)] > 0)) continue;
    Vec3 row = Vec3::Zero();
    for (int s = J.row_begin(i); s < J.row_end(i); ++s) row += J.block(s).cwiseAbs().rowwise().sum();
    largest = std::max(largest, row.maxCoeff() / mass[size_t(i)]);
  }
  return largest;
}

/// (gamma + sqrt(gamma^2 + 4 omega^2)) / 2: a bound on the modulus of the mode's eigenvalues.
double largest_eigenvalue(const StiffestMode& m) {
  return 0.5 * (m.gamma + std::sqrt(m.gamma * m.gamma + 4 * m.omega_squared));
}

}  // namespace

StiffestMode stiffest_mode(const ClothModel& model, const ClothState& state, const ExternalForces& ext,
                           double t) {
  const int n = model.vertex_count();
  BlockSparseMatrix dfdx(n, coupled_pairs(model));
  BlockSparseMatrix dfdv = dfdx;
  std::vector<Vec3> f;
  compute_force_jacobians(model, state, ext, t, /*definite=*/false, f, dfdx, dfdv);
  StiffestMode mode;
  mode.omega_squared = largest_row_sum(dfdx, model.mass);
  mode.gamma = largest_row_sum(dfdv, model.mass);
  mode.least_gamma = model.material.velocity_damping;
  return mode;
}

bool is_explicit(IntegratorType integrator) {
  switch (integrator) {
    case IntegratorType::Verlet:
    case IntegratorType::ExplicitEuler:
    case IntegratorType::SymplecticEuler:
    case IntegratorType::Rk4:
      return true;
    default:
      return false;
  }
}

double stable_substep(IntegratorType integrator, const StiffestMode& m) {
  constexpr double kNone = std::numeric_limits<double>::infinity();
  const double reach = largest_eigenvalue(m);
  if (!is_explicit(integrator) || reach == 0) return kNone;
  switch (integrator) {
    case IntegratorType::ExplicitEuler: {
      const double damped = m.omega_squared > 0 ? m.least_gamma / m.omega_squared : kNone;
      const double overdamped = m.gamma > 0 ? 2 / m.gamma : kNone;
      return std::min(damped, overdamped);
    }
    case IntegratorType::Rk4:
      return 2.5 / reach;
    default:  // symplectic Euler, Verlet: the root of h^2 omega^2 + 2 h gamma = 4
      return 2 / reach;
  }
}

int auto_substeps(IntegratorType integrator, const StiffestMode& mode, double dt) {
  const double h = kAutoSafety * stable_substep(integrator, mode);
  if (!(h > 0)) return kMaxAutoSubsteps;
  const double needed = std::ceil(dt / h);
  return needed >= kMaxAutoSubsteps ? kMaxAutoSubsteps : std::max(1, int(needed));
}

const char* limiting_rate(IntegratorType integrator, const StiffestMode& m) {
  StiffestMode undamped = m;
  undamped.gamma = undamped.least_gamma = 0;
  StiffestMode unstiff = m;
  unstiff.omega_squared = 0;
  if (integrator == IntegratorType::ExplicitEuler) {
    // Its undamped modes grow at any step: the stiffness binds unless the overdamped limit is shorter.
    return m.omega_squared * 2 <= m.least_gamma * m.gamma ? "damping" : "stiffness";
  }
  return stable_substep(integrator, unstiff) < stable_substep(integrator, undamped) ? "damping" : "stiffness";
}

}  // namespace cloth
