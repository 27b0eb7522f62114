// XPBD (Macklin, Müller & Chentanez 2016) with the small-steps scheme of Macklin et al. 2019;
// see xpbd_integrator.hpp for the update equations and how compliance maps onto each model.
#include "integrators/xpbd_integrator.hpp"

#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <string>

#include "integrators/collision_stage.hpp"
#include "forces/forces.hpp"
#include "elements/bw_conditions.hpp"
#include "kinematics/kinematics.hpp"
#include "core/parallel.hpp"
#include "integrators/step_timings.hpp"

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

// `padded` from x, (x, y, z, 0) per vertex, then each of `tiles` tiles' spare spring: padded_prev_
// from x_prev_ (once per substep), padded_x_ from state.x (at the start of the passes, and after
// the other constraints wrote x).
void pad(const std::vector<Vec3>& x, int tiles, std::vector<Eigen::Vector4d>& padded) {
  padded.resize(x.size() + 2 * size_t(tiles));
  for (size_t i = 0; i < x.size(); ++i) padded[i] << x[i], 0.0;
  // Each tile's spare spring, 1 m long and not moving: a finite update of zero for its batches'
  // filler lanes (a tile of its own, so that the tiles running at once never write the same
  // vertex).
  for (size_t i = x.size(); i < padded.size(); i += 2) {
    padded[i].setZero();
    padded[i + 1] << 1.0, 0.0, 0.0, 0.0;
  }
}

}  // namespace

void XpbdIntegrator::prepare_springs(const ClothModel& model, double h, bool compare_springs) {
  const std::vector<Spring>& springs = model.springs;
  bool same_topology = prepared_springs_.size() == springs.size();
  bool same_constants = same_topology && h == prepared_h_ && inv_mass_ == prepared_inv_mass_;
  for (size_t k = 0; compare_springs && same_topology && k < springs.size(); ++k) {
    const Spring& s = springs[k];
    const Spring& p = prepared_springs_[k];
    same_topology = s.i == p.i && s.j == p.j;
    same_constants = same_constants && s.rest == p.rest && s.k == p.k && s.kd == p.kd;
  }
  same_constants = same_constants && same_topology;
  if (same_constants) {  // the usual case: only the multipliers start again
    for (SpringBatch& b : spring_batches_) b.lambda.setZero();
    return;
  }
  prepared_springs_ = springs;
  prepared_inv_mass_ = inv_mass_;
  prepared_h_ = h;
  if (!same_topology) {
    spring_tiles_ = SpringTiles(springs, model.vertex_count(), kTileVertices);
    // Each group in batches, its last one filled up with lanes of its tile's spare spring.
    const SpringTiles& tiles = spring_tiles_;
    lane_springs_.clear();
    batch_start_.assign(1, 0);
    for (int t = 0; t < tiles.tile_count(); ++t) {
      const int first_group = tiles.tile_group_start[size_t(t)];
      for (int g = first_group; g < tiles.tile_group_start[size_t(t) + 1]; ++g) {
        for (int m = tiles.group_start[size_t(g)]; m < tiles.group_start[size_t(g) + 1]; ++m) {
          lane_springs_.push_back(tiles.order[size_t(m)]);
        }
        while (lane_springs_.size() % kLanes != 0) lane_springs_.push_back(-1 - t);
        batch_start_.push_back(static_cast<int>(lane_springs_.size() / kLanes));
      }
    }
  }
  // Springs (Yu): C = |x_i - x_j| - rest, grad = (d, -d), E = k/2 C^2 => alpha = 1/k; the
  // axial damping -k_d (v_ij . d) d is Rayleigh damping of C with beta = k_d. Stiffness and
  // damping are compared every step, inverse masses every substep (sliders, pins and grabs change
  // them).
  // project()'s A = (1 + gamma) grad^T W grad + alpha~ is (1 + gamma)(w_i + w_j) + alpha~ here
  // (|d| = 1), constant over the substep's passes.
  const double inv_h = 1.0 / h;
  const int vertices = static_cast<int>(inv_mass_.size());  // the spare vertices come after
  spring_batches_.resize(lane_springs_.size() / kLanes);
  for (size_t lane = 0; lane < lane_springs_.size(); ++lane) {
    SpringBatch& b = spring_batches_[lane / kLanes];
    const int l = static_cast<int>(lane % kLanes);
    b.lambda[l] = 0;
    const int index = lane_springs_[lane];
    b.rest[l] = b.alpha_tilde[l] = b.gamma[l] = b.inv_a[l] = b.w_i[l] = b.w_j[l] = 0;
    if (index < 0) {  // tile -1 - index's spare spring
      b.i[size_t(l)] = vertices + 2 * (-1 - index);
      b.j[size_t(l)] = b.i[size_t(l)] + 1;
      continue;
    }
    const Spring& s = springs[size_t(index)];
    b.i[size_t(l)] = s.i;
    b.j[size_t(l)] = s.j;
    const double compliance = 1.0 / s.k;
    const double alpha_tilde = compliance * inv_h * inv_h;
    const double gamma = s.kd * compliance * inv_h;
    const double w = inv_mass_[size_t(s.i)] + inv_mass_[size_t(s.j)];
    const double a = (1 + gamma) * w + alpha_tilde;
    // No stiffness (infinite compliance), both ends fixed or a damping that would make A
    // non-positive: the spring is skipped (as project() skips such a component), its lane left
    // all zero, whose update is a finite zero.
    if (!(s.k > 0 && w > 0 && 1 + gamma > 0 && std::isfinite(a))) continue;
    b.rest[l] = s.rest;
    b.alpha_tilde[l] = alpha_tilde;
    b.gamma[l] = gamma;
    b.inv_a[l] = 1.0 / a;
    b.w_i[l] = inv_mass_[size_t(s.i)];
    b.w_j[l] = inv_mass_[size_t(s.j)];
  }
}

void XpbdIntegrator::unpad_positions(std::vector<Vec3>& x) const {
  for (size_t i = 0; i < x.size(); ++i) x[i] = padded_x_[i].head<3>();
}

void XpbdIntegrator::project_springs(int threads) {
  // The one-component case of project(), written out on the padded positions for the springs
  // of a batch at once: its arithmetic on scalars (among them one square root and one division,
  // each several cycles of the divider) is done once per batch in arrays of kLanes. The batch's
  // springs share no vertex (one group), so they read the positions that one update after the
  // other would have read: the same bits as that. d and moved have a zero fourth component, and
  // the positions keep theirs.
  Eigen::Vector4d* x = padded_x_.data();
  const Eigen::Vector4d* prev = padded_prev_.data();
  const auto update = [x, prev](SpringBatch& b) {
    std::array<Eigen::Vector4d, kLanes> d;
    Lanes squared_length, d_dot_moved;
    for (int k = 0; k < kLanes; ++k) {
      const size_t i = size_t(b.i[size_t(k)]), j = size_t(b.j[size_t(k)]);
      d[size_t(k)] = x[i] - x[j];
      const Eigen::Vector4d moved = d[size_t(k)] - (prev[i] - prev[j]);
      squared_length[k] = d[size_t(k)].squaredNorm();
      d_dot_moved[k] = d[size_t(k)].dot(moved);
    }
    const Lanes length = squared_length.sqrt();
    const Lanes inv_length = length.inverse();
    Lanes dlambda =
        (b.rest - length - b.alpha_tilde * b.lambda - b.gamma * inv_length * d_dot_moved) * b.inv_a;
    const Lanes step = dlambda * inv_length;  // x_i += w_i dlambda n, n = d / length
    Lanes step_i = b.w_i * step, step_j = b.w_j * step;
    // Left out: coincident ends (no direction, as spring_force_on_i) and any lane whose update is
    // not finite (a blow-up; then so is step_i or step_j, or 0 * inf made it NaN). Rare, so the
    // batch is tested at once ((step_i - step_j) * 0 is NaN where either is not finite) and fixed
    // up lane by lane, to a correction of exactly zero.
    if (!(length.minCoeff() >= 1e-12) || std::isnan(((step_i - step_j) * 0.0).sum())) {
      for (int k = 0; k < kLanes; ++k) {
        if (length[k] >= 1e-12 && std::isfinite(dlambda[k]) && std::isfinite(step_i[k]) &&
            std::isfinite(step_j[k])) {
          continue;
        }
        dlambda[k] = step_i[k] = step_j[k] = 0;
        d[size_t(k)].setZero();
      }
    }
    b.lambda += dlambda;
    // A fixed end (w = 0), a left-out or a filler lane gets a correction of zero: added all the
    // same (no branch), which leaves the position as it is (up to the sign of a zero coordinate).
    for (int k = 0; k < kLanes; ++k) {
      x[size_t(b.i[size_t(k)])] += step_i[k] * d[size_t(k)];
      x[size_t(b.j[size_t(k)])] -= step_j[k] * d[size_t(k)];
    }
  };
  // SpringTiles: the same result on any number of threads.
  spring_tiles_.for_each_group(threads, [&](int g) {
    for (int b = batch_start_[size_t(g)]; b < batch_start_[size_t(g) + 1]; ++b) {
      update(spring_batches_[size_t(b)]);
    }
  });
}

void XpbdIntegrator::project_constraints(ClothState& state, const ClothModel& model,
                                         const Grab* spring, double h, int threads) {
  Pass pass{inv_mass_, x_prev_, state.x, h};
  double* lambda = lambda_.data();
  if (padded_) project_springs(threads);
  // The elements read and write ClothState::x: the springs' positions go there and come back.
  const bool elements = !model.bw_triangles.empty() || !model.bw_bends.empty();
  if (padded_ && elements) unpad_positions(state.x);
  // Baraff-Witkin (1998, sec. 4): the kernels' own conditions. The element energies are
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
    const Condition<12, 1> c = bend_condition(e, state.x, /*hessian=*/false);
    project(c.value, c.grad, e.v, 1.0 / (s * m.bending), s * m.bending_damping, pass, l);
  }
  assert(lambda == lambda_.data() + lambda_.size());
  if (padded_ && elements) pad(state.x, spring_tiles_.tile_count(), padded_x_);
  // The mouse spring f = k (target - x) - c v as the constraint C = x_g - target (grad = I, three
  // components), alpha = 1/k, beta = c (Ċ = v: the target is fixed within a substep). Last in the
  // pass, so that it ends with C = -alpha~ lambda exactly: at rest h^2 k C balances the impulse
  // h^2 M g that the prediction gave the whole cloth (the material constraints move no momentum),
  // and the extension is M g / k as for the force-based integrators.
  if (spring) {
    Vec3& grabbed = state.x[spring->vertex];
    if (padded_) grabbed = padded_x_[size_t(spring->vertex)].head<3>();
    project<3, 3, 1>(grabbed - spring->target, Eigen::Matrix3d::Identity(),
                     std::array<int, 1>{spring->vertex}, 1.0 / spring->settings.stiffness,
                     spring->settings.damping, pass, grab_lambda_.data());
    if (padded_) padded_x_[size_t(spring->vertex)].head<3>() = grabbed;
  }
}

StepReport XpbdIntegrator::step(ClothState& state, const ClothModel& model, const StepContext& ctx) {
  const int n = state.vertex_count();
  const double h = ctx.dt / ctx.substeps;
  const std::vector<std::uint8_t>& pinned = *ctx.kinematics.pinned;
  StepReport report;
  double update_ms = 0;  // prediction, pins, constraint projection and velocities
  for (int sub = 0; sub < ctx.substeps; ++sub) {
    {
      ScopedTimer timer(update_ms);
      const Vec3 grab_start = ctx.kinematics.kinematic_grab() ? state.x[ctx.kinematics.grab->vertex] : Vec3::Zero();
      // Prediction: symplectic Euler with the external forces only (2016 Algorithm 1, lines 3-4).
      {
        ScopedTimer assembly(report.timings.assembly_ms);
        compute_external_forces(model, state, *ctx.forces, ctx.time + sub * h, force_);
      }
      x_prev_ = state.x;
      for (int i = 0; i < n; ++i) {
        if (pinned[i]) continue;
        state.v[i] += (h / model.mass[i]) * force_[i];
        state.x[i] += h * state.v[i];
      }
      // Pins exactly on their pins, a kinematic grab at its destination: both infinitely heavy
      // for the constraints, so they pull their neighbours along and are not moved by them.
      enforce_pins_and_grab(state, ctx.kinematics, h, grab_start, ctx.time + (sub + 1) * h);
      inv_mass_.resize(n);
      for (int i = 0; i < n; ++i) inv_mass_[i] = pinned[i] ? 0.0 : 1.0 / model.mass[i];
      if (const Grab* grab = ctx.kinematics.kinematic_grab()) inv_mass_[grab->vertex] = 0;
      prepare_springs(model, h, /*compare_springs=*/sub == 0);

      lambda_.assign(element_constraint_count(model), 0.0);
      grab_lambda_.setZero();
      padded_ = !model.springs.empty();
      if (padded_) {
        pad(x_prev_, spring_tiles_.tile_count(), padded_prev_);
        pad(state.x, spring_tiles_.tile_count(), padded_x_);
      }
      for (int it = 0; it < ctx.solver->xpbd_iterations; ++it) {
        project_constraints(state, model, ctx.kinematics.spring_grab(), h, ctx.solver->threads);
      }
      if (padded_) unpad_positions(state.x);
      attachments_.enforce(model, *ctx.kinematics.pinned, ctx.solver->long_range_slack, state.x);
      project_slides(state, ctx.kinematics);  // before the velocities, which then only move along them

      // Velocities from the positions (2016 Algorithm 1, line 13); pinned and kinematically
      // grabbed vertices keep the velocities enforce_pins_and_grab gave them (their positions did
      // not change since).
      for (int i = 0; i < n; ++i) {
        if (inv_mass_[i] > 0) state.v[i] = (state.x[i] - x_prev_[i]) / h;
      }
    }
    end_substep(state, x_prev_, model, ctx, ctx.time + (sub + 1) * h, h, report);
  }
  report.timings.solve_ms = update_ms - report.timings.assembly_ms;
  return report;
}

}  // namespace cloth
