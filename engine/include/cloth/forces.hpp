#pragma once
// Force assembly for the mass-spring model: springs (with damping), gravity, velocity damping.
#include <vector>

#include "cloth/model.hpp"
#include "cloth/state.hpp"

namespace cloth {

/// f = sum of spring forces + m g - m c v (seed 002 sections 4 and 6). Overwrites f, N.
void compute_forces(const ClothModel& model, const ClothState& state, const Vec3& gravity,
                    std::vector<Vec3>& f);

struct Energies {
  double kinetic = 0;        ///< sum 1/2 m |v|^2, J
  double gravitational = 0;  ///< sum -m g . x, J (zero at the origin)
  double elastic = 0;        ///< sum of spring energies, J
  double total() const { return kinetic + gravitational + elastic; }
};

Energies compute_energies(const ClothModel& model, const ClothState& state, const Vec3& gravity);

/// Largest (|x_i - x_j| - rest) / rest over structural springs (dimensionless strain).
double max_structural_strain(const ClothModel& model, const ClothState& state);

}  // namespace cloth
