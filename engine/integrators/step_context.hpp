#pragma once
// Everything an integrator needs for one step, built once per step (cf. Box2D b2StepContext).
#include <cstdint>
#include <optional>
#include <vector>

#include "collision/collider.hpp"
#include "linalg/constrained_solve.hpp"
#include "forces/forces.hpp"
#include "kinematics/kinematic_constraints.hpp"
#include "collision/self_collision.hpp"
#include "core/vec.hpp"

namespace cloth {

/// How the mouse holds a vertex.
enum class GrabMode {
  Kinematic,  ///< the vertex is placed: moved towards the cursor, at most Grab::max_speed fast
  Spring,     ///< B&W sec. 2's "mouse forces": a damped zero-length spring pulls it there
};

/// The mouse grab's settings (Simulation::set_grab_settings validates them).
struct GrabSettings {
  GrabMode mode = GrabMode::Kinematic;
  /// Spring mode: k, N/m. 100 N/m lets a 1 m^2 cotton cloth (0.15 kg, 1.5 N) hang 1.5 cm below
  /// the cursor and denim (0.4 kg) 4 cm: a firm hand that still shows the cloth's weight.
  double stiffness = 100.0;
  /// Spring mode: c, N*s/m, on the grabbed vertex's absolute velocity. Keep h c / m_vertex < 2
  /// for the explicit integrators (a 64^2 cotton cloth's vertex is 3.6e-5 kg; at h = 1/6000 s,
  /// 0.05 N*s/m gives 0.23).
  double damping = 0.05;
};

/// A vertex held by the mouse: placed kinematically towards `target`, at most max_speed fast, or
/// pulled there by the spring f = k (target - x) - c v (GrabSettings).
struct Grab {
  int vertex = -1;
  Vec3 target = Vec3::Zero();  ///< m
  double max_speed = 20.0;     ///< m/s; keeps a fast mouse from teleporting the vertex (kinematic)
  GrabSettings settings;
  bool kinematic() const { return settings.mode == GrabMode::Kinematic; }
  /// The spring's force on the grabbed vertex at (x, v), N; dF/dx = -k I, dF/dv = -c I.
  Vec3 spring_force(const Vec3& x, const Vec3& v) const {
    return settings.stiffness * (target - x) - settings.damping * v;
  }
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
  /// The grab if it places its vertex (pins it for this step), else nullptr.
  const Grab* kinematic_grab() const { return grab && grab->kinematic() ? &*grab : nullptr; }
  /// The grab if it is a spring (an external force on a free vertex), else nullptr.
  const Grab* spring_grab() const { return grab && !grab->kinematic() ? &*grab : nullptr; }
  SelfCollider* self_collider = nullptr;   ///< the mesh's self-collision topology and scratch
  SelfCollisionSettings self_collision;    ///< off unless switched on
  PcgSettings pcg;            ///< implicit integrator: CG tolerance and iteration cap
  bool direct_solve = false;  ///< implicit integrator: Eigen LDLT instead of the modified PCG
  int newton_iterations = 1;  ///< implicit integrator: 1 = B&W's linearised step (eq. 18)
  int xpbd_iterations = 1;    ///< xpbd: Gauss-Seidel passes per substep (1 = "small steps")
  double strain_limit = -1;   ///< verlet: Provot's limit on edge elongation (0.1 = 10%); < 0 off
};

}  // namespace cloth
