#pragma once
// Tearing: mesh edges break when stretched past a threshold, and the cloth is cut along them by
// splitting vertices (the crack opens where a broken edge reaches the boundary or meets another
// broken edge). The strain threshold is set in the UI; none of the sources in docs/references.md
// treats tearing. Cutting the mesh itself, rather than deleting springs, keeps one
// mechanism for every model that is built from triangles (springs, Baraff-Witkin, edge-area): the
// model is rebuilt on the cut mesh, so each piece keeps its own elements, masses and normals.
#include <utility>
#include <vector>

#include "core/parameter.hpp"
#include "mesh/mesh.hpp"
#include "model/model.hpp"
#include "model/state.hpp"

namespace cloth {

struct TearSettings {
  bool enabled = false;
  /// Elongation at which an edge breaks: |x_i - x_j| / rest - 1 (0.5 = 50% longer than at rest).
  double threshold = 0.5;
  /// Edges broken per check at most (one check per frame): the crack speed limit, edges / frame.
  int max_breaks_per_frame = 4;
};

/// Calls v(field, ParamInfo) for each parameter of "cloth.tearing".
template <class Visitor, class Settings>
void visit_tearing(Visitor&& v, Settings& t) {
  v(t.enabled, {.key = "enabled", .label = "tearing",
                .tip = "Edges break when stretched past the threshold, and the cloth is cut along "
                       "them (springs, baraff-witkin and edge-area models; Reset mends it)"});
  v(t.threshold, {.key = "threshold", .lo = 1e-3, .hi = 10, .label = "tear at stretch",
                  .tip = "Elongation at which an edge breaks (0.5 = half again as long as at rest)",
                  .ui_lo = 0.01, .ui_hi = 2});
  v(t.max_breaks_per_frame, {.key = "max_breaks_per_frame", .lo = 1, .hi = 100000,
                             .label = "breaks per frame",
                             .tip = "Edges broken per frame at most: the crack's speed limit",
                             .log = true, .ui_lo = 1, .ui_hi = 1000});
}

/// Throws InputError naming the field for a value outside its declared range.
void validate_tear_settings(const TearSettings& settings);

/// Whether a model can be cut: Feynman's and Breen's elements are laid out on an intact grid.
bool model_supports_tearing(ModelType type);

/// An undirected mesh edge as (smaller index, larger index).
using EdgeKey = std::pair<int, int>;
EdgeKey edge_key(int a, int b);

/// Indices into model.edges of the edges with triangles on both sides: the ones that can break
/// (cutting a boundary edge separates nothing).
std::vector<int> breakable_edges(const ClothModel& model);

/// The edges to break now among `breakable` (indices into model.edges): stretched beyond
/// `threshold` in `state` (elongation as in TearSettings), the most stretched first, at most one
/// per vertex and at most `max_breaks` in all. A real tear relieves the stress around it before
/// the next fibre goes; breaking every overstretched edge at once would instead shatter a
/// uniformly strained region into loose triangles.
std::vector<EdgeKey> edges_to_break(const ClothModel& model, const std::vector<int>& breakable,
                                    const ClothState& state, double threshold, int max_breaks);

struct CutMesh {
  RestMesh mesh;            ///< the input mesh with copies appended and triangles re-pointed
  std::vector<int> parent;  ///< per vertex of `mesh`: the input vertex it was copied from
  /// Cut edges that did not separate anything yet (both ends still hold their triangles together
  /// around the other side), in `mesh`'s indices, which for them equal the input's.
  std::vector<EdgeKey> pending;
  /// The cuts taken: the asked-for edges that had two or more triangles.
  std::vector<EdgeKey> taken;
};

/// Cuts `mesh` along `cuts`. Around each end vertex of a cut, the triangles fall into groups that
/// touch across uncut edges; the largest group keeps the vertex and each other group gets a copy
/// (same rest position and (u, v)) appended to the vertex list. Vertices that are not split keep
/// their index, so pins, slides and the mouse grab stay on the piece with the original vertex. The
/// result is no longer a generated grid (grid_nx = grid_ny = 0) once any vertex was split. Cuts of
/// boundary edges (one triangle) are dropped: there is nothing to separate.
CutMesh cut_mesh(const RestMesh& mesh, const std::vector<EdgeKey>& cuts);

/// Number of pieces of a mesh: groups of triangles connected through shared vertices.
int connected_pieces(const RestMesh& mesh);

}  // namespace cloth
