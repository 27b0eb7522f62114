#pragma once
// Explicit integrators of equation (3) of Baraff & Witkin 1998: forward Euler (their eq. for the
// explicit method), symplectic Euler, classical RK4, and position Verlet (Yu, sec. 6).
// They exist to show their stability limits: a step too long for the stiffness diverges, and the
// Simulation's guard detects it and rolls back.
//
// Multiple time stepping (Tuckerman, Berne, Martyna 1992, "Reversible multiple time scale molecular
// dynamics", r-RESPA in its impulse form): in symplectic Euler and Verlet the slow forces, the
// shape-operator bend (whose stiffest mode is far slower than the stretch's) and the air, are
// applied as an impulse of k substeps' worth every k substeps and the substeps between see every
// other force. They then cost 1 / k of their price at the same trajectory where k h times their
// fastest rate is small (docs/models.md, "Bending" and "Air"; MultipleTimeStepping.*). Each has
// its own interval (bend_interval, air_interval).
#include <vector>

#include "forces/forces.hpp"
#include "forces/internal_forces.hpp"
#include "integrators/integrator.hpp"
#include "kinematics/kinematics.hpp"

namespace cloth {

/// The longest interval between the bend's impulses, in substeps of length h: the largest k with
/// k h omega <= 1 and k h c <= 1 for the bound omega^2 <= B R and damping rate c <= k_d R
/// (R = model.bend_rate, shape_operator_bend_rate), half of each limit of an explicit kick; at
/// least 1, at most `substeps`. A step runs ceil(substeps / k) equal intervals (to a substep), so
/// they end with the step. The blow-up recovery's doubled substeps halve h and double k: the
/// interval in seconds stays, so a bend that diverges itself needs solver.bend_interval = 1.
int bend_interval(const ClothModel& model, double h, int substeps);

/// The longest interval between the air's impulses, in substeps of length h = dt / substeps, for
/// the state at the step's start: the largest k with k h r <= kAirRateBound and k h omega <= 1,
/// where r = (rho_air C u + q) a is the drag's rate (d(f/m)/du of the quadratic and linear drag;
/// u the largest vertex speed plus the wind's largest speed plus g dt, a bound on the speed
/// relative to the air within the step; a the largest area per mass a vertex carries) and
/// omega^2 = r u / l the stiffness of the normal turning in the flow (l the shortest edge). At
/// least 1 (also for a non-finite state), at most `substeps`; `substeps` without air. The interval
/// is fixed in seconds: more substeps do not shorten it (set solver.air_interval = 1 for the air
/// every substep), nor do the blow-up recovery's. Each impulse is the drag at the interval's mean
/// positions and velocity, so a steady fall keeps its exact terminal speed at any k; the velocity
/// is then up to an interval old when the impulse comes, an error first order in k h r, which the
/// bound keeps to a tenth of the relative velocity's change (MultipleTimeStepping.FollowsTheEverySubstepAir
/// holds the trajectory).
inline constexpr double kAirRateBound = 0.1;
int air_interval(const ClothModel& model, const ClothState& state, const ExternalForces& ext, double dt,
                 int substeps);

class ExplicitIntegrator final : public Integrator {
 public:
  enum class Method {
    ForwardEuler,     ///< x += h v_n,  v += h a(x_n, v_n)
    SymplecticEuler,  ///< v += h a(x_n, v_n), x += h v_{n+1}
    Verlet,           ///< x_{n+1} = 2 x_n - x_{n-1} + a_n h^2 (Yu) + optional strain limiting
    Rk4,              ///< classical 4-stage Runge-Kutta on (x, v)
  };
  explicit ExplicitIntegrator(Method method) : method_(method) {}
  StepReport step(ClothState& state, const ClothModel& model, const StepContext& ctx) override;

 private:
  /// Which slow forces the substeps leave to the impulses.
  struct SlowForces {
    bool bend = false;
    bool air = false;
  };
  /// One substep of length h starting at time t, without the slow forces in `kicked`; adds the
  /// time of its force evaluations to assembly_ms.
  void substep(ClothState& state, const ClothModel& model, const StepContext& ctx, double t, double h,
               SlowForces kicked, double& assembly_ms);
  /// state.v += tau M^-1 f_bend(state): the bend's impulse, tau the half intervals it joins.
  void kick_bend(ClothState& state, const ClothModel& model, double tau);
  /// f = the air's force on the vertices at positions x, velocities v and time t (add_aero_forces).
  void air_force(const std::vector<Vec3>& x, const std::vector<Vec3>& v, const ClothModel& model,
                 const ExternalForces& ext, double t, std::vector<Vec3>& f);
  /// state.v += tau M^-1 f.
  static void push(ClothState& state, const ClothModel& model, const std::vector<Vec3>& f, double tau);
  /// push, but for the vertices the kinematics prescribe (pins, the kinematic grab).
  static void push_free(ClothState& state, const ClothModel& model, const Kinematics& kinematics,
                        const std::vector<Vec3>& f, double tau);
  Method method_;
  std::vector<Vec3> bend_force_;            ///< scratch of kick_bend
  std::vector<Vec3> air_ahead_;             ///< the air's force given ahead for the open interval
  std::vector<Vec3> x_open_;                ///< positions at the air's interval's open
  std::vector<Vec3> mean_x_;                ///< positions summed (then averaged) over the interval
  std::vector<Vec3> mean_v_;                ///< the interval's mean velocity
  AeroScratch aero_scratch_;                ///< scratch of air_force
  std::vector<Vec3> force_;                 ///< scratch
  std::vector<Vec3> x_start_;               ///< positions at the substep's start (self-collision)
  ClothState stage_;                        ///< RK4 scratch
  std::vector<Vec3> kx_[4], kv_[4];         ///< RK4 stage derivatives
};

}  // namespace cloth
