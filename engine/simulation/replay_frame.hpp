#pragma once
// ReplayFrame: one moment of a run as a display shows it again (replay_buffer.hpp records them,
// SimulationView shows one): the cloth's state, its mesh and masses then, its pins, the mouse's
// grab and where the solids were.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "kinematics/grab.hpp"
#include "model/model.hpp"
#include "model/state.hpp"

namespace cloth {

struct ReplayFrame {
  double time = 0;  ///< simulated time, s
  ClothState state;  ///< positions (m) and velocities (m/s), stored in single precision
  /// The model when the frame was recorded: its mesh (a torn cloth's changes), masses and edges.
  std::shared_ptr<const ClothModel> model;
  std::uint64_t topology_version = 0;  ///< Simulation::topology_version() of `model`'s mesh
  std::vector<int> pinned;             ///< pinned vertices, ascending
  std::optional<Grab> grab;
  std::vector<Vec3> collider_displacements;  ///< per solid, m (Collider::displacement)
  /// Different for every frame a ReplayBuffer hands out, so a display knows to upload again.
  std::uint64_t version = 0;
};

}  // namespace cloth
