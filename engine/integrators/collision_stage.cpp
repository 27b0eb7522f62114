#include "integrators/collision_stage.hpp"

#include "collision/contact.hpp"
#include "collision/self_collision.hpp"

namespace cloth {

CollisionStageResult resolve_collisions(ClothState& state, const std::vector<Vec3>& x_start,
                                        const ClothModel& model, const StepContext& ctx,
                                        double t_end, double h) {
  CollisionStageResult result;
  const bool solids = ctx.colliders && !ctx.colliders->empty();
  if (solids) result.contacts = resolve_contacts(state, *ctx.colliders, *ctx.pinned, t_end, h);
  if (ctx.self_collider && ctx.self_collision.enabled) {
    const SelfCollisionStats s =
        ctx.self_collider->resolve(model.mass, *ctx.pinned, x_start, state, ctx.self_collision);
    result.self_contacts = s.pairs_found;
    if (solids && s.pairs_corrected > 0) {
      result.contacts = resolve_contacts(state, *ctx.colliders, *ctx.pinned, t_end, h);
    }
  }
  return result;
}

}  // namespace cloth
