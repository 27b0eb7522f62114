// Projective dynamics (Liu et al. 2013; Bouaziz et al. 2014) with Chebyshev acceleration (Wang
// 2015); see projective_integrator.hpp for the objective, the iteration and what it supports.
#include "integrators/projective_integrator.hpp"

#include <Eigen/SparseCore>

#include "core/error.hpp"
#include "forces/forces.hpp"
#include "integrators/collision_stage.hpp"
#include "integrators/step_timings.hpp"
#include "kinematics/kinematics.hpp"

namespace cloth {

namespace {

// Wang 2015 starts the acceleration after S plain iterations. S = 2: the first iterate x0 + h v0
// differs from the second even where that one is already the minimiser (a free fall, whose
// first iteration is exact), and extrapolating from the pair would leave the minimiser; from the
// second and third on, a converged iterate stays put.
constexpr int kChebyshevDelay = 2;

}  // namespace

bool ProjectiveIntegrator::Key::operator==(const Key& o) const {
  if (h != o.h || mass != o.mass || fixed != o.fixed || grab_vertex != o.grab_vertex ||
      grab_k != o.grab_k || grab_c != o.grab_c || springs.size() != o.springs.size()) {
    return false;
  }
  for (size_t s = 0; s < springs.size(); ++s) {
    const DistanceConstraint& a = springs[s];
    const DistanceConstraint& b = o.springs[s];
    if (a.i != b.i || a.j != b.j || a.rest != b.rest || a.k != b.k || a.kd != b.kd) return false;
  }
  return true;
}

const std::vector<Spring>& ProjectiveIntegrator::classic_bend_springs(const ClothModel& model) {
  if (model.mesh.triangles != bend_springs_triangles_) {
    bend_springs_ = build_springs(model.mesh);
    std::erase_if(bend_springs_, [](const Spring& s) { return s.type != SpringType::Bend; });
    bend_springs_triangles_ = model.mesh.triangles;
  }
  apply_spring_material(bend_springs_, model.material);
  return bend_springs_;
}

void ProjectiveIntegrator::prepare(const ClothModel& model, const StepContext& ctx, double h) {
  const int n = model.vertex_count();
  Key& key = next_key_;
  key.h = h;
  key.mass = model.mass;
  key.springs.clear();
  for (const Spring& spring : model.springs) key.springs.push_back({spring.i, spring.j, spring.rest, spring.k, spring.kd});
  if (!model.bend_triangles.empty()) {
    for (const Spring& spring : classic_bend_springs(model))
      key.springs.push_back({spring.i, spring.j, spring.rest, spring.k, spring.kd});
  }
  key.fixed.assign(ctx.kinematics.pinned->begin(), ctx.kinematics.pinned->end());
  if (const Grab* grab = ctx.kinematics.kinematic_grab()) key.fixed[size_t(grab->vertex)] = 1;
  const Grab* spring = ctx.kinematics.spring_grab();
  key.grab_vertex = spring && !key.fixed[size_t(spring->vertex)] ? spring->vertex : -1;
  key.grab_k = spring ? spring->settings.stiffness : 0;
  key.grab_c = spring ? spring->settings.damping : 0;
  if (spring) grab_target_ = spring->target;
  if (factorizations_ > 0 && key == key_) return;
  std::swap(key_, next_key_);

  // The free vertices' rows, and M/h^2 + sum_s (k_s + kd_s/h) A_s^T A_s on them (the fixed
  // vertices' columns go to the right side, local_global).
  row_.assign(size_t(n), -1);
  int rows = 0;
  for (int i = 0; i < n; ++i) {
    if (!key_.fixed[size_t(i)]) row_[size_t(i)] = rows++;
  }
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(size_t(rows) + 4 * key_.springs.size());
  for (int i = 0; i < n; ++i) {
    if (row_[size_t(i)] >= 0) entries.emplace_back(row_[size_t(i)], row_[size_t(i)], key_.mass[size_t(i)] / (h * h));
  }
  for (const DistanceConstraint& s : key_.springs) {
    const double w = s.k + s.kd / h;
    const int a = row_[size_t(s.i)], b = row_[size_t(s.j)];
    if (a >= 0) entries.emplace_back(a, a, w);
    if (b >= 0) entries.emplace_back(b, b, w);
    if (a >= 0 && b >= 0) {
      entries.emplace_back(a, b, -w);
      entries.emplace_back(b, a, -w);
    }
  }
  if (key_.grab_vertex >= 0) {
    const int g = row_[size_t(key_.grab_vertex)];
    entries.emplace_back(g, g, key_.grab_k + key_.grab_c / h);
  }
  matrix_.resize(rows, rows);
  matrix_.setFromTriplets(entries.begin(), entries.end());  // duplicates are summed
  factor_.compute(matrix_);
  ++factorizations_;
  // M/h^2 > 0 on the diagonal and the springs' Laplacian is semidefinite: a failure means
  // non-finite or non-positive masses or stiffnesses, which validation rules out.
  if (factor_.info() != Eigen::Success) throw InputError("projective: the global matrix is not positive definite");
}

void ProjectiveIntegrator::local_global(const std::vector<Vec3>& x, std::vector<Vec3>& next) {
  const int n = static_cast<int>(x.size());
  const int rows = static_cast<int>(factor_.rows());
  const double h = key_.h;
  rhs_.resize(rows, 3);
  for (int i = 0; i < n; ++i) {
    const int r = row_[size_t(i)];
    if (r >= 0) rhs_.row(r) = (key_.mass[size_t(i)] / (h * h)) * y_[size_t(i)].transpose();
  }
  for (const DistanceConstraint& s : key_.springs) {
    const int a = row_[size_t(s.i)], b = row_[size_t(s.j)];
    if (a < 0 && b < 0) continue;
    // k A^T p (local step) + kd/h A^T A x0 (damping); a fixed end's column (k + kd/h) x_fixed.
    const Vec3 force = s.k * project_distance(x[size_t(s.i)] - x[size_t(s.j)], s.rest) +
                       (s.kd / h) * (x0_[size_t(s.i)] - x0_[size_t(s.j)]);
    const double w = s.k + s.kd / h;
    if (a >= 0) rhs_.row(a) += (b >= 0 ? force : Vec3(force + w * x[size_t(s.j)])).transpose();
    if (b >= 0) rhs_.row(b) += (a >= 0 ? Vec3(-force) : Vec3(-force + w * x[size_t(s.i)])).transpose();
  }
  if (key_.grab_vertex >= 0) {
    const int g = key_.grab_vertex;
    rhs_.row(row_[size_t(g)]) += (key_.grab_k * grab_target_ + (key_.grab_c / h) * x0_[size_t(g)]).transpose();
  }
  if (rows > 0) solution_ = factor_.solve(rhs_);  // every vertex fixed: nothing to solve
  next.resize(size_t(n));
  for (int i = 0; i < n; ++i) {
    const int r = row_[size_t(i)];
    next[size_t(i)] = r >= 0 ? Vec3(solution_.row(r).transpose()) : x[size_t(i)];
  }
}

double ProjectiveIntegrator::objective(const std::vector<Vec3>& x) const {
  const double h = key_.h;
  double phi = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    if (!key_.fixed[i]) phi += key_.mass[i] / (2 * h * h) * (x[i] - y_[i]).squaredNorm();
  }
  for (const DistanceConstraint& s : key_.springs) {
    const Vec3 d = x[size_t(s.i)] - x[size_t(s.j)];
    const double e = d.norm() - s.rest;
    phi += 0.5 * s.k * e * e + s.kd / (2 * h) * (d - (x0_[size_t(s.i)] - x0_[size_t(s.j)])).squaredNorm();
  }
  if (key_.grab_vertex >= 0) {
    const size_t g = size_t(key_.grab_vertex);
    phi += 0.5 * key_.grab_k * (x[g] - grab_target_).squaredNorm() +
           key_.grab_c / (2 * h) * (x[g] - x0_[g]).squaredNorm();
  }
  return phi;
}

StepReport ProjectiveIntegrator::step(ClothState& state, const ClothModel& model, const StepContext& ctx) {
  const int n = state.vertex_count();
  const double h = ctx.dt / ctx.substeps;
  const int iterations = ctx.solver->projective_iterations;
  const double rho = ctx.solver->chebyshev_rho;
  StepReport report;
  {
    ScopedTimer timer(report.timings.assembly_ms);
    prepare(model, ctx, h);  // the model, pins and grab are the same over the step's substeps
  }
  for (int sub = 0; sub < ctx.substeps; ++sub) {
    const double t = ctx.time + sub * h;
    {
      ScopedTimer timer(report.timings.assembly_ms);
      compute_external_forces(model, state, *ctx.forces, t, force_);
    }
    {
      ScopedTimer timer(report.timings.solve_ms);
      const Vec3 grab_start = ctx.kinematics.kinematic_grab() ? state.x[ctx.kinematics.grab->vertex] : Vec3::Zero();
      // The inertial target y = x0 + h v0 + h^2 M^-1 f_ext, and the first iterate x0 + h v0; the
      // fixed vertices where their constraints put them at the end of the substep (y there is their
      // position). Starting without the forces' share makes a static equilibrium (v0 = 0, the
      // springs' forces balancing f_ext at x0) a fixed point of every iteration, so a cloth at rest
      // rests where the model says whatever the iteration count; from y it would come to rest short
      // of it (a truncated minimisation from y never returns to x0).
      x0_ = state.x;
      for (int i = 0; i < n; ++i) {
        if (!key_.fixed[size_t(i)]) state.x[i] += h * state.v[i];
      }
      enforce_pins_and_grab(state, ctx.kinematics, h, grab_start, t + h);
      y_ = state.x;
      for (int i = 0; i < n; ++i) {
        if (!key_.fixed[size_t(i)]) y_[size_t(i)] += (h * h / model.mass[i]) * force_[i];
      }
      objective_history_.clear();
      if (record_objective_) objective_history_.push_back(objective(state.x));
      // Wang 2015 eq. 12: previous_ is x^{k-1}, state.x is x^k, next_ the local-global xhat^{k+1};
      // omega = 1 (plain iterations) for the first kChebyshevDelay.
      previous_ = state.x;
      double omega = 1;
      for (int k = 0; k < iterations; ++k) {
        local_global(state.x, next_);
        if (rho > 0 && k >= kChebyshevDelay) {
          omega = k == kChebyshevDelay ? 2 / (2 - rho * rho) : 4 / (4 - rho * rho * omega);
          for (int i = 0; i < n; ++i) next_[size_t(i)] = omega * (next_[size_t(i)] - previous_[size_t(i)]) + previous_[size_t(i)];
        }
        previous_.swap(state.x);
        state.x.swap(next_);
        if (record_objective_) objective_history_.push_back(objective(state.x));
      }
      report.solver_iterations += iterations;
      project_slides(state, ctx.kinematics);  // before the velocities, which then only move along them
      // Backward Euler's velocity; the fixed vertices keep what enforce_pins_and_grab gave them.
      for (int i = 0; i < n; ++i) {
        if (!key_.fixed[size_t(i)]) state.v[i] = (state.x[i] - x0_[size_t(i)]) / h;
      }
    }
    end_substep(state, x0_, model, ctx, t + h, h, report);
  }
  return report;
}

}  // namespace cloth
