#pragma once
// Explicit integrators of equation (3) of Baraff & Witkin 1998: forward Euler (their eq. for the
// explicit method), symplectic Euler, classical RK4, and position Verlet (Yu, sec. 6).
// They exist to show their stability limits: a step too long for the stiffness diverges, and the
// Simulation's guard detects it and rolls back.
//
// Multiple time stepping (Tuckerman, Berne, Martyna 1992, "Reversible multiple time scale molecular
// dynamics", r-RESPA in its impulse form): in symplectic Euler and Verlet the shape-operator bend,
// whose stiffest mode is far slower than the stretch's, is applied as an impulse of k substeps'
// worth every k substeps and the substeps between see every other force. The bend then costs
// 1 / k of its price at the same trajectory where k h omega_bend is small (docs/physics.md,
// "Bending"; MultipleTimeStepping.*).
#include <vector>

#include "forces/internal_forces.hpp"
#include "integrators/integrator.hpp"

namespace cloth {

/// The longest interval between the bend's impulses, in substeps of length h: the largest k with
/// k h omega <= 1 and k h c <= 1 for the bound omega^2 <= B R and damping rate c <= k_d R
/// (R = model.bend_rate, shape_operator_bend_rate), half of each limit of an explicit kick; at
/// least 1, at most `substeps`. A step runs ceil(substeps / k) equal intervals (to a substep), so
/// they end with the step. The blow-up recovery's doubled substeps halve h and double k: the
/// interval in seconds stays, so a bend that diverges itself needs solver.bend_interval = 1.
int bend_interval(const ClothModel& model, double h, int substeps);

class ExplicitIntegrator final : public Integrator {
 public:
  enum class Method {
    ForwardEuler,     ///< x += h v_n,  v += h a(x_n, v_n)
    SymplecticEuler,  ///< v += h a(x_n, v_n), x += h v_{n+1}
    Verlet,           ///< x_{n+1} = 2 x_n - x_{n-1} + a_n h^2 (Yu) + optional strain limiting
    Rk4,              ///< classical 4-stage Runge-Kutta on (x, v)
  };
  explicit ExplicitIntegrator(Method method) : method_(method) {}
  const char* name() const override;
  StepReport step(ClothState& state, const ClothModel& model, const StepContext& ctx) override;

 private:
  /// One substep of length h starting at time t, with or without the bend; adds the time of its
  /// force evaluations to assembly_ms.
  void substep(ClothState& state, const ClothModel& model, const StepContext& ctx, double t, double h,
               BendForces bend, double& assembly_ms);
  /// state.v += tau M^-1 f_bend(state): the bend's impulse, tau the half intervals it joins.
  void kick_bend(ClothState& state, const ClothModel& model, double tau);
  Method method_;
  std::vector<Vec3> bend_force_;            ///< scratch of kick_bend
  std::vector<Vec3> force_;                 ///< scratch
  std::vector<Vec3> x_start_;               ///< positions at the substep's start (self-collision)
  ClothState stage_;                        ///< RK4 scratch
  std::vector<Vec3> kx_[4], kv_[4];         ///< RK4 stage derivatives
};

}  // namespace cloth
