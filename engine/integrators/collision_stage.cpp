#include "integrators/collision_stage.hpp"

#include "collision/contact.hpp"
#include "collision/self_collision.hpp"
#include "integrators/step_timings.hpp"

namespace cloth {

void end_substep(ClothState& state, const std::vector<Vec3>& x_start, const ClothModel& model,
                 const StepContext& ctx, double t_end, double h, StepReport& report) {
  ScopedTimer timer(report.timings.collision_ms);
  ++report.substeps;
  report.contacts = 0;
  report.self_contacts = 0;
  const bool solids = ctx.colliders && !ctx.colliders->empty();
  if (solids) report.contacts = resolve_contacts(state, *ctx.colliders, *ctx.kinematics.pinned, t_end, h);
  if (ctx.self_collider && ctx.self_collision->enabled) {
    const SelfCollisionStats s =
        ctx.self_collider->resolve(model.mass, *ctx.kinematics.pinned, x_start, state, *ctx.self_collision);
    report.self_contacts = s.pairs_found;
    if (solids && s.pairs_corrected > 0) {
      report.contacts = resolve_contacts(state, *ctx.colliders, *ctx.kinematics.pinned, t_end, h);
    }
  }
}

}  // namespace cloth
