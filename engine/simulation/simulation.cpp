#include "simulation/simulation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/error.hpp"
#include "core/parallel.hpp"

namespace cloth {

Simulation::Simulation(ClothModel model, std::vector<Collider> colliders,
                       std::vector<int> pinned_vertices, SolverSettings solver, Vec3 gravity)
    : model_(std::move(model)), colliders_(std::move(colliders)),
      stretch_triangles_(build_stretch_shear(model_.mesh)), self_collider_(model_.mesh) {
  set_solver(solver);
  set_gravity(gravity);
  const int n = model_.vertex_count();
  initial_state_.x = model_.mesh.positions;
  initial_state_.v.assign(n, Vec3::Zero());
  initial_pinned_.assign(n, 0);
  for (int v : pinned_vertices) {
    if (v < 0 || v >= n) throw InputError("pin vertex " + std::to_string(v) + " out of range");
    initial_pinned_[v] = 1;
  }
  intact_mesh_ = model_.mesh;
  reset();
}

void Simulation::set_material(const SpringMaterial& material) { cloth::set_material(model_, material); }

void Simulation::check_supported(const std::string& integrator, ModelType type) {
  // XPBD projects each element's condition C with compliance 1/k (E = k/2 C^2); only the springs'
  // and Baraff-Witkin's energies have that form.
  if (integrator == "xpbd" && type != ModelType::Springs && type != ModelType::BaraffWitkin) {
    throw InputError(std::string("integrator xpbd supports the springs and baraff-witkin models, not ") +
                     name_of(type));
  }
}

void Simulation::set_model_type(ModelType type) {
  if (type == model_.type) return;
  check_supported(solver_.integrator, type);
  if (tearing_.enabled && !model_supports_tearing(type)) {
    throw InputError(std::string("model ") + name_of(type) + " cannot tear: turn tearing off first");
  }
  model_ = build_model(model_.mesh, model_.material, type);  // throws before anything changes
  breakable_edges_.clear();
}

void Simulation::set_solver(const SolverSettings& settings) {
  validate_solver(settings);
  SolverSettings solver = settings;
  if (solver.threads == 0) solver.threads = machine_threads();
  check_supported(solver.integrator, model_.type);
  if (!integrator_ || solver.integrator != solver_.integrator) {
    integrator_ = make_integrator(solver.integrator);  // throws before anything changes
  }
  // A new largest step or a switch to adaptivity starts the controller from the largest step.
  if (solver.dt != solver_.dt || solver.adaptive != solver_.adaptive) controller_.restart();
  solver_ = solver;
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
}

void Simulation::set_kinematic_constraints(std::vector<MovingPin> moving_pins,
                                           std::vector<SlideConstraint> slides) {
  const int n = model_.vertex_count();
  std::vector<std::uint8_t> taken(n, 0);
  auto claim = [&](int v, const char* what) {
    if (v < 0 || v >= n) throw InputError(std::string(what) + " vertex " + std::to_string(v) + " out of range");
    if (taken[v]++) throw InputError(std::string(what) + " vertex " + std::to_string(v) + " has two constraints");
  };
  for (const MovingPin& pin : moving_pins) {
    claim(pin.vertex, "moving pin");
    if (!(pin.path.period > 0) || !pin.anchor.allFinite()) throw InputError("moving pin: bad path");
  }
  for (SlideConstraint& slide : slides) {
    claim(slide.vertex, "line/plane");
    if (!(slide.direction.norm() > 1e-9) || !slide.point.allFinite()) {
      throw InputError("line/plane constraint on vertex " + std::to_string(slide.vertex) + " needs a non-zero direction");
    }
    slide.direction.normalize();
    const double off = (model_.mesh.positions[size_t(slide.vertex)] - slide.project(model_.mesh.positions[size_t(slide.vertex)])).norm();
    if (off > 1e-3) {
      throw InputError("line/plane constraint on vertex " + std::to_string(slide.vertex) + ": the vertex starts " +
                       std::to_string(off) + " m off its line / plane (at most 1 mm)");
    }
  }
  for (const MovingPin& pin : moving_pins) initial_pinned_[pin.vertex] = 1;
  initial_moving_pins_ = std::move(moving_pins);
  slides_ = std::move(slides);
  reset();
}

void Simulation::set_pinned(int vertex, bool pinned) {
  if (vertex < 0 || vertex >= model_.vertex_count()) return;
  std::erase_if(moving_pins_, [&](const MovingPin& p) { return p.vertex == vertex; });
  pinned_[vertex] = pinned ? 1 : 0;
  pin_positions_[vertex] = state_.x[vertex];
  state_.v[vertex].setZero();
  if (pinned && grab_ && grab_->vertex == vertex) grab_.reset();
}

int Simulation::pinned_count() const {
  int count = 0;
  for (auto p : pinned_) count += p;
  return count;
}

void Simulation::grab(int vertex, const Vec3& target) {
  if (vertex < 0 || vertex >= model_.vertex_count() || !target.allFinite()) return;
  grab_ = Grab{.vertex = vertex, .target = target, .settings = grab_settings_};
}

void Simulation::set_grab_settings(const GrabSettings& settings) {
  if (!(settings.stiffness > 0 && settings.stiffness <= 1e6)) {
    throw InputError("grab stiffness must be in (0, 1e6] N/m, got " + std::to_string(settings.stiffness));
  }
  if (!(settings.damping >= 0 && settings.damping <= 1e3)) {
    throw InputError("grab damping must be in [0, 1000] N*s/m, got " + std::to_string(settings.damping));
  }
  grab_settings_ = settings;
  if (grab_) grab_->settings = settings;
}

void Simulation::move_grab(const Vec3& target) {
  if (grab_ && target.allFinite()) grab_->target = target;
}

std::string Simulation::try_step(FrameReport& report, double h, double t) {
  StepContext ctx;
  ctx.dt = h;
  ctx.substeps = solver_.substeps;
  ctx.solver = &solver_;
  ctx.forces = &forces_;
  ctx.time = t;
  ctx.kinematics.pinned = &pinned_;
  ctx.kinematics.pin_positions = &pin_positions_;
  ctx.kinematics.moving_pins = &moving_pins_;
  ctx.kinematics.slides = &slides_;
  ctx.self_collider = &self_collider_;
  ctx.self_collision = &self_collision_;
  ctx.colliders = &colliders_;
  ctx.kinematics.grab = grab_;

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
  const std::string why = try_step(report, solver_.dt, time_);
  report.steps_taken = 1;
  report.smallest_step = solver_.dt;
  if (!why.empty()) {
    ++instabilities_;
    const int before = solver_.substeps;
    bool ok = false;
    for (int retry = 0; !ok && retry < kRecoveryRetries && solver_.substeps < kMaxRecoverySubsteps; ++retry) {
      state_ = last_good_;
      ++report.rejected_steps;
      solver_.substeps = std::min(2 * solver_.substeps, kMaxRecoverySubsteps);
      ok = try_step(report, solver_.dt, time_).empty();
    }
    last_instability_ = "step at t=" + std::to_string(time_) + " s diverged (" + why +
                        ") with dt=" + std::to_string(solver_.dt) + " s, " +
                        std::to_string(before) + " substeps: ";
    if (ok) {
      last_instability_ += "redone with " + std::to_string(solver_.substeps) + " substeps (kept)";
    } else {
      ++report.rejected_steps;
      state_ = last_good_;
      for (Vec3& v : state_.v) v.setZero();
      last_instability_ += "rolled back, motion stopped; lower dt or stiffness";
    }
    report.recovered = true;
  }
}

void Simulation::stop_motion(FrameReport& report, const std::string& why) {
  ++instabilities_;
  report.recovered = true;
  for (Vec3& v : state_.v) v.setZero();
  last_instability_ = why;
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
      ++instabilities_;
      report.recovered = true;
      last_instability_ = "step of " + std::to_string(h) + " s at t=" + std::to_string(time_ + done) +
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
  if (solver_.adaptive) {
    advance_adaptively(report);
  } else {
    advance_fixed(report);
  }
  if (tearing_.enabled) report.torn_edges = tear_overstrained_edges();
  rejected_steps_ += report.rejected_steps;
  total_timings_ += report.integration.timings;
  if (solver_.integrator == "implicit" && !solver_.direct_solve) {
    solver_iterations_ += report.integration.solver_iterations;
    solves_ += report.integration.substeps;
  }
  time_ += solver_.dt;
  ++steps_;
  ++state_version_;
  last_report_ = report;
  return report;
}

void Simulation::set_collider_friction(int k, double static_mu, double kinetic_mu) {
  if (k < 0 || k >= int(colliders_.size())) throw InputError("there is no collider " + std::to_string(k));
  for (double mu : {static_mu, kinetic_mu}) {
    if (!std::isfinite(mu) || mu < 0 || mu > 10) {
      throw InputError("collider friction must be in [0, 10], got " + std::to_string(mu));
    }
  }
  colliders_[size_t(k)].friction = static_mu;
  colliders_[size_t(k)].kinetic_friction = kinetic_mu;
}

int Simulation::add_collider(const Collider& collider) {
  if (!std::isfinite(collider.thickness) || collider.thickness < 0 || collider.thickness > 1)
    throw InputError("collider thickness must be in [0, 1] m");
  for (double mu : {collider.friction, collider.mu_kinetic()}) {
    if (!std::isfinite(mu) || mu < 0 || mu > 10) throw InputError("collider friction must be in [0, 10]");
  }
  Vec3 normal;
  if (!std::isfinite(shape_signed_distance(collider.shape, Vec3::Zero(), &normal)))
    throw InputError("collider shape has a non-finite size or position");
  colliders_.push_back(collider);
  ++collider_version_;
  return int(colliders_.size()) - 1;
}

void Simulation::set_collider(int k, const Collider& collider) {
  if (k < 0 || k >= int(colliders_.size())) throw InputError("there is no collider " + std::to_string(k));
  if (!std::isfinite(collider.thickness) || collider.thickness < 0 || collider.thickness > 1)
    throw InputError("collider thickness must be in [0, 1] m");
  for (double mu : {collider.friction, collider.mu_kinetic()}) {
    if (!std::isfinite(mu) || mu < 0 || mu > 10) throw InputError("collider friction must be in [0, 10]");
  }
  Vec3 normal;
  if (!std::isfinite(shape_signed_distance(collider.shape, Vec3::Zero(), &normal)))
    throw InputError("collider shape has a non-finite size or position");
  colliders_[size_t(k)] = collider;
  ++collider_version_;
}

void Simulation::remove_collider(int k) {
  if (k < 0 || k >= int(colliders_.size())) throw InputError("there is no collider " + std::to_string(k));
  colliders_.erase(colliders_.begin() + k);
  ++collider_version_;
}

void Simulation::set_collider_offset(int k, const Vec3& offset) {
  if (k < 0 || k >= int(colliders_.size()) || !offset.allFinite()) return;
  colliders_[size_t(k)].offset = offset;
}

void Simulation::set_positions(const std::vector<Vec3>& x) {
  if (x.size() != state_.x.size()) throw InputError("set_positions: wrong number of positions");
  for (const Vec3& p : x) {
    if (!p.allFinite()) throw InputError("set_positions: a position is not finite");
  }
  state_.x = x;
  for (Vec3& v : state_.v) v.setZero();
  for (size_t i = 0; i < x.size(); ++i) {
    if (pinned_[i]) pin_positions_[i] = x[i];
  }
  ++state_version_;
}

void Simulation::reset() {
  mend_tears();
  state_ = initial_state_;
  pinned_ = initial_pinned_;
  pin_positions_ = initial_state_.x;
  moving_pins_ = initial_moving_pins_;
  for (Collider& c : colliders_) c.offset.setZero();  // solids moved by hand go back too
  grab_.reset();
  controller_.restart();
  time_ = 0;
  steps_ = 0;
  ++state_version_;
}

bool all_finite(const ClothState& s) {
  return as_flat(s.x).allFinite() && as_flat(s.v).allFinite();
}

}  // namespace cloth
