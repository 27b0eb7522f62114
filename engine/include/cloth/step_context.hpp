#pragma once
// Everything an integrator needs for one step, built once per step (cf. Box2D b2StepContext).
#include <cstdint>
#include <optional>
#include <vector>

#include "cloth/collider.hpp"
#include "cloth/constrained_solve.hpp"
#include "cloth/forces.hpp"
#include "cloth/kinematic_constraints.hpp"
#include "cloth/self_collision.hpp"
#include "cloth/vec.hpp"

namespace cloth {

/// A vertex held by the mouse: moved kinematically towards `target`, at most max_speed fast.
struct Grab {
  int vertex = -1;
  Vec3 target = Vec3::Zero();  ///< m
  double max_speed = 20.0;     ///< m/s; keeps a fast mouse from teleporting the vertex
};

struct StepContext {
  double dt = 1.0 / 60.0;                       ///< step, s (one frame of the fixed-rate clock)
  int substeps = 1;                             ///< the integrator takes substeps of dt/substeps
  ExternalForces forces;                        ///< gravity, wind, drag
  double time = 0;                              ///< simulation time at the start of the step, s
  const std::vector<std::uint8_t>* pinned = nullptr;  ///< 1 = vertex held at pin_positions
  const std::vector<Vec3>* pin_positions = nullptr;   ///< m
  const std::vector<MovingPin>* moving_pins = nullptr;      ///< pinned vertices on a path
  const std::vector<SlideConstraint>* slides = nullptr;     ///< vertices on a line or plane
  const std::vector<Collider>* colliders = nullptr;
  std::optional<Grab> grab;
  SelfCollider* self_collider = nullptr;   ///< the mesh's self-collision topology and scratch
  SelfCollisionSettings self_collision;    ///< off unless switched on
  PcgSettings pcg;            ///< implicit integrator: CG tolerance and iteration cap
  bool direct_solve = false;  ///< implicit integrator: Eigen LDLT instead of the modified PCG
  int newton_iterations = 1;  ///< implicit integrator: 1 = B&W's linearised step (eq. 18)
  int xpbd_iterations = 1;    ///< xpbd: Gauss-Seidel passes per substep (1 = "small steps")
  double strain_limit = -1;   ///< verlet: Provot's limit on edge elongation (0.1 = 10%); < 0 off
};

}  // namespace cloth
