#pragma once
// Simulation: one cloth, its colliders, pins, the mouse grab and the chosen integrator, advanced
// by a fixed step that does not depend on the display rate. Detects blow-ups (NaN/Inf or absurd
// speeds), rolls back, retries the step with more substeps, and reports it instead of crashing
// or freezing.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "integrators/adaptive_step.hpp"
#include "collision/collider.hpp"
#include "forces/forces.hpp"
#include "integrators/integrator.hpp"
#include "kinematics/kinematic_constraints.hpp"
#include "collision/self_collision.hpp"
#include "model/model.hpp"
#include "model/state.hpp"
#include "collision/tearing.hpp"
#include "integrators/solver_settings.hpp"

namespace cloth {

struct FrameReport {
  /// The integrator's work over the frame, discarded attempts included (StepReport::accumulate).
  StepReport integration;
  bool recovered = false;     ///< the step blew up and was rolled back
  int steps_taken = 0;        ///< accepted integrator steps covering the frame (1 unless adaptive)
  int rejected_steps = 0;     ///< proposed steps discarded (blow-up, or adaptive stretch test)
  double smallest_step = 0;   ///< shortest accepted step in this frame, s
  int torn_edges = 0;         ///< edges broken at the end of this frame (tearing)
};

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
  const std::vector<Collider>& colliders() const { return colliders_; }
  const SolverSettings& solver() const { return solver_; }
  const Vec3& gravity() const { return forces_.gravity; }
  const ExternalForces& external_forces() const { return forces_; }

  // Live parameter changes (sliders). Each validates and throws InputError on bad values.
  void set_material(const SpringMaterial& material);
  /// Rebuilds the model's elements for another material model on the same mesh (positions,
  /// velocities and pins are kept). Throws InputError if the mesh or the integrator cannot take it.
  void set_model_type(ModelType type);
  void set_solver(const SolverSettings& solver);
  /// Self-collision on/off, thickness, friction, passes (throws InputError on bad values).
  void set_self_collision(const SelfCollisionSettings& settings);
  const SelfCollisionSettings& self_collision() const { return self_collision_; }
  void set_gravity(const Vec3& gravity);
  /// Gravity, wind and drag together.
  void set_external_forces(const ExternalForces& forces);

  /// Pins on scripted paths and line / plane vertices (B&W section 5.1). Moving-pin vertices
  /// become pinned. Throws InputError for a vertex out of range, a zero direction, a vertex that
  /// starts more than 1 mm off its line / plane, or a vertex given two such constraints. Kept by
  /// reset().
  void set_kinematic_constraints(std::vector<MovingPin> moving_pins,
                                 std::vector<SlideConstraint> slides);
  const std::vector<MovingPin>& moving_pins() const { return moving_pins_; }
  const std::vector<SlideConstraint>& slides() const { return slides_; }

  /// Tearing on/off and its threshold. Throws InputError for a bad threshold, or when turning it
  /// on for a model that cannot be cut (model_supports_tearing).
  void set_tearing(const TearSettings& settings);
  const TearSettings& tearing() const { return tearing_; }
  /// Edges broken since the start or the last reset.
  int torn_edges() const { return torn_edges_; }
  /// Increases whenever the mesh's vertices or triangles change (a tear, or reset() mending a
  /// torn cloth): the renderer's cue to re-upload its index buffer.
  std::uint64_t topology_version() const { return topology_version_; }
  /// The mesh before any tear. Its vertices keep their indices in a torn mesh (copies are
  /// appended), so its grid indexing still finds the same corners.
  const RestMesh& intact_mesh() const { return intact_mesh_; }

  /// Coulomb coefficients of solid k, static and kinetic (dimensionless). Throws InputError for a
  /// missing solid or a coefficient that is NaN or outside [0, 10].
  void set_collider_friction(int k, double static_mu, double kinetic_mu);

  /// Moves solid k by hand (the mouse) to `offset` from where the scene put it (on top of its
  /// motion), m. Ignored for an index out of range or a non-finite offset.
  void set_collider_offset(int k, const Vec3& offset);

  /// Adds a solid (the app's Collisions panel); it takes part from the next step. Returns its
  /// index. Throws InputError for a NaN or out-of-range thickness or friction, or a shape whose
  /// distance is not finite.
  int add_collider(const Collider& collider);
  /// Replaces solid k by `collider` (the app's Collisions panel: its thickness, friction, sizes
  /// and path); it takes part from the next step, and collider_version() changes. The same
  /// checks as add_collider, and InputError for a missing solid; a refused one leaves solid k.
  void set_collider(int k, const Collider& collider);
  /// Removes solid k; the later ones move down one index. Throws InputError if there is none.
  void remove_collider(int k);
  /// Changes whenever a solid is added or removed (the renderer rebuilds its meshes then).
  std::uint64_t collider_version() const { return collider_version_; }

  bool is_pinned(int vertex) const { return pinned_[vertex] != 0; }
  /// Pins `vertex` where it is now, or releases it (a moving pin stops following its path).
  void set_pinned(int vertex, bool pinned);
  int pinned_count() const;

  /// Mouse grab: the vertex follows `target` until released, kinematically (speed-limited) or
  /// pulled by the spring of grab_settings().
  void grab(int vertex, const Vec3& target);
  void move_grab(const Vec3& target);
  void release_grab() { grab_.reset(); }
  const std::optional<Grab>& current_grab() const { return grab_; }
  /// Kinematic or spring grab and the spring's k, c; also changes a grab in progress. Kept by
  /// reset(). Throws InputError for a stiffness outside (0, 1e6] N/m or a damping outside
  /// [0, 1e3] N*s/m (NaN included).
  void set_grab_settings(const GrabSettings& settings);
  const GrabSettings& grab_settings() const { return grab_settings_; }

  /// Advances by one frame of solver().dt. Without adaptivity: one step; if it diverges it is
  /// rolled back and retried with doubled substeps (kept afterwards, and reported); if that fails
  /// too, the state before the step is kept with zero velocity. With solver().adaptive: steps of
  /// dt / 2^k chosen by the section 7 controller, discarded and halved when they fail, at most
  /// kMaxAdaptiveAttempts of them per frame.
  FrameReport step();
  /// Puts the cloth at `x` at rest (zero velocity), e.g. a static drape's result; pinned vertices
  /// stay pinned where `x` puts them. Throws InputError for a wrong size or non-finite positions.
  void set_positions(const std::vector<Vec3>& x);
  /// Back to the initial positions, zero velocity, the initial pins, solids where the scene put
  /// them; settings are kept.
  void reset();

  double time() const { return time_; }            ///< s
  std::int64_t steps() const { return steps_; }    ///< fixed steps taken
  int instabilities() const { return instabilities_; }
  /// Proposed steps discarded since the start (blow-ups and adaptive rejections).
  std::int64_t rejected_steps() const { return rejected_steps_; }
  /// The step the adaptive controller will try next, s (solver().dt when not adaptive).
  double current_step() const { return solver_.adaptive ? solver_.dt * controller_.fraction() : solver_.dt; }
  /// Wall time of every step so far, split as in B&W Table 1.
  const StepTimings& total_timings() const { return total_timings_; }
  const FrameReport& last_report() const { return last_report_; }
  /// Mean CG iterations per linear solve since the start, or -1 if no solve was made.
  double mean_solver_iterations() const {
    return solves_ > 0 ? static_cast<double>(solver_iterations_) / solves_ : -1.0;
  }
  const std::string& last_instability() const { return last_instability_; }
  /// Increases whenever positions change (renderer upload flag).
  std::uint64_t state_version() const { return state_version_; }

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
  /// Breaks the edges stretched past the tearing threshold and cuts the mesh along them (end of a
  /// frame); returns how many edges broke.
  int tear_overstrained_edges();
  /// Puts `mesh` in place of the current one: the model is rebuilt on it, and each vertex's
  /// state, pin and rest position come from vertex parent[v] of the current mesh. A vertex added
  /// by a cut is free (its pin, slide or grab stays with the original vertex).
  void replace_mesh(RestMesh mesh, const std::vector<int>& parent);
  /// Back to the intact mesh, no broken edges (reset).
  void mend_tears();
  /// Throws InputError if `integrator` cannot step a model of `type`.
  static void check_supported(const std::string& integrator, ModelType type);

  ClothModel model_;
  std::vector<Collider> colliders_;
  std::uint64_t collider_version_ = 0;
  SolverSettings solver_;
  ExternalForces forces_;
  std::unique_ptr<Integrator> integrator_;

  ClothState initial_state_;
  std::vector<std::uint8_t> initial_pinned_;
  ClothState state_;
  ClothState last_good_;
  std::vector<std::uint8_t> pinned_;
  std::vector<Vec3> pin_positions_;
  std::vector<MovingPin> initial_moving_pins_;
  std::vector<MovingPin> moving_pins_;
  std::vector<SlideConstraint> slides_;
  std::optional<Grab> grab_;
  GrabSettings grab_settings_;
  std::vector<StretchShearTriangle> stretch_triangles_;  ///< rest data of the section 7 test
  StepSizeController controller_;
  SelfCollider self_collider_;  ///< the mesh's edge / adjacency tables and scratch
  SelfCollisionSettings self_collision_;
  RestMesh intact_mesh_;              ///< the mesh before any tear, restored by reset()
  TearSettings tearing_;
  std::vector<EdgeKey> pending_cuts_; ///< broken edges whose sides still hold together (tearing.hpp)
  std::vector<int> breakable_edges_;  ///< model_.edges with triangles on both sides (tearing only)
  int torn_edges_ = 0;
  std::uint64_t topology_version_ = 0;

  double time_ = 0;
  std::int64_t steps_ = 0;
  int instabilities_ = 0;
  std::int64_t solver_iterations_ = 0;  ///< summed over all implicit solves
  std::int64_t solves_ = 0;
  std::int64_t rejected_steps_ = 0;
  StepTimings total_timings_;
  FrameReport last_report_;
  std::string last_instability_;
  std::uint64_t state_version_ = 0;
};

}  // namespace cloth
