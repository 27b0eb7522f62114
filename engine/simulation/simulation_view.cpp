// The displays read the simulation through this file alone.
#include "simulation/simulation_view.hpp"

#include "collision/collider.hpp"
#include "forces/forces.hpp"

namespace cloth {

const ClothModel& SimulationView::model() const { return sim_->model(); }
const RestMesh& SimulationView::mesh() const { return sim_->model().mesh; }
const std::vector<Vec3>& SimulationView::positions() const { return sim_->state().x; }
const std::vector<Vec3>& SimulationView::velocities() const { return sim_->state().v; }
double SimulationView::time() const { return sim_->time(); }
bool SimulationView::is_pinned(int vertex) const { return sim_->pins().is_pinned(vertex); }
std::optional<Grab> SimulationView::grab() const { return sim_->mouse().current(); }

const std::vector<Collider>& SimulationView::colliders() const { return sim_->colliders().all(); }

Vec3 SimulationView::collider_displacement(int k) const {
  return sim_->colliders()[size_t(k)].displacement(sim_->time());
}

std::uint64_t SimulationView::state_version() const { return sim_->state_version(); }
std::uint64_t SimulationView::topology_version() const { return sim_->topology_version(); }
std::uint64_t SimulationView::collider_version() const { return sim_->colliders().version(); }

const SolverSettings& SimulationView::solver() const { return sim_->solver(); }
int SimulationView::instabilities() const { return sim_->statistics().instabilities; }

std::vector<double> SimulationView::vertex_strain() const {
  return vertex_edge_strain(sim_->model(), sim_->state());
}

double SimulationView::max_edge_strain() const {
  return cloth::max_edge_strain(sim_->model(), sim_->state());
}

std::vector<Vec3> SimulationView::applied_accelerations() const {
  const ClothModel& model = sim_->model();
  std::vector<Vec3> a;
  compute_external_forces(model, sim_->state(), sim_->external_forces(), sim_->time(), a);
  for (size_t i = 0; i < a.size(); ++i) {
    const double m = model.mass[i];
    a[i] = m > 0 ? Vec3(a[i] / m) : Vec3::Zero();
  }
  return a;
}

Vec3 SimulationView::air_velocity(int vertex) const {
  return sim_->external_forces().wind.velocity(sim_->state().x[size_t(vertex)], sim_->time(), nullptr);
}

std::vector<int> SimulationView::touching_vertices() const {
  std::vector<int> out;
  const std::vector<Vec3>& x = sim_->state().x;
  const double t = sim_->time();
  Vec3 normal;  // signed_distance always writes it
  for (int i = 0; i < int(x.size()); ++i) {
    for (const Collider& c : sim_->colliders()) {
      if (signed_distance(c, x[size_t(i)], &normal, t) < c.thickness + kContactSlack) {
        out.push_back(i);
        break;
      }
    }
  }
  return out;
}

}  // namespace cloth
