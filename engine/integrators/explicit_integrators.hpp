#pragma once
// Explicit integrators of equation (3) of Baraff-Witkin (seed 001): forward Euler (their eq. for
// the explicit method), symplectic Euler, classical RK4, and position Verlet (seed 002 sec. 6).
// They exist to show their stability limits: a step too long for the stiffness diverges, and the
// Simulation's guard detects it and rolls back.
#include <vector>

#include "integrators/integrator.hpp"

namespace cloth {

class ExplicitIntegrator final : public Integrator {
 public:
  enum class Method {
    ForwardEuler,     ///< x += h v_n,  v += h a(x_n, v_n)
    SymplecticEuler,  ///< v += h a(x_n, v_n), x += h v_{n+1}
    Verlet,           ///< x_{n+1} = 2 x_n - x_{n-1} + a_n h^2 (seed 002) + optional strain limiting
    Rk4,              ///< classical 4-stage Runge-Kutta on (x, v)
  };
  explicit ExplicitIntegrator(Method method) : method_(method) {}
  const char* name() const override;
  StepReport step(ClothState& state, const ClothModel& model, const StepContext& ctx) override;

 private:
  /// One substep of length h starting at time t; adds the time of its force evaluations to
  /// assembly_ms.
  void substep(ClothState& state, const ClothModel& model, const StepContext& ctx, double t, double h,
               double& assembly_ms);
  Method method_;
  std::vector<Vec3> force_;                 ///< scratch
  std::vector<Vec3> x_start_;               ///< positions at the substep's start (self-collision)
  ClothState stage_;                        ///< RK4 scratch
  std::vector<Vec3> kx_[4], kv_[4];         ///< RK4 stage derivatives
};

/// Where a kinematically grabbed vertex goes in a substep of length h starting from `from`:
/// towards the cursor, at most max_speed * h away, so a fast mouse flick cannot inject an
/// arbitrarily large displacement into one substep. Shared by every integrator.
Vec3 grab_destination(const Grab& grab, const Vec3& from, double h);

/// After a free (explicit) update of a substep ending at time t_end: pinned vertices back exactly
/// on their pins with zero velocity, moving pins on their paths with the path's velocity; a
/// kinematically grabbed vertex (which was at `grab_start` before the substep) moved towards the
/// cursor (a spring grab acted as a force in the update instead).
void enforce_pins_and_grab(ClothState& state, const StepContext& ctx, double h,
                           const Vec3& grab_start, double t_end);

/// Projects each line / plane vertex onto its line or plane, and its velocity onto the allowed
/// directions (position-based enforcement, for the explicit and XPBD integrators).
void project_slides(ClothState& state, const StepContext& ctx);

}  // namespace cloth
