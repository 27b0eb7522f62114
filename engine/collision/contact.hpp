#pragma once
// Cloth/solid contact response shared by the integrators: push a vertex out to the contact offset,
// remove its approaching normal velocity relative to the (possibly moving) solid, and apply
// Coulomb friction with static and kinetic coefficients.
#include <cstdint>
#include <vector>

#include "collision/collider.hpp"
#include "model/state.hpp"

namespace cloth {

/// Coulomb friction at velocity level on a vertex whose normal velocity (relative to the solid,
/// whose velocity is `solid_v`) was changed by a normal impulse per unit mass `normal_dv` >= 0,
/// m/s. The tangential relative velocity stops if its size is at most mu_s * normal_dv (static
/// friction: the impulse needed to stop it is within the cone), otherwise it loses
/// mu_k * normal_dv (kinetic friction). This is B&W section 5's rule (lock the particle while the
/// tangential force is below a fraction of the normal force, else slide against a force
/// proportional to it) written for the impulse of one step.
void apply_coulomb_friction(Vec3& v, const Vec3& solid_v, const Vec3& n, double normal_dv,
                            double mu_static, double mu_kinetic);

/// Pushes every vertex closer than `thickness` back to the offset surface of each collider (where
/// its motion puts it at time t, s), removes the approaching relative normal velocity (inelastic
/// contact) and applies Coulomb friction with that normal velocity change. The substep of length
/// h moved the vertex with its velocity before friction, so the position moves by h times the
/// velocity change too: a sticking vertex ends where it started along the surface, with no creep
/// down a slope (h = 0: velocities only). `pinned` vertices are left alone. Returns the number of vertex contacts.
int resolve_contacts(ClothState& state, const std::vector<Collider>& colliders,
                     const std::vector<std::uint8_t>& pinned, double t, double h);

}  // namespace cloth
