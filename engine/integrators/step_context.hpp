#pragma once
// Everything an integrator needs for one step, built once per step (cf. Box2D b2StepContext).
#include <cstdint>
#include <vector>

#include "collision/collider.hpp"
#include "integrators/solver_settings.hpp"
#include "forces/forces.hpp"
#include "kinematics/kinematics.hpp"
#include "collision/self_collision.hpp"
#include "core/vec.hpp"

namespace cloth {

/// One step's view of the simulation: this attempt's step and substeps, and references to the
/// settings, pins and solids it runs with (all must outlive the step and be set).
struct StepContext {
  double dt = 1.0 / 60.0;  ///< this step, s (the frame's, or the adaptive controller's share)
  int substeps = 1;        ///< this attempt's substeps of dt / substeps (recovery may double them)
  double time = 0;         ///< simulation time at the start of the step, s
  const SolverSettings* solver = nullptr;  ///< passes, tolerances, threads of the integrators
  const ExternalForces* forces = nullptr;  ///< gravity, wind, drag
  Kinematics kinematics;                   ///< pins, moving pins, slides, the mouse grab
  const std::vector<Collider>* colliders = nullptr;
  SelfCollider* self_collider = nullptr;   ///< the mesh's self-collision topology and scratch
  const SelfCollisionSettings* self_collision = nullptr;  ///< off unless switched on
};

}  // namespace cloth
