#pragma once
// SimulationView: what a display may read of a Simulation, read-only. The cloth and the solids as
// they are now, the counters that say what changed since it last looked, and the quantities the
// overlays show (strain, applied acceleration, air velocity, contacts) computed here by the
// engine, so a picture shows the engine's physics instead of a copy of it kept in the app.
// A view is a reference: cheap to copy, valid while its Simulation lives, and always current.
// A view of a ReplayFrame shows the run as it was then (the app's replay): the frame's cloth,
// mesh, pins, grab and solid positions, with the simulation's forces, solver and solid shapes.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "simulation/replay_frame.hpp"
#include "simulation/simulation.hpp"

namespace cloth {

class SimulationView {
 public:
  /// How far beyond a collider's contact offset (its `thickness`) a vertex still counts as
  /// touching, m: the collision response leaves vertices at the offset, give or take round-off
  /// and a step's drift.
  static constexpr double kContactSlack = 1e-3;

  explicit SimulationView(const Simulation& sim) : sim_(&sim) {}
  /// `sim` as it was in `frame` (recorded from it by a ReplayBuffer); `frame` must outlive the view.
  SimulationView(const Simulation& sim, const ReplayFrame& frame) : sim_(&sim), frame_(&frame) {}

  /// Whether the view shows a recorded frame instead of the simulation now.
  bool replaying() const { return frame_ != nullptr; }

  // The cloth now.
  const ClothModel& model() const;
  /// The current mesh (a torn cloth's, with its cut vertices appended).
  const RestMesh& mesh() const;
  const std::vector<Vec3>& positions() const;   ///< m
  const std::vector<Vec3>& velocities() const;  ///< m/s
  double time() const;                          ///< s
  bool is_pinned(int vertex) const;
  /// The vertex the mouse holds and where it pulls it, if any.
  std::optional<Grab> grab() const;

  // The solids now.
  const std::vector<Collider>& colliders() const;
  /// How far solid k's motion path and the mouse have moved it from where the scene put it, m.
  Vec3 collider_displacement(int k) const;

  // Counters that change when something must be uploaded again.
  /// Positions changed (a recorded frame's versions never equal the simulation's).
  std::uint64_t state_version() const;
  std::uint64_t topology_version() const;  ///< the mesh's vertices or triangles changed (tear, mend)
  std::uint64_t collider_version() const;  ///< a solid was added or removed, or its shape changed

  // What a pane's label says.
  const SolverSettings& solver() const;
  int substeps() const;       ///< those the next step runs (Simulation::substeps)
  bool substeps_raised() const;  ///< a blow-up recovery runs more than the user's
  int instabilities() const;  ///< blow-ups and stopped motions since the start
  /// Why the run stopped at a blow-up (Simulation::divergence); empty while it runs.
  const std::string& divergence() const;

  // Derived from the state, computed on each call.
  /// Per vertex, the largest strain (elongation / rest length) of the mesh edges through it, at
  /// least 0: the strain heat map.
  std::vector<double> vertex_strain() const;
  /// The largest edge strain over the mesh, at least 0.
  double max_edge_strain() const;
  /// Per vertex, the applied (external) force divided by its lumped mass, m/s^2: gravity,
  /// velocity damping, drag and wind (compute_external_forces), per mass so it does not shrink
  /// with resolution; zero for a vertex without mass. The material's forces are left out on
  /// purpose: in a stiff cloth they nearly cancel and their per-step residue (hundreds of m/s^2
  /// after an implicit step) would bury the picture; the strain heat map shows the material.
  std::vector<Vec3> applied_accelerations() const;
  /// The wind field's air velocity at `vertex` now, m/s.
  Vec3 air_velocity(int vertex) const;
  /// Indices of the vertices within thickness + kContactSlack of any collider (inside it
  /// included), with the colliders where they are now; ascending.
  std::vector<int> touching_vertices() const;

 private:
  const ClothState& state() const;

  const Simulation* sim_;
  const ReplayFrame* frame_ = nullptr;
};

}  // namespace cloth
