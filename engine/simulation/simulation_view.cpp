// The displays read the simulation through this file alone.
#include "simulation/simulation_view.hpp"

#include <algorithm>

#include "collision/collider.hpp"
#include "forces/forces.hpp"

namespace cloth {
namespace {

// A recorded frame's state_version: the top bit set, so that it never equals one of the
// simulation's own (a display that goes back to live uploads again).
constexpr std::uint64_t kReplayVersionBit = std::uint64_t(1) << 63;

}  // namespace

const ClothState& SimulationView::state() const { return frame_ ? frame_->state : sim_->state(); }
const ClothModel& SimulationView::model() const { return frame_ ? *frame_->model : sim_->model(); }
const RestMesh& SimulationView::mesh() const { return model().mesh; }
const std::vector<Vec3>& SimulationView::positions() const { return state().x; }
const std::vector<Vec3>& SimulationView::velocities() const { return state().v; }
double SimulationView::time() const { return frame_ ? frame_->time : sim_->time(); }

bool SimulationView::is_pinned(int vertex) const {
  if (frame_) return std::binary_search(frame_->pinned.begin(), frame_->pinned.end(), vertex);
  return sim_->pins().is_pinned(vertex);
}

std::optional<Grab> SimulationView::grab() const { return frame_ ? frame_->grab : sim_->mouse().current(); }

const std::vector<Collider>& SimulationView::colliders() const { return sim_->colliders().all(); }

Vec3 SimulationView::collider_displacement(int k) const {
  if (frame_ && size_t(k) < frame_->collider_displacements.size()) return frame_->collider_displacements[size_t(k)];
  return sim_->colliders()[size_t(k)].displacement(sim_->time());
}

std::uint64_t SimulationView::state_version() const {
  return frame_ ? kReplayVersionBit | frame_->version : sim_->state_version();
}
std::uint64_t SimulationView::topology_version() const {
  return frame_ ? frame_->topology_version : sim_->topology_version();
}
std::uint64_t SimulationView::collider_version() const { return sim_->colliders().version(); }

const SolverSettings& SimulationView::solver() const { return sim_->solver(); }
int SimulationView::substeps() const { return sim_->substeps(); }
bool SimulationView::substeps_raised() const { return sim_->substeps_raised(); }
int SimulationView::instabilities() const { return sim_->statistics().instabilities; }
const std::string& SimulationView::divergence() const { return sim_->divergence(); }

std::vector<double> SimulationView::vertex_strain() const { return vertex_edge_strain(model(), state()); }

double SimulationView::max_edge_strain() const { return cloth::max_edge_strain(model(), state()); }

std::vector<Vec3> SimulationView::applied_accelerations() const {
  const ClothModel& m = model();
  std::vector<Vec3> a;
  compute_external_forces(m, state(), sim_->external_forces(), time(), a);
  for (size_t i = 0; i < a.size(); ++i) {
    const double mass = m.mass[i];
    a[i] = mass > 0 ? Vec3(a[i] / mass) : Vec3::Zero();
  }
  return a;
}

Vec3 SimulationView::air_velocity(int vertex) const {
  return sim_->external_forces().wind.velocity(state().x[size_t(vertex)], time(), nullptr);
}

std::vector<int> SimulationView::touching_vertices() const {
  std::vector<int> out;
  const std::vector<Vec3>& x = state().x;
  const std::vector<Collider>& solids = colliders();
  const double now = sim_->time();
  // Each solid where the view shows it: signed_distance places it where it is now.
  std::vector<Vec3> shift;
  for (int k = 0; k < int(solids.size()); ++k)
    shift.push_back(collider_displacement(k) - solids[size_t(k)].displacement(now));
  Vec3 normal;  // signed_distance always writes it
  for (int i = 0; i < int(x.size()); ++i) {
    for (size_t k = 0; k < solids.size(); ++k) {
      if (signed_distance(solids[k], x[size_t(i)] - shift[k], &normal, now) < solids[k].thickness + kContactSlack) {
        out.push_back(i);
        break;
      }
    }
  }
  return out;
}

}  // namespace cloth
