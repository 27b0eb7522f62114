#pragma once
// Cloth self-collision: vertex-triangle and edge-edge proximity within a cloth
// thickness h, found through a spatial hash rebuilt on every pass, and a response after Bridson,
// Fedkiw & Anderson 2002 ("Robust treatment of collisions, contact and friction for cloth
// animation"), section 7.2: an inelastic impulse that removes the approaching relative normal
// velocity of each close pair, distributed over its four vertices by barycentric weights and
// masses, plus Coulomb friction on the relative tangential velocity; and a position alteration
// that moves the pair apart to distance h (Baraff & Witkin 1998 section 6 style; it replaces
// Bridson's repulsion spring). Several Gauss-Seidel passes; pinned vertices never move.
//
// Proximity-based, NOT continuous collision detection: the side a vertex was on at the start of
// the step is remembered, so a vertex that crossed a triangle (at any depth, as long as it ended
// over the triangle) is pushed back to the side it came from; but two edges that pass through each
// other by more than h in one step are not caught. Keep the relative motion per (sub)step well
// below h (substeps) to avoid tunnelling.
//
// Contract with the integrators: call it where resolve_contacts is called (after each substep),
// with x_start = positions at the start of that substep and `state` = the end-of-substep x and v.
// Like resolve_contacts it projects x and removes approaching velocity from v; it does not turn
// the position alteration into velocity (no energy injected). For position-based integrators that
// derive v from x (Verlet, XPBD) call it after v has been computed, as resolve_contacts is.
#include <array>
#include <cstdint>
#include <vector>

#include "core/parameter.hpp"
#include "mesh/mesh.hpp"
#include "geometry/spatial_hash.hpp"
#include "model/state.hpp"

namespace cloth {

struct SelfCollisionSettings {
  bool enabled = false;      ///< the UI switch; resolve does nothing when false
  double thickness = 0.004;  ///< h: distance kept between non-adjacent elements, m (> 0; keep it
                             ///< well below the rest edge length / sqrt(2), or neighbours collide)
  double friction = 0.2;     ///< Coulomb coefficient on relative tangential velocity (>= 0)
  int passes = 4;            ///< narrow-phase + response passes per call, >= 1 (stops early
                             ///< when a pass finds nothing); the broad phase runs once per call
  double cell_size = 0;      ///< spatial hash cell side, m; 0 = largest element box (automatic)
};

/// Calls v(field, ParamInfo) for each parameter of "cloth.self_collision" (cell_size is internal).
template <class Visitor, class Settings>
void visit_self_collision(Visitor&& v, Settings& s) {
  v(s.enabled, {.key = "enabled", .label = "self-collision",
                .tip = "The cloth against itself: vertex-triangle and edge-edge proximity, pushed "
                       "apart to the thickness (give fast motion enough substeps)"});
  v(s.thickness, {.key = "thickness", .unit = "m", .lo = 1e-5, .hi = 0.1, .label = "cloth thickness",
                  .tip = "Distance kept between layers; keep it below the edge length", .log = true,
                  .ui_lo = 5e-4, .ui_hi = 0.02});
  v(s.friction, {.key = "friction", .lo = 0, .hi = 10, .label = "cloth friction",
                 .tip = "Coulomb coefficient between cloth layers", .ui_lo = 0, .ui_hi = 1});
  v(s.passes, {.key = "passes", .lo = 1, .hi = 100, .label = "self passes",
               .tip = "Detection and response passes per substep", .ui_lo = 1, .ui_hi = 16});
}

/// Throws InputError naming the field for a non-finite / out-of-range setting.
void validate_self_collision_settings(const SelfCollisionSettings& s);

/// What one call cost and did, for the UI (summed over passes unless stated).
struct SelfCollisionStats {
  int vertex_triangle_candidates = 0;  ///< vertex-triangle narrow-phase tests (all passes)
  int edge_edge_candidates = 0;        ///< edge-edge narrow-phase tests (all passes)
  int pairs_found = 0;      ///< pairs closer than h (or crossed) in the first pass
  int pairs_corrected = 0;  ///< pair responses applied (position and/or velocity changed)
  int passes = 0;           ///< passes run
  int pairs_remaining = 0;  ///< pairs found (and corrected) by the last pass run; 0 means the
                            ///< passes converged before running out
};

/// A close pair: vertices[0] (vertex-triangle) or vertices[0..1] (edge-edge) on one side with
/// weights +weights[k], the others with weights -weights[k]; sum_k w_k x_k is the separation
/// vector, its component along `normal` is `gap`.
struct ProximityPair {
  bool edge_edge = false;
  std::array<int, 4> vertices{};  ///< VT: (p, a, b, c); EE: (p0, p1, q0, q1)
  std::array<double, 4> weights{};  ///< signed: VT (1, -wa, -wb, -wc); EE (1-s, s, -(1-t), -t)
  Vec3 normal = Vec3::UnitY();    ///< unit, pointing from the second element to the first, on the
                                  ///< side the pair was on at the start of the step
  double gap = 0;                 ///< signed separation along normal, m (< 0: crossed)
};

/// Topology (edges, adjacency) built once per mesh, plus scratch buffers reused between calls.
class SelfCollider {
 public:
  SelfCollider(const std::vector<std::array<int, 3>>& triangles, int vertex_count);
  explicit SelfCollider(const RestMesh& mesh) : SelfCollider(mesh.triangles, mesh.vertex_count()) {}

  /// Resolves self-collisions of the end-of-step state (see the file comment). mass: kg per
  /// vertex; pinned (may be empty): 1 = infinite mass. x_start: positions at the start of the
  /// step, m.
  SelfCollisionStats resolve(const std::vector<double>& mass, const std::vector<std::uint8_t>& pinned,
                             const std::vector<Vec3>& x_start, ClothState& state,
                             const SelfCollisionSettings& settings);

  /// Narrow-phase result without response: every non-adjacent pair closer than h at x (or crossed
  /// since x_start). Pass x_start = x for a pure proximity query.
  std::vector<ProximityPair> find_proximities(const std::vector<Vec3>& x_start,
                                              const std::vector<Vec3>& x, double thickness,
                                              double cell_size = 0);

  /// Broad phase only: (vertex, triangle) and (edge, edge) index pairs whose swept, h-inflated
  /// boxes overlap (adjacent pairs excluded). A superset of the close pairs.
  void broad_phase(const std::vector<Vec3>& x_start, const std::vector<Vec3>& x, double thickness,
                   double cell_size, std::vector<std::array<int, 2>>& vertex_triangle,
                   std::vector<std::array<int, 2>>& edge_edge);

  const std::vector<std::array<int, 3>>& triangles() const { return triangles_; }
  const std::vector<std::array<int, 2>>& edges() const { return edges_; }

 private:
  template <class VT, class EE>
  void for_each_candidate(const std::vector<Vec3>& x_start, const std::vector<Vec3>& x, double h,
                          double cell_size, VT&& on_vertex_triangle, EE&& on_edge_edge);

  std::vector<std::array<int, 3>> triangles_;
  std::vector<std::array<int, 2>> edges_;
  int vertex_count_ = 0;
  // Scratch, reused between calls.
  std::vector<Aabb> tri_boxes_, edge_boxes_;
  SpatialHash tri_hash_, edge_hash_;
  std::vector<double> inv_mass_;
  std::vector<std::array<int, 2>> vt_candidates_, ee_candidates_;
};

/// Narrow phase of one vertex-triangle pair (p not a corner of tri). True and `out` filled when
/// the pair is closer than h at x, or p crossed the triangle's plane over the triangle since x0.
bool vertex_triangle_proximity(int p, const std::array<int, 3>& tri, const std::vector<Vec3>& x0,
                               const std::vector<Vec3>& x, double h, ProximityPair& out);

/// Narrow phase of one edge-edge pair (no shared vertex). True when closer than h at x; the normal
/// is oriented by the separation at x0 (so a pair that crossed gets a negative gap).
bool edge_edge_proximity(const std::array<int, 2>& e, const std::array<int, 2>& f,
                         const std::vector<Vec3>& x0, const std::vector<Vec3>& x, double h,
                         ProximityPair& out);

}  // namespace cloth
