#pragma once
// Tearing over a run: the settings, the edges broken so far, the cuts still waiting for a
// second broken edge to open, and the mesh as it was before any tear (collision/tearing.hpp
// holds the stateless steps: which edges break, and cutting the mesh along them).
#include <optional>
#include <utility>
#include <vector>

#include "collision/tearing.hpp"
#include "mesh/mesh.hpp"
#include "model/model.hpp"
#include "model/model_type.hpp"
#include "model/state.hpp"

namespace cloth {

class ClothTearing {
 public:
  ClothTearing() = default;
  explicit ClothTearing(RestMesh intact) : intact_(std::move(intact)) {}

  /// Throws InputError for a bad threshold, or when turning tearing on for a model that cannot
  /// be cut (model_supports_tearing).
  void set_settings(const TearSettings& settings, ModelType model);
  const TearSettings& settings() const { return settings_; }

  /// End of a frame: the edges of `model` stretched past the threshold in `state` break. Returns
  /// the cut mesh when a vertex was split (the caller rebuilds everything on it), nullopt when
  /// nothing separated; the count of broken edges grows either way.
  std::optional<CutMesh> tear(const ClothModel& model, const ClothState& state);
  /// The model was rebuilt (a cut, mending, another model type): its edge list changed.
  void forget_edges() { breakable_.clear(); }
  /// No broken edges (reset mends the cloth; the caller puts the intact mesh back).
  void mend();

  /// Edges broken since the start or the last mend.
  int torn_edges() const { return torn_edges_; }
  /// The mesh before any tear. Its vertices keep their indices in a torn mesh (copies are
  /// appended), so its grid indexing still finds the same corners.
  const RestMesh& intact_mesh() const { return intact_; }

 private:
  TearSettings settings_;
  RestMesh intact_;
  std::vector<EdgeKey> pending_;  ///< broken edges whose sides still hold together (tearing.hpp)
  std::vector<int> breakable_;    ///< model.edges with triangles on both sides, found lazily
  int torn_edges_ = 0;
};

}  // namespace cloth
