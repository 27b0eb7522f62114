#include "integrators/implicit_euler.hpp"

#include <algorithm>

#include "integrators/collision_stage.hpp"
#include "collision/contact.hpp"
#include "kinematics/grab.hpp"
#include "forces/force_jacobians.hpp"
#include "integrators/step_timings.hpp"

namespace cloth {

void ImplicitEulerIntegrator::gather_constraints(const ClothState& state, const StepContext& ctx,
                                                 double t, double h) {
  const int n = state.vertex_count();
  constraints_.reset(n);
  y_.assign(n, Vec3::Zero());
  contacts_.clear();
  if (contact_state_.size() != size_t(n)) contact_state_.assign(size_t(n), ContactState::Free);
  // Solid contacts as constraints (B&W sections 5-6). A vertex within `thickness` of a collider
  // (or resting on its offset surface, within kContactBand) that is not moving away may not move
  // further in: its new normal velocity relative to the solid is max(v.n, 0), and y lifts it
  // back onto the offset surface within this same step (eq. 17). A vertex that was stuck, or is
  // at rest on the solid, is locked to it in all three directions (B&W: "we lock the particle
  // onto the surface, if the relative tangential velocity is low"); update_contacts releases it.
  constexpr double kContactBand = 1e-6;      // m: a vertex just put on the surface is on it
  constexpr double kRestingSpeed = 1e-6;     // m/s: relative tangential speed taken as at rest
  if (ctx.colliders) {
    for (int i = 0; i < n; ++i) {
      const ContactState previous = contact_state_[size_t(i)];
      contact_state_[size_t(i)] = ContactState::Free;
      // Pinned (also moving pins) and kinematically grabbed vertices are placed by their own
      // constraints (a vertex on the mouse spring is free and touches solids like any other).
      if ((*ctx.kinematics.pinned)[i] || (ctx.kinematics.kinematic_grab() && ctx.kinematics.grab->vertex == i)) continue;
      for (const Collider& c : *ctx.colliders) {
        Vec3 normal;
        const double depth = c.thickness - signed_distance(c, state.x[i], &normal, t);
        if (depth <= -kContactBand || (depth <= 0 && previous == ContactState::Released)) continue;
        const Vec3 solid_v = c.motion.velocity_at(t);
        const Vec3 rel = state.v[i] - solid_v;
        const double vn = rel.dot(normal);
        if (depth > 0) y_[i] += depth * normal;
        if (vn > 0) continue;  // leaving the surface
        // A fresh contact at rest on the solid starts stuck (static friction); one that was just
        // released slides until friction stops it.
        const bool stick = previous == ContactState::Stick ||
                           (previous == ContactState::Free && (rel - vn * normal).norm() < kRestingSpeed);
        if (stick) {
          constraints_.fix(i, solid_v - state.v[i]);
        } else {
          constraints_.constrain_direction(i, normal, -vn);
        }
        contacts_.push_back({i, normal, solid_v, c.friction, c.mu_kinetic(), stick, 0.0});
      }
    }
  }
  // Line and plane vertices (section 5.1, eq. 13 with one or two constrained directions): no
  // velocity across the line / plane after the step, and y puts the vertex back on it exactly.
  if (ctx.kinematics.slides) {
    for (const SlideConstraint& s : *ctx.kinematics.slides) {
      for (const Vec3& p : s.blocked_directions()) {
        constraints_.constrain_direction(s.vertex, p, -state.v[s.vertex].dot(p));
      }
      y_[s.vertex] = s.project(state.x[s.vertex]) - state.x[s.vertex];
    }
  }
  // Pins: fully constrained, dv = -v so the vertex stays (its v is zero, so dv = z = 0 and x
  // does not change by a single bit).
  for (int i = 0; i < n; ++i) {
    if ((*ctx.kinematics.pinned)[i]) {
      constraints_.fix(i, -state.v[i]);
      y_[i].setZero();
    }
  }
  // Moving pins: the path's velocity at the end of the substep, and y for the exact position.
  if (ctx.kinematics.moving_pins) {
    for (const MovingPin& pin : *ctx.kinematics.moving_pins) {
      const int i = pin.vertex;
      const Vec3 v_end = pin.path.velocity_at(t + h);
      constraints_.fix(i, v_end - state.v[i]);
      y_[i] = pin.position(t + h) - (state.x[i] + h * v_end);
    }
  }
  // The kinematic grab: fully constrained to reach its destination this substep (the spring
  // grab is a force, in assemble_system).
  if (const Grab* grab = ctx.kinematics.kinematic_grab(); grab && !(*ctx.kinematics.pinned)[grab->vertex]) {
    const int g = grab->vertex;
    const Vec3 dest = grab_destination(*grab, state.x[g], h);
    constraints_.fix(g, (dest - state.x[g]) / h - state.v[g]);
    y_[g].setZero();
  }
}

void ImplicitEulerIntegrator::assemble_system(const ClothState& state, const ClothModel& model,
                                              const StepContext& ctx, double t, double h,
                                              const std::vector<Vec3>* d) {
  // eq. 16: A = M - h ∂f/∂v - h² ∂f/∂x, element by element (jacobian_target.hpp).
  JacobianTarget jac(A_, -h * h, -h, d, d ? &dfdx_d_ : nullptr);
  compute_force_jacobians(model, state, *ctx.forces, t, /*definite=*/true, element_slots_, f_, jac,
                          &dfdx_correction_, ctx.solver->threads, &element_buffers_);
  // The mouse spring enters eq. 15 like any other force: f, -k I in df/dx, -c I in df/dv.
  add_grab_spring_force(ctx.kinematics.spring_grab(), state, f_);
  add_grab_spring_jacobians(ctx.kinematics.spring_grab(), jac);
  A_.add_diagonal(model.mass);
}

void ImplicitEulerIntegrator::measure_contact_impulses(int threads) {
  if (contacts_.empty()) return;
  A_.multiply(dv_, scratch_, threads);  // e = A dv - b: the impulse the constraints added (kg m/s)
  for (ConstrainedContact& c : contacts_) {
    const Vec3 e = scratch_[c.vertex] - b_[c.vertex];
    c.normal_impulse = e.dot(c.normal);
    c.tangential_impulse = (e - c.normal_impulse * c.normal).norm();
  }
}

void ImplicitEulerIntegrator::apply_contact_friction(ClothState& state, const ClothModel& model,
                                                     double h) {
  for (const ConstrainedContact& c : contacts_) {
    const int i = c.vertex;
    ContactState& next = contact_state_[size_t(i)];
    if (c.normal_impulse <= 0) {  // the constraint held the vertex down: let it go
      next = ContactState::Released;
      continue;
    }
    if (c.stick) {  // held this substep: stays stuck while inside the friction cone
      next = c.tangential_impulse <= c.mu_static * c.normal_impulse ? ContactState::Stick : ContactState::Slide;
      continue;
    }
    // Sliding: kinetic friction against the slip, at most stopping it (then it sticks).
    const Vec3 rel = state.v[i] - c.solid_velocity;
    const Vec3 slip = rel - rel.dot(c.normal) * c.normal;
    const double friction_dv = c.mu_kinetic * c.normal_impulse / model.mass[i];
    const double slip_speed = slip.norm();
    const Vec3 change = slip_speed > friction_dv ? Vec3(-(friction_dv / slip_speed) * slip) : Vec3(-slip);
    state.v[i] += change;
    state.x[i] += h * change;  // the step moved x with the velocity before friction
    next = slip_speed > friction_dv ? ContactState::Slide : ContactState::Stick;
  }
}

void ImplicitEulerIntegrator::solve_system(const VertexConstraints& constraints, const ClothState& state,
                                           const StepContext& ctx, StepReport& report) {
  const SolveReport solve = ctx.solver->direct_solve ? constrained_direct_solve(A_, b_, constraints, dv_)
                                             : modified_pcg(A_, b_, constraints, pcg_settings(*ctx.solver), dv_, pcg_, &state.x);
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
    assemble_system(state, model, ctx, t_end, h, nullptr);
    b_.resize(n);
    for (int i = 0; i < n; ++i) b_[i] = h * f_[i] - model.mass[i] * (state.v[i] - v_start_[i]);
    correction_constraints_ = constraints_;  // the same filter S (and its free flags), z = 0
    correction_constraints_.z.assign(n, Vec3::Zero());
  }
  ScopedTimer timer(report.timings.solve_ms);
  solve_system(correction_constraints_, state, ctx, report);
  for (int i = 0; i < n; ++i) {
    state.v[i] += dv_[i];
    state.x[i] += h * dv_[i];
  }
}

void ImplicitEulerIntegrator::update_pattern(const ClothModel& model, double h) {
  const int n = model.vertex_count();
  bool same = A_.blocks() == n;
  size_t k = 0;
  for_each_coupled_pair(model, [&](int i, int j) {
    same = same && k < pattern_pairs_.size() && pattern_pairs_[k] == std::pair(i, j);
    ++k;
  });
  same = same && k == pattern_pairs_.size();
  if (!same) {
    pattern_pairs_ = coupled_pairs(model);
    A_ = BlockSparseMatrix(n, pattern_pairs_, BlockSparseMatrix::Storage::symmetric);
    element_slots_ = ElementSlots(model, A_);
  }
  // Weak bend springs' blocks are left out of IC(0): along the sheet they double the structural
  // path two vertices long, with a small fraction of its stiffness, and without them the
  // factorisation and its sweeps do a third less work for 0-4% more CG iterations
  // (BM_SolvePart/ic-factor, ic-apply; WeakBendSlots tests which are left out). Which springs are
  // weak changes with h (damping weighs more in short steps) and with the springs' constants, which
  // all come from the material (apply_spring_material; Simulation::set_material changes them): the
  // springs are looked at again only when h, the material or the pattern changed (0.2 ms at 100²),
  // and IC(0)'s pattern analysed again only when the weak springs changed.
  const SpringMaterial& m = model.material;
  const std::array<double, 5> key{h, m.stretch, m.shear, m.bending, m.damping};
  if (same && key == weak_bend_key_) return;
  weak_bend_key_ = key;
  weak_bend_springs(model, h, next_weak_bend_springs_, softest_spring_);
  if (same && next_weak_bend_springs_ == weak_bend_springs_) return;
  weak_bend_springs_.swap(next_weak_bend_springs_);
  pcg_.ic.leave_out(A_.pattern(), weak_bend_slots(model, A_, weak_bend_springs_));
}

StepReport ImplicitEulerIntegrator::step(ClothState& state, const ClothModel& model,
                                         const StepContext& ctx) {
  const int n = state.vertex_count();
  const double h = ctx.dt / ctx.substeps;
  update_pattern(model, h);
  StepReport report;
  for (int sub = 0; sub < ctx.substeps; ++sub) {
    {
      ScopedTimer timer(report.timings.collision_ms);
      gather_constraints(state, ctx, ctx.time + sub * h, h);
    }
    if (ctx.solver->newton_iterations > 1) v_start_ = state.v;
    if (ctx.self_collision->enabled) x_start_ = state.x;
    {
      ScopedTimer timer(report.timings.assembly_ms);
      // eq. 18: b = h (f0 + h ∂f/∂x v0 + ∂f/∂x y) = h f0 + h ∂f/∂x (h v0 + y).
      scratch_.resize(n);
      for (int i = 0; i < n; ++i) scratch_[i] = h * state.v[i] + y_[i];
      assemble_system(state, model, ctx, ctx.time + sub * h, h, &scratch_);
      dfdx_correction_.add_times(scratch_, dfdx_d_);  // the right side takes the true derivative
      b_.resize(n);
      for (int i = 0; i < n; ++i) b_[i] = h * (f_[i] + dfdx_d_[i]);
    }
    {
      ScopedTimer timer(report.timings.solve_ms);
      solve_system(constraints_, state, ctx, report);

      // v1 = v0 + dv, eq. 17: dx = h (v0 + dv) + y.
      for (int i = 0; i < n; ++i) {
        state.v[i] += dv_[i];
        state.x[i] += h * state.v[i] + y_[i];
      }
      measure_contact_impulses(ctx.solver->threads);
    }
    for (int k = 1; k < ctx.solver->newton_iterations; ++k) {
      newton_correction(state, model, ctx, ctx.time + (sub + 1) * h, h, report);
    }
    // Friction after the Newton corrections: they solve backward Euler without it, and would
    // give a sliding vertex its friction back along the free tangent directions.
    apply_contact_friction(state, model, h);
    // A last guarantee against penetration (the linearised step can overshoot into a solid it
    // did not touch at the start): pushed out, approaching speed and friction at velocity level
    // only (h = 0: no position change along the surface, which would tear at the neighbours a
    // large step moved consistently); from the next substep these are constrained contacts.
    // Pinned and kinematically grabbed vertices were placed by their constraints and are left alone.
    end_substep(state, x_start_, model, ctx, ctx.time + (sub + 1) * h, 0.0, report);
  }
  return report;
}

}  // namespace cloth
