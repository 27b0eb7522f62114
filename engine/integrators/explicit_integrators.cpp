#include "integrators/explicit_integrators.hpp"

#include <algorithm>
#include <cmath>

#include "integrators/collision_stage.hpp"
#include "forces/force_jacobians.hpp"
#include "forces/forces.hpp"
#include "forces/internal_forces.hpp"
#include "kinematics/strain_limit.hpp"

namespace cloth {

namespace {

// Everything that acts on the cloth as a force: material (without the shape-operator bend when
// it has an interval of its own), gravity, damping, air and, in spring mode, the mouse.
void all_forces(const ClothModel& model, const ClothState& state, const StepContext& ctx, double t,
                BendForces bend, std::vector<Vec3>& f) {
  compute_external_forces(model, state, *ctx.forces, t, f);
  add_internal_forces(model, state, f, bend);
  add_grab_spring_force(ctx.kinematics.spring_grab(), state, f);
}

}  // namespace

int bend_interval(const ClothModel& model, double h, int substeps) {
  if (!std::isfinite(model.bend_rate)) return 1;
  const double omega = std::sqrt(model.material.bending * model.bend_rate);
  const double rate = model.material.bending_damping * model.bend_rate;
  const double tau = 1.0 / std::max({omega, rate, 1e-300});  // the longest impulse interval, s
  return static_cast<int>(std::clamp(std::floor(tau / h), 1.0, double(std::max(substeps, 1))));
}

const char* ExplicitIntegrator::name() const {
  switch (method_) {
    case Method::ForwardEuler: return "explicit-euler";
    case Method::SymplecticEuler: return "symplectic-euler";
    case Method::Verlet: return "verlet";
    case Method::Rk4: return "rk4";
  }
  return "?";
}

StepReport ExplicitIntegrator::step(ClothState& state, const ClothModel& model,
                                    const StepContext& ctx) {
  const double h = ctx.dt / ctx.substeps;
  StepReport report;
  double update_ms = 0;  // substeps including their force evaluations
  // Multiple time stepping: `kicks` intervals spread evenly over the step, the j-th from substep
  // first(j) to first(j + 1), each opened and closed by half its bend impulse (r-RESPA's symmetric
  // form); the close of one interval and the open of the next are one evaluation. Counted within
  // the step, so a run replays bit for bit whatever came before.
  const bool splittable = (method_ == Method::SymplecticEuler || method_ == Method::Verlet) &&
                          !model.bend_triangles.empty();
  const int interval = !splittable ? 1
                       : ctx.solver->bend_interval > 0 ? std::min(ctx.solver->bend_interval, ctx.substeps)
                                                       : bend_interval(model, h, ctx.substeps);
  const bool split_bend = interval > 1;
  const int kicks = (ctx.substeps + interval - 1) / interval;
  const auto first = [&](int j) { return j * ctx.substeps / kicks; };
  int opened = 0;  // intervals opened so far
  const auto kick = [&](int spanned_substeps, double& assembly_ms) {  // half of each interval it joins
    ScopedTimer timer(assembly_ms);
    kick_bend(state, model, 0.5 * spanned_substeps * h);
  };
  for (int sub = 0; sub < ctx.substeps; ++sub) {
    {
      ScopedTimer timer(update_ms);
      const Vec3 grab_start = ctx.kinematics.kinematic_grab() ? state.x[ctx.kinematics.grab->vertex] : Vec3::Zero();
      if (ctx.self_collision->enabled) x_start_ = state.x;
      if (split_bend && sub == first(opened)) {
        const int closing = opened > 0 ? first(opened) - first(opened - 1) : 0;
        kick(closing + first(opened + 1) - first(opened), report.timings.assembly_ms);
        ++opened;
      }
      substep(state, model, ctx, ctx.time + sub * h, h, split_bend ? BendForces::Excluded : BendForces::Included,
              report.timings.assembly_ms);
      if (split_bend && sub + 1 == ctx.substeps) kick(ctx.substeps - first(kicks - 1), report.timings.assembly_ms);
      enforce_pins_and_grab(state, ctx.kinematics, h, grab_start, ctx.time + (sub + 1) * h);
      if (method_ == Method::Verlet && ctx.solver->strain_limit >= 0) {
        limit_strain(state, model, *ctx.kinematics.pinned, ctx.solver->strain_limit, h);
      }
      project_slides(state, ctx.kinematics);  // after the strain limit, which moves vertices too
    }
    end_substep(state, x_start_, model, ctx, ctx.time + (sub + 1) * h, h, report);
  }
  report.timings.solve_ms = update_ms - report.timings.assembly_ms;
  return report;
}

void ExplicitIntegrator::kick_bend(ClothState& state, const ClothModel& model, double tau) {
  bend_force_.assign(size_t(state.vertex_count()), Vec3::Zero());
  add_bend_forces(model, state, bend_force_);
  for (int i = 0; i < state.vertex_count(); ++i) state.v[i] += (tau / model.mass[i]) * bend_force_[i];
}

void ExplicitIntegrator::substep(ClothState& state, const ClothModel& model, const StepContext& ctx,
                                 double t, double h, BendForces bend, double& assembly_ms) {
  const int n = state.vertex_count();
  switch (method_) {
    case Method::ForwardEuler:
      {
        ScopedTimer timer(assembly_ms);
        all_forces(model, state, ctx, t, bend, force_);
      }
      for (int i = 0; i < n; ++i) {
        state.x[i] += h * state.v[i];
        state.v[i] += (h / model.mass[i]) * force_[i];
      }
      return;
    case Method::SymplecticEuler:
    case Method::Verlet:
      // Position Verlet x_{n+1} = 2 x_n - x_{n-1} + a_n h^2 (Yu, section 6), carried as
      // v_n = (x_n - x_{n-1}) / h: then v_{n+1} = v_n + h a_n, x_{n+1} = x_n + h v_{n+1}, which is
      // the same recurrence (substitute v) and also symplectic Euler. Carrying v rather than
      // x_{n-1} keeps it right when dt changes live and lets all integrators share ClothState.
      // The two names give identical trajectories unless Verlet's strain limiting is on.
      {
        ScopedTimer timer(assembly_ms);
        all_forces(model, state, ctx, t, bend, force_);
      }
      for (int i = 0; i < n; ++i) {
        state.v[i] += (h / model.mass[i]) * force_[i];
        state.x[i] += h * state.v[i];
      }
      return;
    case Method::Rk4: {
      // k1..k4 of (dx/dt, dv/dt) = (v, M^-1 f(x, v)).
      static constexpr double kStageStep[4] = {0.0, 0.5, 0.5, 1.0};
      stage_ = state;
      for (int k = 0; k < 4; ++k) {
        if (k > 0) {
          for (int i = 0; i < n; ++i) {
            stage_.x[i] = state.x[i] + kStageStep[k] * h * kx_[k - 1][i];
            stage_.v[i] = state.v[i] + kStageStep[k] * h * kv_[k - 1][i];
          }
        }
        {
          ScopedTimer timer(assembly_ms);
          all_forces(model, stage_, ctx, t + kStageStep[k] * h, bend, force_);
        }
        kx_[k] = stage_.v;
        kv_[k].resize(n);
        for (int i = 0; i < n; ++i) {
          // A pinned vertex is not part of the ODE: it must not drift inside the stages either,
          // or the stage derivatives of its neighbours are wrong and RK4 drops to second order.
          if ((*ctx.kinematics.pinned)[i]) {
            kx_[k][i].setZero();
            kv_[k][i].setZero();
          } else {
            kv_[k][i] = force_[i] / model.mass[i];
          }
        }
      }
      for (int i = 0; i < n; ++i) {
        state.x[i] += h / 6 * (kx_[0][i] + 2 * kx_[1][i] + 2 * kx_[2][i] + kx_[3][i]);
        state.v[i] += h / 6 * (kv_[0][i] + 2 * kv_[1][i] + 2 * kv_[2][i] + kv_[3][i]);
      }
      return;
    }
  }
}

}  // namespace cloth
