#include "simulation/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <optional>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "core/parallel.hpp"

namespace cloth {

Simulation::Simulation(ClothModel model, std::vector<Collider> colliders,
                       std::vector<int> pinned_vertices, SolverSettings solver, Vec3 gravity)
    : model_(std::move(model)), colliders_(std::move(colliders)), pins_(model_.vertex_count(), pinned_vertices),
      tearing_(model_.mesh), stretch_triangles_(build_stretch_shear(model_.mesh)),
      self_collider_(model_.mesh) {
  initial_state_.x = model_.mesh.positions;
  initial_state_.v.assign(size_t(model_.vertex_count()), Vec3::Zero());
  state_ = initial_state_;
  mouse_.set_vertex_count(model_.vertex_count());
  set_solver(solver);
  set_gravity(gravity);
  reset();
}

void Simulation::set_material(const SpringMaterial& material) {
  cloth::set_material(model_, material);
  end_recovery();
  update_auto_substeps();
}

void Simulation::check_supported(IntegratorType integrator, ModelType type) {
  // XPBD projects each element's condition C with compliance 1/k (E = k/2 C^2); only the springs'
  // and Baraff-Witkin's energies have that form.
  if (integrator == IntegratorType::Xpbd && type != ModelType::Springs && type != ModelType::BaraffWitkin) {
    throw InputError(std::string("integrator xpbd supports the springs and baraff-witkin models, not ") +
                     name_of(type));
  }
  // Projective dynamics needs a projection for each energy term; the springs have one (Liu et al.
  // 2013), the other models' terms (areas, dihedral and angular bends, Breen's curves) are not
  // written as projections here.
  if (integrator == IntegratorType::Projective && type != ModelType::Springs) {
    throw InputError(std::string("integrator projective supports the springs model, not ") + name_of(type));
  }
}

void Simulation::set_model_type(ModelType type) {
  if (type == model_.type) return;
  check_supported(solver_.integrator, type);
  if (tearing_.settings().enabled && !model_supports_tearing(type)) {
    throw InputError(std::string("model ") + name_of(type) + " cannot tear: turn tearing off first");
  }
  model_ = build_model(model_.mesh, model_.material, type);  // throws before anything changes
  tearing_.forget_edges();
  end_recovery();
  update_auto_substeps();
}

int Simulation::default_substeps(IntegratorType integrator) {
  if (is_explicit(integrator)) return 0;
  return integrator == IntegratorType::Xpbd ? 20 : 1;
}

void Simulation::set_solver(const SolverSettings& settings) {
  validate_solver(settings);
  SolverSettings solver = settings;
  if (solver.threads == 0) solver.threads = machine_threads();
  check_supported(solver.integrator, model_.type);
  const auto own = [&](IntegratorType i) -> std::optional<int>& { return substeps_of_[size_t(i)]; };
  if (!integrator_) {
    own(solver.integrator) = solver.substeps;  // the scene's
  } else if (solver.integrator != solver_.integrator) {
    own(solver_.integrator) = solver_.substeps;
    if (solver.substeps == solver_.substeps) {
      solver.substeps = own(solver.integrator).value_or(default_substeps(solver.integrator));
    }
  }
  if (!integrator_ || solver.integrator != solver_.integrator) {
    integrator_ = make_integrator(solver.integrator);  // throws before anything changes
  }
  // A new largest step or a switch to adaptivity starts the controller from the largest step.
  if (solver.dt != solver_.dt || solver.adaptive != solver_.adaptive) controller_.restart();
  const bool step_changed = solver.integrator != solver_.integrator || solver.substeps != solver_.substeps ||
                            solver.dt != solver_.dt;
  // The counters are the running integrator's: another one starts them again, so that its panel
  // never shows the last one's blow-ups or CG iterations.
  if (integrator_ && solver.integrator != solver_.integrator) statistics_ = RunStatistics{};
  solver_ = solver;
  if (step_changed) end_recovery();
  update_auto_substeps();
}

int Simulation::planned_substeps() const {
  if (solver_.substeps > 0) return solver_.substeps;
  return is_explicit(solver_.integrator) ? auto_substeps_ : 1;
}

void Simulation::update_auto_substeps() {
  if (solver_.substeps != 0 || !is_explicit(solver_.integrator)) return;
  auto_substeps_ = auto_substeps(solver_.integrator, stiffest_mode(model_, state_, forces_, time_), solver_.dt);
}

void Simulation::set_self_collision(const SelfCollisionSettings& settings) {
  validate_self_collision_settings(settings);
  self_collision_ = settings;
}

void Simulation::set_gravity(const Vec3& gravity) {
  ExternalForces changed = forces_;
  changed.gravity = gravity;
  set_external_forces(changed);
}

void Simulation::set_external_forces(const ExternalForces& forces) {
  validate_external_forces(forces);
  forces_ = forces;
  end_recovery();
  update_auto_substeps();
}

void Simulation::set_tearing(const TearSettings& settings) { tearing_.set_settings(settings, model_.type); }

void Simulation::set_kinematic_constraints(std::vector<MovingPin> moving_pins,
                                           std::vector<SlideConstraint> slides) {
  pins_.set_paths(std::move(moving_pins), std::move(slides), tearing_.intact_mesh().positions);
  reset();
}

void Simulation::set_pinned(int vertex, bool pinned) {
  if (vertex < 0 || vertex >= model_.vertex_count()) return;
  pins_.set_pinned(vertex, pinned, state_.x[size_t(vertex)]);
  state_.v[size_t(vertex)].setZero();
  if (pinned && mouse_.current() && mouse_.current()->vertex == vertex) mouse_.release();
}

std::string Simulation::try_step(FrameReport& report, double h, double t) {
  StepContext ctx;
  ctx.dt = h;
  ctx.substeps = substeps();
  ctx.solver = &solver_;
  ctx.forces = &forces_;
  ctx.time = t;
  ctx.kinematics = pins_.for_step(mouse_.current());
  ctx.self_collider = &self_collider_;
  ctx.self_collision = &self_collision_;
  ctx.colliders = &colliders_.all();

  report.integration.accumulate(integrator_->step(state_, model_, ctx));
  return runaway(model_, last_good_, state_, solver_.threads);
}

std::string Simulation::runaway(const ClothModel& model, const ClothState& before,
                                const ClothState& after, int threads) {
  // Blow-up: NaN/Inf, or a speed or a stretch no cloth reaches (typically an explicit step too long
  // for the stiffness, or XPBD passes too few for the grid, as in BM_Frame/xpbd-4x10 at 128^2).
  if (!all_finite(after)) return "positions or velocities not finite";
  const double max_speed = parallel_max(after.vertex_count(), threads, 0.0,
                                        [&](int i) { return after.v[size_t(i)].norm(); });
  char why[96];
  if (max_speed >= kRunawaySpeed) {
    std::snprintf(why, sizeof why, "a vertex reached %.4g m/s, limit %g", max_speed, kRunawaySpeed);
    return why;
  }
  const double strain = max_edge_strain(model, after, threads);
  if (strain < kRunawayStrain || strain <= max_edge_strain(model, before, threads)) return "";
  std::snprintf(why, sizeof why, "an edge stretched by %.4g%%, limit %g%%", 100 * strain,
                100 * kRunawayStrain);
  return why;
}

void Simulation::advance_fixed(FrameReport& report) {
  last_good_ = state_;
  const int planned = substeps();
  const std::string why = try_step(report, solver_.dt, time_);
  report.steps_taken = 1;
  report.smallest_step = solver_.dt;
  if (why.empty()) {
    recovery_.stable_frame(planned_substeps());
    return;
  }
  ++report.instabilities;
  report.recovered = true;
  char when[96];
  std::snprintf(when, sizeof when, "t = %.4g s", time_);
  const std::string where = std::string(when) + " (" + why + ")";
  if (stop_or_restart(report, where)) return;

  // An explicit step's stability bound says how many substeps the stiffness and damping need:
  // the first retry runs at least that many, and the count is never lowered below it.
  const bool bounded = is_explicit(solver_.integrator);
  const StiffestMode mode = bounded ? stiffest_mode(model_, last_good_, forces_, time_) : StiffestMode{};
  const int floor = bounded ? auto_substeps(solver_.integrator, mode, solver_.dt) : 0;
  bool ok = false;
  for (int retry = 0; !ok && retry < kRecoveryRetries && substeps() < kMaxRecoverySubsteps; ++retry) {
    state_ = last_good_;
    ++report.rejected_steps;
    recovery_.raise(substeps(), floor, kMaxRecoverySubsteps);
    ok = try_step(report, solver_.dt, time_).empty();
  }
  report.instability = "step at " + where + " diverged with dt = " + std::to_string(solver_.dt) + " s, " +
                       std::to_string(planned) + " substeps: " + cause_of_divergence(planned, mode) + "; ";
  if (ok) {
    report.instability += "redone with " + std::to_string(substeps()) +
                          " substeps, lowered again once the cloth is stable";
  } else {
    ++report.rejected_steps;
    state_ = last_good_;
    for (Vec3& v : state_.v) v.setZero();
    report.instability += "rolled back, motion stopped";
  }
}

bool Simulation::stop_or_restart(FrameReport& report, const std::string& where) {
  switch (solver_.on_blowup) {
    case BlowUpResponse::Recover:
      return false;
    case BlowUpResponse::Stop:
      // The diverged state stays in view (the lesson), at rest, unless it cannot be drawn.
      if (!all_finite(state_) || as_flat(state_.x).cwiseAbs().maxCoeff() > kFarthestDrawn) state_ = last_good_;
      for (Vec3& v : state_.v) v.setZero();
      divergence_ = "diverged at " + where;
      report.instability = divergence_ + ": stopped; R starts it again";
      return true;
    case BlowUpResponse::Reset:
      restart();
      report.started_over = true;
      report.instability = "diverged at " + where + ": started over";
      return true;
  }
  return false;
}

std::string Simulation::cause_of_divergence(int substeps, const StiffestMode& mode) const {
  const bool dragged = mouse_.current().has_value();
  if (!is_explicit(solver_.integrator)) {
    return dragged ? "the drag pulled faster than the step follows; lower dt or the drag's stiffness"
                   : "lower dt or the stiffness, or raise the iterations";
  }
  const double stable = stable_substep(solver_.integrator, mode);
  const double h = solver_.dt / substeps;
  char cause[200];
  if (h > stable) {
    std::snprintf(cause, sizeof cause,
                  "its substep %.3g s is above the %.3g s the %s allows; raise the substeps to %d "
                  "(0: auto) or lower dt or the %s",
                  h, stable, limiting_rate(solver_.integrator, mode),
                  auto_substeps(solver_.integrator, mode, solver_.dt), limiting_rate(solver_.integrator, mode));
  } else {
    std::snprintf(cause, sizeof cause, "its substep %.3g s is within the stability bound %.3g s: %s", h, stable,
                  dragged ? "the drag pulled too hard" : "a contact or a large deformation");
  }
  return cause;
}

void Simulation::stop_motion(FrameReport& report, const std::string& why) {
  ++report.instabilities;
  report.recovered = true;
  for (Vec3& v : state_.v) v.setZero();
  report.instability = why;
}

void Simulation::advance_adaptively(FrameReport& report) {
  const double dt = solver_.dt;
  double done = 0;  // s of this frame covered by accepted steps
  report.smallest_step = dt;
  while (dt - done > 1e-9 * dt) {
    // The cost bound: each attempt costs a full step's substeps (times XPBD's passes) whatever its
    // length. Halving need not help: an XPBD step moves the cloth toward its rest shape by a
    // fraction that grows as the step shrinks (compliance / h^2), so a cloth started away from its
    // rest stretch kept failing the test at dt / 256 (tests/fuzz/corpus/scene/adaptive_xpbd_timeout.json).
    if (report.steps_taken + report.rejected_steps >= kMaxAdaptiveAttempts) {
      stop_motion(report, "at t=" + std::to_string(time_ + done) + " s the adaptive steps of one frame " +
                              "reached the limit of " + std::to_string(kMaxAdaptiveAttempts) +
                              " attempts: motion stopped for the rest of the frame; raise " +
                              "solver.max_stretch_change, lower the stiffness, or turn adaptive off");
      break;
    }
    const double h = std::min(dt * controller_.fraction(), dt - done);
    last_good_ = state_;
    const std::string why = try_step(report, h, time_ + done);
    if (why.empty() && max_stretch_change(stretch_triangles_, last_good_.x, state_.x,
                                          solver_.threads) <= solver_.max_stretch_change) {
      controller_.accept();
      done += h;
      ++report.steps_taken;
      report.smallest_step = std::min(report.smallest_step, h);
      continue;
    }
    // Section 7: discard the proposed state, reduce the step size, and try again.
    state_ = last_good_;
    ++report.rejected_steps;
    if (!why.empty()) {
      ++report.instabilities;
      report.recovered = true;
      char where[128];
      std::snprintf(where, sizeof where, "t = %.4g s (", time_ + done);
      if (stop_or_restart(report, where + why + ")")) break;
      report.instability = "step of " + std::to_string(h) + " s at t=" + std::to_string(time_ + done) +
                          " s diverged (" + why + "): discarded, step halved";
    }
    if (!controller_.reject()) {
      // Even dt / 2^kMaxLevel changes the stretch drastically: stop the motion rather than spin.
      stop_motion(report, "at t=" + std::to_string(time_ + done) + " s even a step of " +
                              std::to_string(h) + " s changed the stretch too much: motion stopped; " +
                              "lower the stiffness or raise solver.max_stretch_change");
      break;
    }
  }
}

FrameReport Simulation::step() {
  FrameReport report;
  if (!divergence_.empty()) return report;
  if (solver_.adaptive) {
    advance_adaptively(report);
  } else {
    advance_fixed(report);
  }
  if (report.started_over) {
    statistics_.record(report, false);
    return report;
  }
  if (tearing_.settings().enabled) {
    const int torn_before = tearing_.torn_edges();
    if (std::optional<CutMesh> cut = tearing_.tear(model_, state_)) replace_mesh(std::move(cut->mesh), cut->parent);
    report.torn_edges = tearing_.torn_edges() - torn_before;
  }
  statistics_.record(report, solver_.integrator == IntegratorType::Implicit && !solver_.direct_solve);
  time_ += solver_.dt;
  ++state_version_;
  return report;
}

void Simulation::set_positions(const std::vector<Vec3>& x) {
  if (x.size() != state_.x.size()) throw InputError("set_positions: wrong number of positions");
  for (const Vec3& p : x) {
    if (!p.allFinite()) throw InputError("set_positions: a position is not finite");
  }
  state_.x = x;
  for (Vec3& v : state_.v) v.setZero();
  pins_.hold_at(x);
  ++state_version_;
}

void Simulation::reset() {
  restart();
  statistics_ = RunStatistics{};
}

void Simulation::restart() {
  tearing_.mend();
  if (model_.vertex_count() != tearing_.intact_mesh().vertex_count()) {
    std::vector<int> parent(size_t(tearing_.intact_mesh().vertex_count()));
    std::iota(parent.begin(), parent.end(), 0);  // the intact vertices keep their indices in a cut
    replace_mesh(tearing_.intact_mesh(), parent);
  }
  state_ = initial_state_;
  pins_.restart(initial_state_.x);
  colliders_.clear_offsets();  // solids moved by hand go back too
  mouse_.release();
  controller_.restart();
  time_ = 0;
  divergence_.clear();
  end_recovery();
  update_auto_substeps();
  ++state_version_;
}

void Simulation::replace_mesh(RestMesh mesh, const std::vector<int>& parent) {
  ClothModel model = build_model(std::move(mesh), model_.material, model_.type);
  const size_t n = size_t(model.vertex_count());
  ClothState state;
  state.x.resize(n);
  state.v.resize(n);
  for (size_t v = 0; v < n; ++v) {
    state.x[v] = state_.x[size_t(parent[v])];
    state.v[v] = state_.v[size_t(parent[v])];
  }
  model_ = std::move(model);
  state_ = std::move(state);
  last_good_ = state_;
  pins_.remap(parent);
  mouse_.set_vertex_count(int(n));
  stretch_triangles_ = build_stretch_shear(model_.mesh);
  tearing_.forget_edges();
  self_collider_ = SelfCollider(model_.mesh);
  integrator_ = make_integrator(solver_.integrator);  // drops caches sized by the old mesh
  ++topology_version_;
}

bool all_finite(const ClothState& s) {
  return as_flat(s.x).allFinite() && as_flat(s.v).allFinite();
}

}  // namespace cloth
