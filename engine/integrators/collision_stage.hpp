#pragma once
// The collision stage every integrator runs at the end of each substep: the cloth against the
// solids, then against itself (when switched on), then against the solids once more, since a
// self-collision push can move a bottom-layer vertex into the floor.
#include <vector>

#include "model/model.hpp"
#include "model/state.hpp"
#include "integrators/integrator.hpp"
#include "integrators/step_context.hpp"

namespace cloth {

/// Ends a substep: x_start: positions at its start (needed only when self-collision is on);
/// t_end: time at its end, s; h: the length over which friction also corrects positions (see
/// resolve_contacts; 0 = velocities only). Sets report's contacts (vertex-solid) and self_contacts
/// (cloth-cloth pairs of the first pass), adds the stage's wall time to its collision_ms, and
/// counts the substep.
void end_substep(ClothState& state, const std::vector<Vec3>& x_start, const ClothModel& model,
                 const StepContext& ctx, double t_end, double h, StepReport& report);

}  // namespace cloth
