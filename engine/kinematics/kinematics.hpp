#pragma once
// What places vertices in a step instead of forces: static pins, pins on paths, slides on a line
// or plane, and the mouse grab; and their position-based enforcement, which the explicit and
// XPBD integrators apply after each free update (the implicit one enforces them through its
// constraint filter instead, Baraff & Witkin section 5.1).
#include <cstdint>
#include <optional>
#include <vector>

#include "core/vec.hpp"
#include "kinematics/grab.hpp"
#include "kinematics/kinematic_constraints.hpp"
#include "model/state.hpp"

namespace cloth {

/// Read-only views of the simulation's pins and slides for one step, and the grab.
struct Kinematics {
  const std::vector<std::uint8_t>* pinned = nullptr;     ///< 1 = vertex held at pin_positions
  const std::vector<Vec3>* pin_positions = nullptr;      ///< m
  const std::vector<MovingPin>* moving_pins = nullptr;   ///< pinned vertices on a path
  const std::vector<SlideConstraint>* slides = nullptr;  ///< vertices on a line or plane
  std::optional<Grab> grab;
  /// The grab if it places its vertex (pins it for this step), else nullptr.
  const Grab* kinematic_grab() const { return grab && grab->kinematic() ? &*grab : nullptr; }
  /// The grab if it is a spring (an external force on a free vertex), else nullptr.
  const Grab* spring_grab() const { return grab && !grab->kinematic() ? &*grab : nullptr; }
};

/// After a free update of a substep of length h ending at time t_end: pinned vertices back
/// exactly on their pins with zero velocity, moving pins on their paths with the path's velocity;
/// a kinematically grabbed vertex (which was at `grab_start` before the substep) moved towards
/// the cursor (a spring grab acted as a force in the update instead).
void enforce_pins_and_grab(ClothState& state, const Kinematics& kinematics, double h,
                           const Vec3& grab_start, double t_end);

/// Projects each line / plane vertex onto its line or plane, and its velocity onto the allowed
/// directions.
void project_slides(ClothState& state, const Kinematics& kinematics);

}  // namespace cloth
