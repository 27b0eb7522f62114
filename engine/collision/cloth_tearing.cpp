#include "collision/cloth_tearing.hpp"

#include <algorithm>
#include <string>

#include "core/error.hpp"

namespace cloth {

void ClothTearing::set_settings(const TearSettings& settings, ModelType model) {
  validate_tear_settings(settings);
  if (settings.enabled && !model_supports_tearing(model)) {
    throw InputError(std::string("tearing needs a model built from triangles (springs, baraff-witkin, edge-area), not ") +
                     name_of(model));
  }
  settings_ = settings;
}

std::optional<CutMesh> ClothTearing::tear(const ClothModel& model, const ClothState& state) {
  if (breakable_.empty()) breakable_ = breakable_edges(model);
  std::vector<EdgeKey> cuts = edges_to_break(model, breakable_, state, settings_.threshold,
                                             settings_.max_breaks_per_frame);
  if (cuts.empty()) return std::nullopt;
  cuts.insert(cuts.end(), pending_.begin(), pending_.end());
  CutMesh cut = cut_mesh(model.mesh, cuts);
  for (const EdgeKey& e : cut.taken) {
    torn_edges_ += std::find(pending_.begin(), pending_.end(), e) == pending_.end();
  }
  pending_ = std::move(cut.pending);
  if (cut.mesh.vertex_count() == model.vertex_count()) return std::nullopt;
  return cut;
}

void ClothTearing::mend() {
  pending_.clear();
  torn_edges_ = 0;
}

}  // namespace cloth
