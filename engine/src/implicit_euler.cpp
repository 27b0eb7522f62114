#include "cloth/implicit_euler.hpp"

#include <algorithm>

#include "cloth/explicit_integrators.hpp"
#include "cloth/force_jacobians.hpp"
#include "cloth/step_timings.hpp"

namespace cloth {

void ImplicitEulerIntegrator::gather_constraints(const ClothState& state, const StepContext& ctx,
                                                 double h) {
  const int n = state.vertex_count();
  constraints_ = VertexConstraints(n);
  y_.assign(n, Vec3::Zero());
  // Solid contacts (section 5 / 6.2): a vertex within `thickness` of a collider may not move
  // further in: its new normal velocity is max(v.n, 0), and y lifts it back onto the offset
  // surface within this same step, so its neighbours see the move (eq. 17).
  if (ctx.colliders) {
    for (int i = 0; i < n; ++i) {
      for (const Collider& c : *ctx.colliders) {
        Vec3 normal;
        const double depth = c.thickness - signed_distance(c, state.x[i], &normal);
        if (depth <= 0) continue;
        const double vn = state.v[i].dot(normal);
        if (vn < 0) constraints_.constrain_direction(i, normal, -vn);
        y_[i] += depth * normal;
      }
    }
  }
  // Pins: fully constrained, dv = -v so the vertex stays (its v is zero, so dv = z = 0 and x
  // does not change by a single bit).
  for (int i = 0; i < n; ++i) {
    if ((*ctx.pinned)[i]) {
      constraints_.fix(i, -state.v[i]);
      y_[i].setZero();
    }
  }
  // The grab: fully constrained to reach its kinematic destination this substep.
  if (ctx.grab && !(*ctx.pinned)[ctx.grab->vertex]) {
    const int g = ctx.grab->vertex;
    const Vec3 dest = grab_destination(*ctx.grab, state.x[g], h);
    constraints_.fix(g, (dest - state.x[g]) / h - state.v[g]);
    y_[g].setZero();
  }
}

void ImplicitEulerIntegrator::solve_system(const VertexConstraints& constraints,
                                           const StepContext& ctx, StepReport& report) {
  const SolveReport solve = ctx.direct_solve ? constrained_direct_solve(A_, b_, constraints, dv_)
                                             : modified_pcg(A_, b_, constraints, ctx.pcg, dv_);
  report.solver_iterations += solve.iterations;
  report.solver_residual = solve.relative_residual;
}

void ImplicitEulerIntegrator::newton_correction(ClothState& state, const ClothModel& model,
                                                const StepContext& ctx, double t_end, double h,
                                                StepReport& report) {
  // Backward Euler asks for dv with g(dv) = M dv - h f(x0 + h (v0 + dv) + y, v0 + dv) = 0 (eq. 4
  // with the alteration y of eq. 17). Eq. 18 is one Newton step on it from dv = 0 (linearised at
  // x0); each further step linearises at the current iterate (x_k, v_k):
  //   (M - h df/dv - h^2 df/dx) delta = h f(x_k, v_k) - M dv_k,   dv_{k+1} = dv_k + delta,
  // and moves x by h delta. dv_k already meets the constraints, so delta's constrained
  // components are zero (z = 0, same filter S).
  const int n = state.vertex_count();
  {
    ScopedTimer timer(report.timings.assembly_ms);
    compute_force_jacobians(model, state, ctx.forces, t_end, /*definite=*/true, f_, dfdx_, dfdv_);
    A_.set_linear_combination(-h, dfdv_, -h * h, dfdx_);
    A_.add_diagonal(model.mass);
    b_.resize(n);
    for (int i = 0; i < n; ++i) b_[i] = h * f_[i] - model.mass[i] * (state.v[i] - v_start_[i]);
    correction_constraints_.S = constraints_.S;
    correction_constraints_.z.assign(n, Vec3::Zero());
  }
  ScopedTimer timer(report.timings.solve_ms);
  solve_system(correction_constraints_, ctx, report);
  for (int i = 0; i < n; ++i) {
    state.v[i] += dv_[i];
    state.x[i] += h * dv_[i];
  }
}

StepReport ImplicitEulerIntegrator::step(ClothState& state, const ClothModel& model,
                                         const StepContext& ctx) {
  const int n = state.vertex_count();
  const double h = ctx.dt / ctx.substeps;
  std::vector<std::pair<int, int>> pairs = coupled_pairs(model);
  if (pairs != pattern_pairs_ || dfdx_.blocks() != n) {  // topology changed: new pattern, once
    pattern_pairs_ = std::move(pairs);
    dfdx_ = BlockSparseMatrix(n, pattern_pairs_);
    dfdv_ = dfdx_;
    A_ = dfdx_;
  }
  StepReport report;
  for (int sub = 0; sub < ctx.substeps; ++sub) {
    {
      ScopedTimer timer(report.timings.collision_ms);
      gather_constraints(state, ctx, h);
    }
    if (ctx.newton_iterations > 1) v_start_ = state.v;
    {
      ScopedTimer timer(report.timings.assembly_ms);
      compute_force_jacobians(model, state, ctx.forces, ctx.time + sub * h, /*definite=*/true,
                              f_, dfdx_, dfdv_);
      // eq. 16: A = M - h ∂f/∂v - h² ∂f/∂x.
      A_.set_linear_combination(-h, dfdv_, -h * h, dfdx_);
      A_.add_diagonal(model.mass);
      // eq. 18: b = h (f0 + h ∂f/∂x v0 + ∂f/∂x y) = h f0 + h ∂f/∂x (h v0 + y).
      scratch_.resize(n);
      for (int i = 0; i < n; ++i) scratch_[i] = h * state.v[i] + y_[i];
      dfdx_.multiply(scratch_, b_);
      for (int i = 0; i < n; ++i) b_[i] = h * (f_[i] + b_[i]);
    }
    {
      ScopedTimer timer(report.timings.solve_ms);
      solve_system(constraints_, ctx, report);

      // v1 = v0 + dv, eq. 17: dx = h (v0 + dv) + y.
      for (int i = 0; i < n; ++i) {
        state.v[i] += dv_[i];
        state.x[i] += h * state.v[i] + y_[i];
      }
    }
    for (int k = 1; k < ctx.newton_iterations; ++k) {
      newton_correction(state, model, ctx, ctx.time + (sub + 1) * h, h, report);
    }
    // Friction and a last guarantee against penetration (the linearised step can overshoot);
    // pinned and grabbed vertices were placed by their constraints and are left alone.
    if (ctx.colliders && !ctx.colliders->empty()) {
      ScopedTimer timer(report.timings.collision_ms);
      report.contacts = resolve_contacts(state, *ctx.colliders, *ctx.pinned);
    }
    ++report.substeps;
  }
  return report;
}

}  // namespace cloth
