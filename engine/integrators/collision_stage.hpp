#pragma once
// The collision stage every integrator runs at the end of each substep: the cloth against the
// solids, then against itself (when switched on), then against the solids once more, since a
// self-collision push can move a bottom-layer vertex into the floor.
#include <vector>

#include "model/model.hpp"
#include "model/state.hpp"
#include "integrators/step_context.hpp"

namespace cloth {

struct CollisionStageResult {
  int contacts = 0;       ///< vertex-solid contacts
  int self_contacts = 0;  ///< cloth-cloth pairs found (first pass)
};

/// x_start: positions at the start of the substep (needed only when self-collision is on);
/// t_end: time at its end, s; h: the length over which friction also corrects positions (see
/// resolve_contacts; 0 = velocities only).
CollisionStageResult resolve_collisions(ClothState& state, const std::vector<Vec3>& x_start,
                                        const ClothModel& model, const StepContext& ctx,
                                        double t_end, double h);

}  // namespace cloth
