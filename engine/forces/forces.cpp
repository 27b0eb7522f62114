// Force and energy sums of the mass-spring model (Yu's report, sections 4 and 6).
#include "forces/forces.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "forces/aerodynamics.hpp"
#include "core/error.hpp"
#include "forces/internal_forces.hpp"
#include "core/parallel.hpp"

namespace cloth {

void validate_external_forces(const ExternalForces& ext) {
  visit_forces(RangeCheck("forces"), ext);
  visit_wind(RangeCheck("forces.wind"), ext.wind);
}

AirDrag air_drag(const ExternalForces& ext, const SpringMaterial& material) {
  return {.q = ext.drag, .air_density = ext.air_density, .drag_normal = material.drag_normal,
          .drag_tangential = material.drag_tangential};
}

void compute_forces(const ClothModel& model, const ClothState& state, const ExternalForces& ext,
                    double t, std::vector<Vec3>& f) {
  compute_external_forces(model, state, ext, t, f);
  add_internal_forces(model, state, f);
}

void compute_external_forces(const ClothModel& model, const ClothState& state,
                             const ExternalForces& ext, double t, std::vector<Vec3>& f, AirForces air) {
  const int n = state.vertex_count();
  f.resize(n);
  const double c = model.material.velocity_damping;
  // Gravity F_G = m g and the report's velocity damping a_d = -c v (as a force: -m c v).
  for (int i = 0; i < n; ++i) f[i] = model.mass[i] * (ext.gravity - c * state.v[i]);
  if (air == AirForces::Excluded) return;
  // One scratch per thread: this is a free function, called from every explicit step and stage.
  thread_local AeroScratch scratch;
  add_aero_forces(model.mesh.triangles, state.x, state.v, air_drag(ext, model.material), ext.wind, t, scratch, f);
}

Energies compute_energies(const ClothModel& model, const ClothState& state, const Vec3& gravity) {
  Energies e;
  for (int i = 0; i < state.vertex_count(); ++i) {
    e.kinetic += 0.5 * model.mass[i] * state.v[i].squaredNorm();
    e.gravitational -= model.mass[i] * gravity.dot(state.x[i]);
  }
  e.elastic = internal_energy(model, state);
  return e;
}

double max_edge_strain(const ClothModel& model, const ClothState& state, int threads) {
  return parallel_max(static_cast<int>(model.edges.size()), threads, 0.0,
                      [&](int k) { return edge_elongation(model.edges[size_t(k)], state.x); });
}

std::vector<double> vertex_edge_strain(const ClothModel& model, const ClothState& state) {
  std::vector<double> strain(size_t(model.vertex_count()), 0.0);
  for (const Edge& e : model.edges) {
    const double s = edge_elongation(e, state.x);
    strain[size_t(e.i)] = std::max(strain[size_t(e.i)], s);
    strain[size_t(e.j)] = std::max(strain[size_t(e.j)], s);
  }
  return strain;
}

}  // namespace cloth
