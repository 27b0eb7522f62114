#include "kinematics/kinematics.hpp"

namespace cloth {

void enforce_pins_and_grab(ClothState& state, const Kinematics& kinematics, double h,
                           const Vec3& grab_start, double t_end) {
  const std::vector<std::uint8_t>& pinned = *kinematics.pinned;
  for (int i = 0; i < state.vertex_count(); ++i) {
    if (!pinned[i]) continue;
    // Pins hold their vertex exactly (not approximately) where it was pinned.
    state.x[i] = (*kinematics.pin_positions)[i];
    state.v[i].setZero();
  }
  if (kinematics.moving_pins) {
    for (const MovingPin& pin : *kinematics.moving_pins) {
      state.x[pin.vertex] = pin.position(t_end);
      state.v[pin.vertex] = pin.path.velocity_at(t_end);
    }
  }
  const Grab* grab = kinematics.kinematic_grab();
  if (grab && !pinned[grab->vertex]) {
    const int g = grab->vertex;
    state.x[g] = grab_destination(*grab, grab_start, h);
    state.v[g] = (state.x[g] - grab_start) / h;
  }
}

void project_slides(ClothState& state, const Kinematics& kinematics) {
  if (!kinematics.slides) return;
  for (const SlideConstraint& s : *kinematics.slides) {
    state.x[s.vertex] = s.project(state.x[s.vertex]);
    state.v[s.vertex] = s.allowed(state.v[s.vertex]);
  }
}

}  // namespace cloth
