// Vertex Block Descent (Chen, Liu, Yang & Yuksel 2024); see vbd_integrator.hpp for the objective,
// the iteration and what it supports.
#include "integrators/vbd_integrator.hpp"

#include <algorithm>
#include <cmath>

#include "core/parallel.hpp"
#include "forces/forces.hpp"
#include "integrators/collision_stage.hpp"
#include "integrators/step_timings.hpp"
#include "kinematics/kinematics.hpp"

namespace cloth {

namespace {

// A colour's vertices in runs of this many, one task each: a colour of a 64^2 grid has about 300
// vertices, under parallel_for's threshold, yet each vertex's Newton step evaluates ~20 elements.
constexpr int kVerticesPerTask = 32;
// H_i is m/h^2 I plus semidefinite terms; a determinant this small relative to its trace's cube
// means a massless or non-finite vertex, which is left where it is (the paper's det check).
constexpr double kSingularRatio = 1e-14;

// max_i |a_i - b_i| over the free vertices, m.
double largest_move(const std::vector<Vec3>& a, const std::vector<Vec3>& b, const std::vector<char>& fixed) {
  double most = 0;
  for (size_t k = 0; k < a.size(); ++k)
    if (!fixed[k]) most = std::max(most, (a[k] - b[k]).norm());
  return most;
}

}  // namespace

void VbdIntegrator::descend(ClothState& state, const ClothModel& model, const StepContext& ctx, int i, double h) {
  const size_t k = size_t(i);
  const double m = model.mass[k];
  const double c = model.material.velocity_damping;
  VertexBlock block;
  const auto [begin, end] = elements_.of(i);
  for (const VertexElements::Entry* e = begin; e != end; ++e) add_vertex_block(model, state, hinge_cache_, i, *e, block);
  Vec3 f = block.force - (m / (h * h)) * (state.x[k] - y_[k]) - m * c * state.v[k];
  Eigen::Matrix3d hessian = block.stiffness + block.damping / h;
  hessian.diagonal().array() += m / (h * h) + m * c / h;
  if (const Grab* grab = ctx.kinematics.spring_grab(); grab && grab->vertex == i) {
    f += grab->settings.stiffness * (grab->target - state.x[k]) - grab->settings.damping * state.v[k];
    hessian.diagonal().array() += grab->settings.stiffness + grab->settings.damping / h;
  }
  const double scale = hessian.trace() / 3;
  const double det = hessian.determinant();
  if (!(det > kSingularRatio * scale * scale * scale)) return;
  state.x[k] += hessian.inverse() * f;
  state.v[k] = (state.x[k] - x0_[k]) / h;
  const auto [first, last] = elements_.hinges_of(i);
  for (const int* hinge = first; hinge != last; ++hinge) update_bend_hinge(model, state, *hinge, hinge_cache_);
}

StepReport VbdIntegrator::step(ClothState& state, const ClothModel& model, const StepContext& ctx) {
  const int n = state.vertex_count();
  const double h = ctx.dt / ctx.substeps;
  const int iterations = ctx.solver->vbd_iterations;
  const double rho = ctx.solver->chebyshev_rho;
  const int threads = ctx.solver->threads;
  StepReport report;
  {
    ScopedTimer timer(report.timings.assembly_ms);
    if (!elements_.same_topology(model)) {
      elements_ = VertexElements(model);
      acceleration_.clear();
    }
    fixed_.assign(ctx.kinematics.pinned->begin(), ctx.kinematics.pinned->end());
    if (const Grab* grab = ctx.kinematics.kinematic_grab()) fixed_[size_t(grab->vertex)] = 1;
    if (acceleration_.size() != size_t(n)) acceleration_.assign(size_t(n), Vec3::Zero());
  }
  for (int sub = 0; sub < ctx.substeps; ++sub) {
    const double t = ctx.time + sub * h;
    {
      ScopedTimer timer(report.timings.assembly_ms);
      // f_ext without the velocity damping -m c v0, which descend takes implicitly.
      compute_external_forces(model, state, *ctx.forces, t, f_ext_);
      for (int i = 0; i < n; ++i) f_ext_[size_t(i)] += model.mass[i] * model.material.velocity_damping * state.v[i];
    }
    {
      ScopedTimer timer(report.timings.solve_ms);
      const Vec3 grab_start = ctx.kinematics.kinematic_grab() ? state.x[ctx.kinematics.grab->vertex] : Vec3::Zero();
      x0_ = state.x;
      v0_ = state.v;
      y_.resize(size_t(n));
      for (int i = 0; i < n; ++i) {
        const size_t k = size_t(i);
        if (fixed_[k]) continue;
        const Vec3 inertia = x0_[k] + h * v0_[k];
        const Vec3 a_ext = f_ext_[k] / model.mass[k];
        y_[k] = inertia + h * h * a_ext;
        // The adaptive initialisation: the share of a_ext the vertex already accelerated along.
        const double a_norm = a_ext.norm();
        const double along = a_norm > 0 ? std::clamp(acceleration_[k].dot(a_ext) / a_norm, 0.0, a_norm) : 0.0;
        state.x[k] = inertia + (a_norm > 0 ? Vec3((h * h * along / a_norm) * a_ext) : Vec3::Zero());
      }
      enforce_pins_and_grab(state, ctx.kinematics, h, grab_start, t + h);
      for (int i = 0; i < n; ++i) {
        if (!fixed_[size_t(i)]) state.v[i] = (state.x[i] - x0_[size_t(i)]) / h;
      }
      last_ = state.x;
      update_bend_hinges(model, state, hinge_cache_);
      double omega = 1;
      double first_move = 0;
      for (int iteration = 1; iteration <= iterations; ++iteration) {
        for (const std::vector<int>& colour : elements_.colours()) {
          const int size = static_cast<int>(colour.size());
          const int tasks = (size + kVerticesPerTask - 1) / kVerticesPerTask;
          parallel_tasks(tasks, threads, tasks > 1, [&](int task) {
            const int stop = std::min(size, (task + 1) * kVerticesPerTask);
            for (int a = task * kVerticesPerTask; a < stop; ++a) {
              const int i = colour[size_t(a)];
              if (!fixed_[size_t(i)]) descend(state, model, ctx, i, h);
            }
          });
        }
        if (iteration == 1) first_move = largest_move(state.x, last_, fixed_);
        // Chebyshev over-relaxation (sec. 3.8) from the second iteration on.
        if (rho > 0 && iteration >= 2) {
          omega = iteration == 2 ? 2 / (2 - rho * rho) : 4 / (4 - rho * rho * omega);
          for (int i = 0; i < n; ++i) {
            const size_t k = size_t(i);
            if (fixed_[k]) continue;
            state.x[k] = omega * (state.x[k] - before_last_[k]) + before_last_[k];
            state.v[k] = (state.x[k] - x0_[k]) / h;
          }
          update_bend_hinges(model, state, hinge_cache_);
        }
        before_last_.swap(last_);
        last_ = state.x;
      }
      report.solver_iterations += iterations;
      report.last_move_ratio = first_move > 0 ? largest_move(last_, before_last_, fixed_) / first_move : 0.0;
      attachments_.enforce(model, *ctx.kinematics.pinned, ctx.solver->long_range_slack, state.x);
      project_slides(state, ctx.kinematics);  // before the velocities, which then only move along them
      for (int i = 0; i < n; ++i) {
        const size_t k = size_t(i);
        if (fixed_[k]) continue;
        state.v[k] = (state.x[k] - x0_[k]) / h;
        acceleration_[k] = (state.v[k] - v0_[k]) / h;
      }
    }
    end_substep(state, x0_, model, ctx, t + h, h, report);
  }
  return report;
}

}  // namespace cloth
