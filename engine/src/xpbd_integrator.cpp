// XPBD (Macklin, Müller & Chentanez 2016) with the small-steps scheme of Macklin et al. 2019;
// see xpbd_integrator.hpp for the update equations and how compliance maps onto each model.
#include "cloth/xpbd_integrator.hpp"

#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <string>

#include "cloth/collision_stage.hpp"
#include "cloth/forces.hpp"
#include "cloth/bw_conditions.hpp"
#include "cloth/explicit_integrators.hpp"
#include "cloth/parallel.hpp"
#include "cloth/step_timings.hpp"

namespace cloth {

namespace {

// Everything one constraint update needs besides the constraint itself.
struct Pass {
  const std::vector<double>& inv_mass;  // 1/kg
  const std::vector<Vec3>& x_prev;      // m
  std::vector<Vec3>& x;                 // m, updated in place (Gauss-Seidel)
  double h;                             // substep, s
};

// One XPBD update of an M-component constraint C (value, grad = dC/dx column per component) over
// the vertices v, with compliance alpha (E = 1/(2 alpha) C^T C) and damping beta (Rayleigh
// D = beta/2 C_dot^T C_dot): Macklin et al. 2016 eq. 26 (eq. 18 when beta = 0), in matrix form
//   A dlambda = -C - alpha~ lambda - gamma grad^T (x - x_prev),
//   A = (1 + gamma) grad^T W grad + alpha~ I,   alpha~ = alpha / h^2,   gamma = alpha beta / h,
// then x += W grad dlambda. A component whose weighted gradient is zero (it cannot move any free
// vertex: all its vertices pinned, or a degenerate configuration) is left out of this pass.
template <int N, int M, size_t V>
void project(const Eigen::Matrix<double, M, 1>& value, const Eigen::Matrix<double, N, M>& grad,
             const std::array<int, V>& v, double alpha, double beta, Pass& pass, double* lambda) {
  static_assert(N == 3 * static_cast<int>(V));
  Eigen::Matrix<double, N, M> w_grad;  // W grad
  Eigen::Matrix<double, N, 1> moved;   // x - x_prev over the element
  for (size_t a = 0; a < V; ++a) {
    w_grad.template middleRows<3>(3 * a) = pass.inv_mass[v[a]] * grad.template middleRows<3>(3 * a);
    moved.template segment<3>(3 * a) = pass.x[v[a]] - pass.x_prev[v[a]];
  }
  const double alpha_tilde = alpha / (pass.h * pass.h);
  const double gamma = alpha * beta / pass.h;
  Eigen::Map<Eigen::Matrix<double, M, 1>> lam(lambda);
  Eigen::Matrix<double, M, M> a = (1 + gamma) * grad.transpose() * w_grad;
  Eigen::Matrix<double, M, 1> rhs = -value - alpha_tilde * lam - gamma * (grad.transpose() * moved);
  bool any = false;
  for (int m = 0; m < M; ++m) {
    if (a(m, m) > 0 && std::isfinite(a(m, m)) && std::isfinite(rhs[m])) {
      any = true;
      continue;
    }
    a.row(m).setZero();  // decouple the component: its dlambda is 0
    a.col(m).setZero();
    a(m, m) = 1;
    rhs[m] = 0;
  }
  if (!any) return;
  a.diagonal().array() += alpha_tilde;
  Eigen::Matrix<double, M, 1> dlambda;
  if constexpr (M == 1) {
    dlambda[0] = rhs[0] / a(0, 0);
  } else {
    dlambda = a.ldlt().solve(rhs);  // A is symmetric positive definite (alpha~ > 0)
  }
  if (!dlambda.allFinite()) return;
  lam += dlambda;
  const Eigen::Matrix<double, N, 1> dx = w_grad * dlambda;
  for (size_t k = 0; k < V; ++k) pass.x[v[k]] += dx.template segment<3>(3 * k);
}

// Number of scalar constraint components (lambda slots) of the elements other than springs.
size_t element_constraint_count(const ClothModel& model) {
  return 3 * model.bw_triangles.size() + model.bw_bends.size();
}

}  // namespace

void XpbdIntegrator::prepare_springs(const ClothModel& model, double h) {
  const std::vector<Spring>& springs = model.springs;
  bool same_topology = spring_ends_.size() == 2 * springs.size();
  for (size_t k = 0; same_topology && k < springs.size(); ++k) {
    same_topology = spring_ends_[2 * k] == springs[k].i && spring_ends_[2 * k + 1] == springs[k].j;
  }
  if (!same_topology) {
    spring_ends_.clear();
    for (const Spring& s : springs) spring_ends_.insert(spring_ends_.end(), {s.i, s.j});
    spring_tiles_ = SpringTiles(springs, model.vertex_count(), kTileVertices);
  }
  // Springs (seed 002): C = |x_i - x_j| - rest, grad = (d, -d), E = k/2 C^2 => alpha = 1/k; the
  // axial damping -k_d (v_ij . d) d is Rayleigh damping of C with beta = k_d. Stiffness, damping
  // and inverse masses are read every substep (sliders, pins and grabs change them). project()'s
  // A = (1 + gamma) grad^T W grad + alpha~ is (1 + gamma)(w_i + w_j) + alpha~ here (|d| = 1),
  // constant over the substep's passes.
  spring_rows_.resize(springs.size());
  for (size_t m = 0; m < springs.size(); ++m) {
    const Spring& s = springs[size_t(spring_tiles_.order[m])];
    SpringRow& r = spring_rows_[m];
    r.i = s.i;
    r.j = s.j;
    r.rest = s.rest;
    r.alpha_tilde = 1.0 / (s.k * h * h);
    r.gamma = s.kd / (s.k * h);
    const double w = inv_mass_[size_t(s.i)] + inv_mass_[size_t(s.j)];
    const double a = (1 + r.gamma) * w + r.alpha_tilde;
    // No stiffness (infinite compliance), both ends fixed or a damping that would make A
    // non-positive: the row is skipped (as project() skips such a component).
    r.inv_a = s.k > 0 && w > 0 && 1 + r.gamma > 0 && std::isfinite(a) ? 1.0 / a : 0.0;
  }
}

void XpbdIntegrator::project_springs(std::vector<Vec3>& x, int threads) {
  // The one-component case of project(), written out: the springs are most of a pass.
  const auto update = [&](size_t m) {
    const SpringRow& r = spring_rows_[m];
    if (r.inv_a == 0) return;
    const Vec3 d = x[size_t(r.i)] - x[size_t(r.j)];
    const double len = d.norm();
    if (len < 1e-12) return;  // coincident ends: no direction (as spring_force_on_i)
    const Vec3 n = d * (1.0 / len);
    const Vec3 moved = (x[size_t(r.i)] - x_prev_[size_t(r.i)]) - (x[size_t(r.j)] - x_prev_[size_t(r.j)]);
    double& lambda = spring_lambda_[m];
    const double dlambda = (r.rest - len - r.alpha_tilde * lambda - r.gamma * n.dot(moved)) * r.inv_a;
    if (!std::isfinite(dlambda)) return;
    lambda += dlambda;
    x[size_t(r.i)] += (inv_mass_[size_t(r.i)] * dlambda) * n;
    x[size_t(r.j)] -= (inv_mass_[size_t(r.j)] * dlambda) * n;
  };
  // SpringTiles: the same result on any number of threads.
  spring_tiles_.for_each(threads, [&](int m) { update(size_t(m)); });
}

void XpbdIntegrator::project_constraints(ClothState& state, const ClothModel& model,
                                         const Grab* spring, double h, int threads) {
  Pass pass{inv_mass_, x_prev_, state.x, h};
  double* lambda = lambda_.data();
  project_springs(state.x, threads);
  // Baraff-Witkin (seed 001 sec. 4): the kernels' own conditions. The element energies are
  // E = k_e/2 C^T C with k_e = k / a (stretch, shear) and k_e = weight scale B (bend), the damping
  // constants likewise (bw_conditions.hpp, "SI conventions"); alpha = 1 / k_e, beta = k_d,e.
  const SpringMaterial& m = model.material;
  for (const StretchShearTriangle& t : model.bw_triangles) {
    double* stretch_l = lambda;
    double* shear_l = lambda + 2;
    lambda += 3;
    if (m.stretch > 0) {
      const Condition<9, 2> c = stretch_condition(t, state.x, m.rest_stretch_u, m.rest_stretch_v);
      project(c.value, c.grad, t.v, t.area / m.stretch, m.damping / t.area, pass, stretch_l);
    }
    if (m.shear > 0) {
      const Condition<9, 1> c = shear_condition(t, state.x);
      project(c.value, c.grad, t.v, t.area / m.shear, m.damping / t.area, pass, shear_l);
    }
  }
  for (const BendEdge& e : model.bw_bends) {
    double* l = lambda++;
    const double s = e.weight * e.scale;
    if (!(s * m.bending > 0)) continue;
    const Condition<12, 1> c = bend_condition(e, state.x);
    project(c.value, c.grad, e.v, 1.0 / (s * m.bending), s * m.bending_damping, pass, l);
  }
  assert(lambda == lambda_.data() + lambda_.size());
  // The mouse spring f = k (target - x) - c v as the constraint C = x_g - target (grad = I, three
  // components), alpha = 1/k, beta = c (Ċ = v: the target is fixed within a substep). Last in the
  // pass, so that it ends with C = -alpha~ lambda exactly: at rest h^2 k C balances the impulse
  // h^2 M g that the prediction gave the whole cloth (the material constraints move no momentum),
  // and the extension is M g / k as for the force-based integrators.
  if (spring) {
    project<3, 3, 1>(state.x[spring->vertex] - spring->target, Eigen::Matrix3d::Identity(),
                     std::array<int, 1>{spring->vertex}, 1.0 / spring->settings.stiffness,
                     spring->settings.damping, pass, grab_lambda_.data());
  }
}

StepReport XpbdIntegrator::step(ClothState& state, const ClothModel& model, const StepContext& ctx) {
  const int n = state.vertex_count();
  const double h = ctx.dt / ctx.substeps;
  const std::vector<std::uint8_t>& pinned = *ctx.pinned;
  StepReport report;
  double update_ms = 0;  // prediction, pins, constraint projection and velocities
  for (int sub = 0; sub < ctx.substeps; ++sub) {
    {
      ScopedTimer timer(update_ms);
      const Vec3 grab_start = ctx.kinematic_grab() ? state.x[ctx.grab->vertex] : Vec3::Zero();
      // Prediction: symplectic Euler with the external forces only (2016 Algorithm 1, lines 3-4).
      {
        ScopedTimer assembly(report.timings.assembly_ms);
        compute_external_forces(model, state, ctx.forces, ctx.time + sub * h, force_);
      }
      x_prev_ = state.x;
      for (int i = 0; i < n; ++i) {
        if (pinned[i]) continue;
        state.v[i] += (h / model.mass[i]) * force_[i];
        state.x[i] += h * state.v[i];
      }
      // Pins exactly on their pins, a kinematic grab at its destination: both infinitely heavy
      // for the constraints, so they pull their neighbours along and are not moved by them.
      enforce_pins_and_grab(state, ctx, h, grab_start, ctx.time + (sub + 1) * h);
      inv_mass_.resize(n);
      for (int i = 0; i < n; ++i) inv_mass_[i] = pinned[i] ? 0.0 : 1.0 / model.mass[i];
      if (const Grab* grab = ctx.kinematic_grab()) inv_mass_[grab->vertex] = 0;
      prepare_springs(model, h);

      lambda_.assign(element_constraint_count(model), 0.0);
      spring_lambda_.assign(spring_rows_.size(), 0.0);
      grab_lambda_.setZero();
      for (int it = 0; it < ctx.xpbd_iterations; ++it) {
        project_constraints(state, model, ctx.spring_grab(), h, ctx.pcg.threads);
      }
      project_slides(state, ctx);  // before the velocities, which then only move along them

      // Velocities from the positions (2016 Algorithm 1, line 13); pinned and kinematically
      // grabbed vertices keep the velocities enforce_pins_and_grab gave them (their positions did
      // not change since).
      for (int i = 0; i < n; ++i) {
        if (inv_mass_[i] > 0) state.v[i] = (state.x[i] - x_prev_[i]) / h;
      }
    }
    {
      ScopedTimer timer(report.timings.collision_ms);
      const CollisionStageResult c = resolve_collisions(state, x_prev_, model, ctx, ctx.time + (sub + 1) * h, h);
      report.contacts = c.contacts;
      report.self_contacts = c.self_contacts;
    }
    ++report.substeps;
  }
  report.timings.solve_ms = update_ms - report.timings.assembly_ms;
  return report;
}

}  // namespace cloth
