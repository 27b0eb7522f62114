#include "integrators/explicit_integrators.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "integrators/collision_stage.hpp"
#include "forces/force_jacobians.hpp"
#include "forces/forces.hpp"
#include "forces/internal_forces.hpp"
#include "kinematics/strain_limit.hpp"

namespace cloth {

namespace {

// Everything that acts on the cloth as a force: material, gravity, damping, air and, in spring
// mode, the mouse; without the shape-operator bend and the air where their impulses carry them.
void all_forces(const ClothModel& model, const ClothState& state, const StepContext& ctx, double t,
                BendForces bend, AirForces air, std::vector<Vec3>& f) {
  compute_external_forces(model, state, *ctx.forces, t, f, air);
  add_internal_forces(model, state, f, bend);
  add_grab_spring_force(ctx.kinematics.spring_grab(), state, f);
}

// A step of `substeps` cut into ceil(S / k) intervals of at most k substeps, spread evenly: the
// j-th from substep first(j) to first(j + 1). An interval of 1 cuts nothing: the force it is for
// rides in every substep.
class Intervals {
 public:
  Intervals(int substeps, int longest)
      : substeps_(substeps), count_(longest > 1 ? (substeps + longest - 1) / longest : 0) {}
  bool any() const { return count_ > 0; }
  int count() const { return count_; }
  int first(int j) const { return j * substeps_ / count_; }

 private:
  int substeps_, count_;
};

int interval_in_substeps(double tau, double h, int substeps) {
  return static_cast<int>(std::clamp(std::floor(tau / h), 1.0, double(std::max(substeps, 1))));
}

}  // namespace

int bend_interval(const ClothModel& model, double h, int substeps) {
  if (!std::isfinite(model.bend_rate)) return 1;
  const double omega = std::sqrt(model.material.bending * model.bend_rate);
  const double rate = model.material.bending_damping * model.bend_rate;
  const double tau = 1.0 / std::max({omega, rate, 1e-300});  // the longest impulse interval, s
  return interval_in_substeps(tau, h, substeps);
}

int air_interval(const ClothModel& model, const ClothState& state, const ExternalForces& ext, double dt,
                 int substeps) {
  const AirDrag drag = air_drag(ext, model.material);
  if (!drag.any()) return std::max(substeps, 1);
  const int n = state.vertex_count();
  thread_local std::vector<double> area;  // each vertex's third of its triangles, m^2
  area.assign(size_t(n), 0.0);
  for (const auto& tri : model.mesh.triangles) {
    const Vec3& a = state.x[size_t(tri[0])];
    const double third = (state.x[size_t(tri[1])] - a).cross(state.x[size_t(tri[2])] - a).norm() / 6;
    for (int k : tri) area[size_t(k)] += third;
  }
  double area_per_mass = 0, speed = 0;  // m^2/kg, m/s
  for (int i = 0; i < n; ++i) {
    if (!state.x[i].allFinite() || !state.v[i].allFinite()) return 1;  // for the step's guard to meet
    if (model.mass[i] > 0) area_per_mass = std::max(area_per_mass, area[size_t(i)] / model.mass[i]);
    speed = std::max(speed, state.v[i].norm());
  }
  speed += ext.wind.max_speed() + ext.gravity.norm() * dt;  // relative to any air the step meets
  double shortest = std::numeric_limits<double>::infinity();
  for (const Edge& e : model.edges) shortest = std::min(shortest, (state.x[size_t(e.i)] - state.x[size_t(e.j)]).norm());
  const double rate = (drag.air_density * std::max(drag.drag_normal, drag.drag_tangential) * speed + drag.q) * area_per_mass;
  const double omega = std::sqrt(rate * speed / shortest);
  if (!std::isfinite(rate) || !std::isfinite(omega)) return 1;
  const double tau = 1.0 / std::max({omega, rate / kAirRateBound, 1e-300});  // s
  return interval_in_substeps(tau, dt / std::max(substeps, 1), substeps);
}

StepReport ExplicitIntegrator::step(ClothState& state, const ClothModel& model,
                                    const StepContext& ctx) {
  const double h = ctx.dt / ctx.substeps;
  StepReport report;
  double update_ms = 0;  // substeps including their force evaluations
  // Multiple time stepping, each slow force on its own intervals, cut from the step's start state
  // so that a run replays bit for bit whatever came before.
  const bool splittable = method_ == Method::SymplecticEuler || method_ == Method::Verlet;
  const auto longest = [&](bool present, int setting, auto automatic) {
    return !splittable || !present ? 1 : setting > 0 ? std::min(setting, ctx.substeps) : automatic();
  };
  const Intervals bend(ctx.substeps, longest(!model.bend_triangles.empty(), ctx.solver->bend_interval, [&] {
    return bend_interval(model, h, ctx.substeps);
  }));
  const Intervals air(ctx.substeps, longest(air_drag(*ctx.forces, model.material).any(), ctx.solver->air_interval, [&] {
    return air_interval(model, state, *ctx.forces, ctx.dt, ctx.substeps);
  }));
  const SlowForces kicked{.bend = bend.any(), .air = air.any()};
  // The bend: each interval opened and closed by half its impulse (r-RESPA's symmetric form), the
  // close of one interval and the open of the next one evaluation.
  int bend_opened = 0;
  const auto bend_kick = [&](int substeps) {
    ScopedTimer timer(report.timings.assembly_ms);
    kick_bend(state, model, 0.5 * substeps * h);
  };
  // The air: each interval's impulse is its drag at the interval's mean positions and at the
  // velocity the vertices moved with, (x_close - x_open) / interval, pins, slides and contacts
  // included (the drag depends on the velocity: taken at the interval's last velocity it would be
  // too strong by half the interval's change, and a cloth would fall slower than its terminal
  // speed, Aero.*TerminalVelocity*). Half of it is given ahead at the interval's open, predicted
  // from the previous interval's (the step's first from the step's start state), and the rest at
  // its close: symmetric in time as the bend's impulses, and exact in sum. Prescribed vertices
  // (pins, the mouse's kinematic grab) take no part.
  int air_opened = 0;
  const auto air_span = [&](int j) { return air.first(j + 1) - air.first(j); };
  const auto air_push = [&](double tau) { push_free(state, model, ctx.kinematics, air_ahead_, tau); };
  for (int sub = 0; sub < ctx.substeps; ++sub) {
    {
      ScopedTimer timer(update_ms);
      const Vec3 grab_start = ctx.kinematics.kinematic_grab() ? state.x[ctx.kinematics.grab->vertex] : Vec3::Zero();
      if (ctx.self_collision->enabled) x_start_ = state.x;
      if (air.any() && sub == air.first(air_opened)) {
        ScopedTimer assembly(report.timings.assembly_ms);
        if (air_opened == 0) air_force(state.x, state.v, model, *ctx.forces, ctx.time, air_ahead_);
        air_push(0.5 * air_span(air_opened) * h);
        x_open_ = state.x;
        mean_x_.assign(size_t(state.vertex_count()), Vec3::Zero());
        ++air_opened;
      }
      if (bend.any() && sub == bend.first(bend_opened)) {
        const int closing = bend_opened > 0 ? bend.first(bend_opened) - bend.first(bend_opened - 1) : 0;
        bend_kick(closing + bend.first(bend_opened + 1) - bend.first(bend_opened));
        ++bend_opened;
      }
      substep(state, model, ctx, ctx.time + sub * h, h, kicked, report.timings.assembly_ms);
      if (bend.any() && sub + 1 == ctx.substeps) bend_kick(ctx.substeps - bend.first(bend.count() - 1));
      enforce_pins_and_grab(state, ctx.kinematics, h, grab_start, ctx.time + (sub + 1) * h);
      if (method_ == Method::Verlet && ctx.solver->strain_limit >= 0) {
        limit_strain(state, model, *ctx.kinematics.pinned, ctx.solver->strain_limit, h);
      }
      project_slides(state, ctx.kinematics);  // after the strain limit, which moves vertices too
    }
    end_substep(state, x_start_, model, ctx, ctx.time + (sub + 1) * h, h, report);
    if (!air.any()) continue;
    ScopedTimer assembly(report.timings.assembly_ms);
    for (int i = 0; i < state.vertex_count(); ++i) mean_x_[size_t(i)] += state.x[i];
    if (sub + 1 == air.first(air_opened)) {  // the close of the interval opened last
      const int span = air_span(air_opened - 1);
      mean_v_.resize(size_t(state.vertex_count()));
      for (int i = 0; i < state.vertex_count(); ++i) {
        mean_x_[size_t(i)] /= span;
        mean_v_[size_t(i)] = (state.x[i] - x_open_[size_t(i)]) / (span * h);
      }
      air_push(-0.5 * span * h);  // take back the guess, give the interval's drag
      air_force(mean_x_, mean_v_, model, *ctx.forces, ctx.time + (sub + 1 - 0.5 * span) * h, air_ahead_);
      air_push(span * h);
    }
  }
  report.timings.solve_ms = update_ms - report.timings.assembly_ms;
  return report;
}

void ExplicitIntegrator::kick_bend(ClothState& state, const ClothModel& model, double tau) {
  bend_force_.assign(size_t(state.vertex_count()), Vec3::Zero());
  add_bend_forces(model, state, bend_force_);
  push(state, model, bend_force_, tau);
}

void ExplicitIntegrator::air_force(const std::vector<Vec3>& x, const std::vector<Vec3>& v, const ClothModel& model,
                                   const ExternalForces& ext, double t, std::vector<Vec3>& f) {
  f.assign(x.size(), Vec3::Zero());
  add_aero_forces(model.mesh.triangles, x, v, air_drag(ext, model.material), ext.wind, t, aero_scratch_, f);
}

void ExplicitIntegrator::push(ClothState& state, const ClothModel& model, const std::vector<Vec3>& f, double tau) {
  for (int i = 0; i < state.vertex_count(); ++i) state.v[i] += (tau / model.mass[i]) * f[size_t(i)];
}

void ExplicitIntegrator::push_free(ClothState& state, const ClothModel& model, const Kinematics& kinematics,
                                   const std::vector<Vec3>& f, double tau) {
  const Grab* grab = kinematics.kinematic_grab();
  for (int i = 0; i < state.vertex_count(); ++i) {
    if ((*kinematics.pinned)[size_t(i)] || (grab && grab->vertex == i)) continue;
    state.v[i] += (tau / model.mass[i]) * f[size_t(i)];
  }
}

void ExplicitIntegrator::substep(ClothState& state, const ClothModel& model, const StepContext& ctx,
                                 double t, double h, SlowForces kicked, double& assembly_ms) {
  const int n = state.vertex_count();
  const BendForces bend = kicked.bend ? BendForces::Excluded : BendForces::Included;
  const AirForces air = kicked.air ? AirForces::Excluded : AirForces::Included;
  switch (method_) {
    case Method::ForwardEuler:
      {
        ScopedTimer timer(assembly_ms);
        all_forces(model, state, ctx, t, bend, air, force_);
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
        all_forces(model, state, ctx, t, bend, air, force_);
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
          all_forces(model, stage_, ctx, t + kStageStep[k] * h, bend, air, force_);
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
