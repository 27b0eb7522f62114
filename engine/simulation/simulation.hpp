#pragma once
// Simulation: one cloth, its colliders, pins, the mouse grab and the chosen integrator, advanced
// by a fixed step that does not depend on the display rate. Detects blow-ups (NaN/Inf, absurd
// speeds or stretch) and, as solver.on_blowup says, rolls back and retries the step with more
// substeps (lowered again once stable), stops the run where it diverged, or starts it over;
// it reports each instead of crashing or freezing.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collision/cloth_tearing.hpp"
#include "collision/collider_set.hpp"
#include "collision/self_collision.hpp"
#include "forces/forces.hpp"
#include "integrators/adaptive_step.hpp"
#include "integrators/integrator.hpp"
#include "integrators/solver_settings.hpp"
#include "integrators/stability_bound.hpp"
#include "kinematics/grab.hpp"
#include "kinematics/pin_set.hpp"
#include "model/model.hpp"
#include "model/state.hpp"
#include "simulation/run_statistics.hpp"
#include "simulation/substep_recovery.hpp"

namespace cloth {

class Simulation {
 public:
  /// Speed above which a cloth vertex is taken as blown up, m/s.
  static constexpr double kRunawaySpeed = 500.0;
  /// Edge strain (elongation / rest length) above which a step that raised it is taken as blown
  /// up: no fabric survives a tenfold stretch, while an explicit step too long for the stiffness
  /// reached 9,600% at speeds well under kRunawaySpeed.
  static constexpr double kRunawayStrain = 10.0;
  /// Why a step from `before` to `after` counts as blown up, in words for the report (non-finite
  /// values, the fastest vertex's speed, or the largest edge strain, which counts only when the
  /// step raised it: a scene may start out stretched); empty when it does not.
  static std::string runaway(const ClothModel& model, const ClothState& before,
                             const ClothState& after, int threads = 1);
  /// A run stopped by a blow-up keeps its diverged state in view unless a coordinate is beyond
  /// this, m (where single-precision drawing loses the cloth).
  static constexpr double kFarthestDrawn = 1e3;
  /// Recovery doubles the substeps up to this many (never past what the user set higher).
  static constexpr int kMaxRecoverySubsteps = 2048;
  /// Retries of one diverged step, each with twice the substeps.
  static constexpr int kRecoveryRetries = 3;
  /// Adaptive steps: attempts (accepted and discarded) per frame, after which the rest of the
  /// frame is given up like a step failing at the smallest size (motion stopped, reported). A
  /// frame thus costs at most this many steps: enough for a whole frame at dt / 64 with a failed
  /// growth attempt every other step, while dt / 4096 is only reachable for a moment.
  static constexpr int kMaxAdaptiveAttempts = 128;

  Simulation(ClothModel model, std::vector<Collider> colliders, std::vector<int> pinned_vertices,
             SolverSettings solver, Vec3 gravity);

  const ClothModel& model() const { return model_; }
  const ClothState& state() const { return state_; }
  /// The settings as the user (or the scene) gave them: substeps 0 means auto.
  const SolverSettings& solver() const { return solver_; }
  /// The substeps the next step runs: the user's, the stability bound's when they are auto, or
  /// the count a blow-up recovery raised them to.
  int substeps() const { return recovery_.active() ? recovery_.raised() : planned_substeps(); }
  /// Whether a blow-up recovery runs more substeps than the user's now.
  bool substeps_raised() const { return recovery_.active(); }
  /// Why the run stopped ("diverged at t = ... s (...)") under solver.on_blowup = stop; empty
  /// while it runs. A stopped run stays where it diverged until reset().
  const std::string& divergence() const { return divergence_; }
  const Vec3& gravity() const { return forces_.gravity; }
  const ExternalForces& external_forces() const { return forces_; }
  const SelfCollisionSettings& self_collision() const { return self_collision_; }

  // Its parts. Those that can be edited on their own are handed out for editing; the others
  // change through the setters below, which keep them consistent with the cloth.
  /// The solids; add, replace, remove, move and set their friction through it (validated).
  const ColliderSet& colliders() const { return colliders_; }
  ColliderSet& colliders() { return colliders_; }
  /// The mouse: grab, move, release, and its settings (kept by reset()).
  const MouseGrab& mouse() const { return mouse_; }
  MouseGrab& mouse() { return mouse_; }
  /// Pins, pins on paths and line / plane vertices.
  const PinSet& pins() const { return pins_; }
  /// Tearing's settings, the edges broken so far and the intact mesh.
  const ClothTearing& tearing() const { return tearing_; }
  /// Counters since the start and the last frame's report.
  const RunStatistics& statistics() const { return statistics_; }

  // Live parameter changes (sliders). Each validates and throws InputError on bad values.
  void set_material(const SpringMaterial& material);
  /// Rebuilds the model's elements for another material model on the same mesh (positions,
  /// velocities and pins are kept). Throws InputError if the mesh or the integrator cannot take it.
  void set_model_type(ModelType type);
  /// Throws InputError for a value outside its declared range or an integrator the model cannot
  /// take. Each integrator keeps its own substeps: a switch that leaves the substeps as they
  /// were gives the new integrator the count it last ran with here, else the scene's when the
  /// scene chose it, else default_substeps. Any change of the solver, the material, the model
  /// or the forces drops the substeps a blow-up recovery added (section "Blow-up guard" of
  /// docs/integrators.md): they were what the old settings needed. A switch of integrator starts
  /// the statistics again: they are the running integrator's.
  void set_solver(const SolverSettings& solver);
  /// An integrator's substeps before the user picks any: auto (0) for the explicit methods, 20
  /// for XPBD (Macklin et al. 2019's small steps), 1 for the implicit ones.
  static int default_substeps(IntegratorType integrator);
  /// Self-collision on/off, thickness, friction, passes (throws InputError on bad values).
  void set_self_collision(const SelfCollisionSettings& settings);
  void set_gravity(const Vec3& gravity);
  /// Gravity, wind and drag together.
  void set_external_forces(const ExternalForces& forces);
  /// Tearing on/off and its threshold. Throws InputError for a bad threshold, or when turning it
  /// on for a model that cannot be cut (model_supports_tearing).
  void set_tearing(const TearSettings& settings);

  /// Pins on scripted paths and line / plane vertices (PinSet::set_paths, which throws
  /// InputError on bad ones); the simulation restarts with them, and reset() keeps them.
  void set_kinematic_constraints(std::vector<MovingPin> moving_pins,
                                 std::vector<SlideConstraint> slides);
  /// Pins `vertex` where it is now, at rest, or releases it (a moving pin stops following its
  /// path). A grab on a vertex being pinned ends. Ignored for a vertex out of range.
  void set_pinned(int vertex, bool pinned);

  /// Advances by one frame of solver().dt. Without adaptivity: one step; if it diverges, under
  /// on_blowup = recover it is rolled back and retried with doubled substeps, at least as many as
  /// an explicit integrator's stability bound asks (SubstepRecovery: halved back toward the
  /// user's after stable frames, and reported);
  /// if that fails too, the state before the step is kept with zero velocity. With
  /// solver().adaptive: steps of dt / 2^k chosen by the section 7 controller, discarded and
  /// halved when they fail, at most kMaxAdaptiveAttempts of them per frame. Under on_blowup =
  /// stop a diverged step ends the run (divergence()); under reset it starts the run over. At the
  /// end of the frame, tearing breaks edges. A stopped run's step does nothing.
  FrameReport step();
  /// Puts the cloth at `x` at rest (zero velocity), e.g. a static drape's result; pinned vertices
  /// stay pinned where `x` puts them. Throws InputError for a wrong size or non-finite positions.
  void set_positions(const std::vector<Vec3>& x);
  /// Back to the initial positions, zero velocity, the initial pins, an intact mesh, solids where
  /// the scene put them, no grab, fresh statistics; settings are kept, the substeps as the user
  /// set them (not as a blow-up recovery raised them).
  void reset();

  double time() const { return time_; }  ///< s
  /// The step the adaptive controller will try next, s (solver().dt when not adaptive).
  double current_step() const { return solver_.adaptive ? solver_.dt * controller_.fraction() : solver_.dt; }
  /// Increases whenever positions change (renderer upload flag).
  std::uint64_t state_version() const { return state_version_; }
  /// Increases whenever the mesh's vertices or triangles change (a tear, or reset() mending a
  /// torn cloth): the renderer's cue to re-upload its index buffer.
  std::uint64_t topology_version() const { return topology_version_; }

  Energies energies() const { return compute_energies(model_, state_, forces_.gravity); }

 private:
  /// One attempt at a step of length h from time t with the current settings, adding its work
  /// to `report`; why it diverged (runaway()), empty if it did not. The caller has put the state
  /// it starts from in last_good_.
  std::string try_step(FrameReport& report, double h, double t);
  /// The frame as one step, with substep doubling on divergence.
  void advance_fixed(FrameReport& report);
  /// The frame in steps chosen by the section 7 controller.
  void advance_adaptively(FrameReport& report);
  /// Gives up the rest of an adaptive frame: zero velocity, counted and reported as `why`.
  void stop_motion(FrameReport& report, const std::string& why);
  /// Under on_blowup = stop or reset, ends the run or starts it over after a step that diverged
  /// (`where`: when and why, in words) and returns true; false under recover.
  bool stop_or_restart(FrameReport& report, const std::string& where);
  /// Why a step of `substeps` from last_good_ diverged, as far as the stability bound (`mode`,
  /// for an explicit integrator) tells: the rate (stiffness or damping) that a too long substep
  /// broke, or a drag or contact when the substep was within the bound; with what to change.
  std::string cause_of_divergence(int substeps, const StiffestMode& mode) const;
  /// Drops the recovery's substeps: the user's count runs again.
  void end_recovery() { recovery_.end(); }
  /// The substeps without a recovery: the user's, or the stability bound's when they are auto.
  int planned_substeps() const;
  /// Recomputes auto_substeps_ when the substeps are auto (the cloth, its material, the forces
  /// or the step changed).
  void update_auto_substeps();
  /// The state, pins, solids, grab and time of the start, a mended mesh; statistics are kept.
  void restart();
  /// Puts `mesh` in place of the current one: the model is rebuilt on it, and each vertex's
  /// state and pin come from vertex parent[v] of the current mesh. A vertex added by a cut is
  /// free (its pin, slide or grab stays with the original vertex).
  void replace_mesh(RestMesh mesh, const std::vector<int>& parent);
  /// Throws InputError if `integrator` cannot step a model of `type`.
  static void check_supported(IntegratorType integrator, ModelType type);

  ClothModel model_;
  SolverSettings solver_;
  ExternalForces forces_;
  SelfCollisionSettings self_collision_;
  std::unique_ptr<Integrator> integrator_;

  ClothState initial_state_;
  ClothState state_;
  ClothState last_good_;  ///< the state a step started from, restored when it fails

  ColliderSet colliders_;
  MouseGrab mouse_;
  PinSet pins_;
  ClothTearing tearing_;
  RunStatistics statistics_;

  std::vector<StretchShearTriangle> stretch_triangles_;  ///< rest data of the section 7 test
  StepSizeController controller_;
  SelfCollider self_collider_;  ///< the mesh's edge / adjacency tables and scratch

  double time_ = 0;
  std::uint64_t state_version_ = 0;
  std::uint64_t topology_version_ = 0;

  // The blow-up guard.
  SubstepRecovery recovery_;
  std::string divergence_;    ///< why the run stopped (on_blowup = stop); empty while it runs
  int auto_substeps_ = 1;     ///< the stability bound's count, used while solver_.substeps is 0
  /// Per integrator (in IntegratorType order), the substeps it last ran with or the scene gave it.
  std::array<std::optional<int>, std::size(kIntegratorNames)> substeps_of_;
};

}  // namespace cloth
