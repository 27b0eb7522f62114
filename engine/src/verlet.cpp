// Position Verlet (seed 002 section 6): x_{n+1} = 2 x_n - x_{n-1} + a_n h^2.
//
// We carry v_n = (x_n - x_{n-1}) / h instead of x_{n-1}. The update
//   v_{n+1} = v_n + h a_n,   x_{n+1} = x_n + h v_{n+1}
// is the same recurrence (substitute v and it gives the formula above), but stays correct when
// the user changes dt with a slider mid-run (a stored x_{n-1} would then imply a wrong velocity),
// and lets every integrator share one ClothState. The report's velocity damping a_d = -c v uses
// this backward-difference velocity, as the report does.
#include <algorithm>

#include "cloth/forces.hpp"
#include "cloth/integrator.hpp"

namespace cloth {

StepReport VerletIntegrator::step(ClothState& state, const ClothModel& model,
                                  const StepContext& ctx) {
  const int n = state.vertex_count();
  const double h = ctx.dt / ctx.substeps;
  const std::vector<std::uint8_t>& pinned = *ctx.pinned;
  StepReport report;
  for (int sub = 0; sub < ctx.substeps; ++sub) {
    compute_forces(model, state, ctx.gravity, force_);
    for (int i = 0; i < n; ++i) {
      if (pinned[i]) {
        // Pins hold their vertex exactly (not approximately) where it was pinned.
        state.x[i] = (*ctx.pin_positions)[i];
        state.v[i].setZero();
        continue;
      }
      state.v[i] += (h / model.mass[i]) * force_[i];
      state.x[i] += h * state.v[i];
    }
    if (ctx.grab && !pinned[ctx.grab->vertex]) {
      // The grabbed vertex is moved kinematically towards the cursor, speed-limited so that a
      // fast mouse flick cannot inject an arbitrarily large displacement in one substep.
      const int g = ctx.grab->vertex;
      const Vec3 old_x = state.x[g] - h * state.v[g];
      Vec3 move = ctx.grab->target - old_x;
      const double max_move = ctx.grab->max_speed * h;
      if (move.norm() > max_move) move *= max_move / move.norm();
      state.x[g] = old_x + move;
      state.v[g] = move / h;
    }
    if (ctx.colliders && !ctx.colliders->empty()) {
      report.contacts = resolve_contacts(state, *ctx.colliders, pinned);
    }
    ++report.substeps;
  }
  return report;
}

}  // namespace cloth
