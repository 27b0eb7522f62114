#pragma once
// How long a substep the explicit integrators can take on a cloth before they diverge: the
// stiffest mode's rates bounded from the force Jacobians, and each method's stability region
// applied to them. The Simulation turns the bound into "auto" substeps (solver.substeps = 0) and
// into the cause it names when a step blows up (stiffness or damping).
//
// For a mode x'' = -omega^2 x - gamma x' (linearised cloth: omega^2 an eigenvalue of
// -M^-1 df/dx, gamma one of -M^-1 df/dv), a step h is stable when
//   symplectic Euler, Verlet:  h^2 omega^2 + 2 h gamma < 4      (the Jury conditions of its 2x2 map)
//   RK4:                       |h lambda| <= 2.5                 (inside its region along both axes)
//   forward Euler:             h <= gamma / omega^2 and h <= 2 / gamma (no undamped mode is stable)
// with lambda the mode's eigenvalues, |lambda| <= (gamma + sqrt(gamma^2 + 4 omega^2)) / 2.
// Gershgorin's theorem bounds omega^2 and gamma by the largest row sums of |M^-1 df/dx| and
// |M^-1 df/dv|; forward Euler's damping per mode is taken as the least one every mode has, the
// material's velocity damping (StabilityBound.* holds the bounds against measured divergence).
#include <limits>

#include "forces/forces.hpp"
#include "integrators/integrator_type.hpp"
#include "model/model.hpp"
#include "model/state.hpp"

namespace cloth {

/// Bounds on the rates of the cloth's fastest mode at a state.
struct StiffestMode {
  double omega_squared = 0;  ///< >= every eigenvalue of -M^-1 df/dx, 1/s^2
  double gamma = 0;          ///< >= every eigenvalue of -M^-1 df/dv, 1/s
  double least_gamma = 0;    ///< the damping rate every mode has (velocity damping), 1/s
};

/// Gershgorin bounds from the Jacobians of the model's forces and the air at `state`, time t.
/// Vertices without mass (none in a built model) are skipped.
StiffestMode stiffest_mode(const ClothModel& model, const ClothState& state, const ExternalForces& ext,
                           double t);

/// Whether `integrator` is one of the explicit methods whose step has a stability bound.
bool is_explicit(IntegratorType integrator);

/// The longest stable substep of `integrator` for `mode`, s; infinity for an implicit method or
/// a mode without stiffness and damping, and 0 for forward Euler on an undamped stiff mode.
double stable_substep(IntegratorType integrator, const StiffestMode& mode);

/// The substeps "auto" gives: enough that dt / substeps is within kAutoSafety of the stable
/// substep, between 1 and kMaxAutoSubsteps (forward Euler without damping gets the cap).
inline constexpr double kAutoSafety = 0.8;
inline constexpr int kMaxAutoSubsteps = 1000;
int auto_substeps(IntegratorType integrator, const StiffestMode& mode, double dt);

/// Which rate limits the step, in words: "stiffness" when the undamped bound binds, "damping"
/// when the damping alone would need a shorter step than the stiffness alone.
const char* limiting_rate(IntegratorType integrator, const StiffestMode& mode);

}  // namespace cloth
