// Force and energy sums of the mass-spring model (seed 002 sections 4 and 6).
#include "cloth/forces.hpp"

#include <algorithm>

namespace cloth {

void compute_forces(const ClothModel& model, const ClothState& state, const Vec3& gravity,
                    std::vector<Vec3>& f) {
  const int n = state.vertex_count();
  f.resize(n);
  const double c = model.material.velocity_damping;
  // Gravity F_G = m g and the report's velocity damping a_d = -c v (as a force: -m c v).
  for (int i = 0; i < n; ++i) f[i] = model.mass[i] * (gravity - c * state.v[i]);
  for (const Spring& s : model.springs) {
    const Vec3 fi = spring_force_on_i(s, state.x[s.i], state.x[s.j], state.v[s.i], state.v[s.j]);
    f[s.i] += fi;
    f[s.j] -= fi;
  }
}

Energies compute_energies(const ClothModel& model, const ClothState& state, const Vec3& gravity) {
  Energies e;
  for (int i = 0; i < state.vertex_count(); ++i) {
    e.kinetic += 0.5 * model.mass[i] * state.v[i].squaredNorm();
    e.gravitational -= model.mass[i] * gravity.dot(state.x[i]);
  }
  for (const Spring& s : model.springs) e.elastic += spring_energy(s, state.x[s.i], state.x[s.j]);
  return e;
}

double max_structural_strain(const ClothModel& model, const ClothState& state) {
  double worst = 0;
  for (const Spring& s : model.springs) {
    if (s.type != SpringType::Structural) continue;
    worst = std::max(worst, ((state.x[s.i] - state.x[s.j]).norm() - s.rest) / s.rest);
  }
  return worst;
}

}  // namespace cloth
