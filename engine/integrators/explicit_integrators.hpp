#pragma once
// Explicit integrators of equation (3) of Baraff & Witkin 1998: forward Euler (their eq. for the
// explicit method), symplectic Euler, classical RK4, and position Verlet (Yu, sec. 6).
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
    Verlet,           ///< x_{n+1} = 2 x_n - x_{n-1} + a_n h^2 (Yu) + optional strain limiting
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

}  // namespace cloth
