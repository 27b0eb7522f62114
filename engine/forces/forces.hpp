#pragma once
// Force assembly: springs (with damping), gravity, velocity damping, air drag in the wind.
#include <vector>

#include "model/model.hpp"
#include "model/state.hpp"
#include "core/parameter.hpp"
#include "forces/aerodynamics.hpp"
#include "forces/wind.hpp"

namespace cloth {

/// Forces from outside the cloth's material.
struct ExternalForces {
  Vec3 gravity = Vec3(0, -9.81, 0);  ///< m/s^2
  WindField wind;                    ///< air velocity field
  double air_density = 1.2;          ///< rho_air of the quadratic drag, kg/m^3 (air at 20 C, sea
                                     ///< level); with the cloth's C_n, C_t (aerodynamics.hpp)
  double drag = 0;                   ///< Provot's linear viscous coefficient q, N*s/m^3
                                     ///< (aerodynamics.hpp), optional, added to the quadratic drag;
                                     ///< wind acts through both, so wind needs air_density or q > 0
};

/// Calls v(field, ParamInfo) for each parameter of the "forces" section but the wind (visit_wind).
template <class Visitor, class Forces>
void visit_forces(Visitor&& v, Forces& f) {
  v(f.gravity, {.key = "gravity", .unit = "m/s^2", .lo = -1000, .hi = 1000,
                .tip = "Gravitational acceleration (x, y, z); Earth is (0, -9.81, 0)", .ui_lo = -30, .ui_hi = 30});
  v(f.air_density, {.key = "air_density", .unit = "kg/m^3", .lo = 0, .hi = 1e3, .label = "air density",
                    .tip = "rho_air of the quadratic air drag with the cloth's drag_normal and "
                           "drag_tangential (1.2: air; 0: vacuum)",
                    .ui_lo = 0, .ui_hi = 5});
  v(f.drag, {.key = "drag", .unit = "N*s/m^3", .lo = 0, .hi = 1e4, .label = "linear drag q",
             .tip = "Provot's linear viscous air force q: force per area per normal relative speed, "
                    "added to the quadratic drag (0: off)",
             .log = true, .ui_lo = 0, .ui_hi = 10});
}

/// The air's drag parameters (forces) with the cloth's drag coefficients (material).
AirDrag air_drag(const ExternalForces& ext, const SpringMaterial& material);

/// Throws InputError naming the field for NaN or absurd values.
void validate_external_forces(const ExternalForces& ext);

/// Whether a force evaluation takes the air (Excluded: the explicit steps' substeps between the
/// air's impulses, explicit_integrators.hpp).
enum class AirForces { Included, Excluded };

/// Everything but the material: f = m g - m c v (Yu, sec. 6) + per-triangle quadratic and
/// linear air drag in the wind (aerodynamics.hpp) at time t, s. Overwrites f, N. XPBD integrates
/// these explicitly and the material as constraints.
void compute_external_forces(const ClothModel& model, const ClothState& state,
                             const ExternalForces& ext, double t, std::vector<Vec3>& f,
                             AirForces air = AirForces::Included);

/// f = springs + m g - m c v (Yu, sections 4 and 6) + per-triangle air drag in the wind
/// (aerodynamics.hpp) at time t, s. Overwrites f, N.
void compute_forces(const ClothModel& model, const ClothState& state, const ExternalForces& ext,
                    double t, std::vector<Vec3>& f);

struct Energies {
  double kinetic = 0;        ///< sum 1/2 m |v|^2, J
  double gravitational = 0;  ///< sum -m g . x, J (zero at the origin)
  double elastic = 0;        ///< material (spring or Baraff-Witkin) energy, J
  double total() const { return kinetic + gravitational + elastic; }
};

Energies compute_energies(const ClothModel& model, const ClothState& state, const Vec3& gravity);

/// Largest (|x_i - x_j| - rest) / rest over the mesh's triangle edges (dimensionless strain), at
/// least 0; an edge whose strain is NaN (a NaN position) is skipped, an infinite position counts
/// as infinite strain. On up to `threads` threads (the same result for any count).
double max_edge_strain(const ClothModel& model, const ClothState& state, int threads = 1);
/// Per vertex, the largest strain of the edges through it, at least 0 (the strain heat map).
std::vector<double> vertex_edge_strain(const ClothModel& model, const ClothState& state);

}  // namespace cloth
