// The tearing half of Simulation: breaking overstretched edges at the end of a frame, and
// swapping the mesh (cut, or mended on reset) with everything that is sized by it.
#include <algorithm>
#include <numeric>
#include <string>

#include "core/error.hpp"
#include "simulation/simulation.hpp"

namespace cloth {

void Simulation::set_tearing(const TearSettings& settings) {
  validate_tear_settings(settings);
  if (settings.enabled && !model_supports_tearing(model_.type)) {
    throw InputError(std::string("tearing needs a model built from triangles (springs, baraff-witkin, edge-area), not ") +
                     name_of(model_.type));
  }
  tearing_ = settings;
}

int Simulation::tear_overstrained_edges() {
  if (breakable_edges_.empty()) breakable_edges_ = breakable_edges(model_);
  std::vector<EdgeKey> cuts = edges_to_break(model_, breakable_edges_, state_, tearing_.threshold,
                                               tearing_.max_breaks_per_frame);
  if (cuts.empty()) return 0;
  cuts.insert(cuts.end(), pending_cuts_.begin(), pending_cuts_.end());
  CutMesh cut = cut_mesh(model_.mesh, cuts);
  int broken = 0;
  for (const EdgeKey& e : cut.taken) broken += std::find(pending_cuts_.begin(), pending_cuts_.end(), e) == pending_cuts_.end();
  torn_edges_ += broken;
  pending_cuts_ = std::move(cut.pending);
  if (cut.mesh.vertex_count() > model_.vertex_count()) replace_mesh(std::move(cut.mesh), cut.parent);
  return broken;
}

void Simulation::replace_mesh(RestMesh mesh, const std::vector<int>& parent) {
  ClothModel model = build_model(std::move(mesh), model_.material, model_.type);
  const size_t n = size_t(model.vertex_count());
  ClothState state;
  state.x.resize(n);
  state.v.resize(n);
  std::vector<std::uint8_t> pinned(n, 0);
  std::vector<Vec3> pin_positions(n);
  for (size_t v = 0; v < n; ++v) {
    const size_t from = size_t(parent[v]);
    state.x[v] = state_.x[from];
    state.v[v] = state_.v[from];
    pin_positions[v] = pin_positions_[from];
    if (from == v) pinned[v] = pinned_[v];
  }
  model_ = std::move(model);
  state_ = std::move(state);
  last_good_ = state_;
  pinned_ = std::move(pinned);
  pin_positions_ = std::move(pin_positions);
  stretch_triangles_ = build_stretch_shear(model_.mesh);
  breakable_edges_.clear();  // recomputed at the next tear check
  self_collider_ = SelfCollider(model_.mesh);
  integrator_ = make_integrator(solver_.integrator);  // drops caches sized by the old mesh
  ++topology_version_;
}

void Simulation::mend_tears() {
  pending_cuts_.clear();
  torn_edges_ = 0;
  if (model_.vertex_count() == intact_mesh_.vertex_count()) return;
  std::vector<int> parent(size_t(intact_mesh_.vertex_count()));
  std::iota(parent.begin(), parent.end(), 0);  // the intact vertices keep their indices in a cut
  replace_mesh(intact_mesh_, parent);
}

}  // namespace cloth
