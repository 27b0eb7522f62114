// Self-collision: spatial-hash broad phase, vertex-triangle / edge-edge proximity, impulse +
// friction + position alteration response (see self_collision.hpp).
#include "collision/self_collision.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>

#include "geometry/closest_points.hpp"
#include "core/error.hpp"

namespace cloth {

void validate_self_collision_settings(const SelfCollisionSettings& s) {
  visit_self_collision(RangeCheck("cloth.self_collision"), s);
  if (!(s.cell_size >= 0) || !std::isfinite(s.cell_size)) {
    throw InputError("self-collision cell size must be >= 0 m (0 = automatic), got " +
                     std::to_string(s.cell_size));
  }
}

bool vertex_triangle_proximity(int p, const std::array<int, 3>& tri, const std::vector<Vec3>& x0,
                               const std::vector<Vec3>& x, double h, ProximityPair& out) {
  const Vec3& P = x[p];
  const Vec3& A = x[tri[0]];
  const Vec3& B = x[tri[1]];
  const Vec3& C = x[tri[2]];
  const Vec3 N = (B - A).cross(C - A);
  const double len = N.norm();
  const double scale2 = std::max({(B - A).squaredNorm(), (C - A).squaredNorm(), (C - B).squaredNorm()});
  if (!(len > 1e-12 * scale2)) return false;  // degenerate triangle: its edges handle contact
  const Vec3 n = N / len;
  const double d = n.dot(P - A);
  const Vec3 Q = P - d * n;  // projection onto the plane
  const Vec3 bary((B - Q).cross(C - Q).dot(n) / len, (C - Q).cross(A - Q).dot(n) / len,
                  (A - Q).cross(B - Q).dot(n) / len);
  Vec3 w;
  Vec3 normal;
  double gap;
  if ((bary.array() >= 0).all()) {
    // Over the face: the plane distance, signed by the side p was on at the start of the step.
    const Vec3 N0 = (x0[tri[1]] - x0[tri[0]]).cross(x0[tri[2]] - x0[tri[0]]);
    const double s0 = N0.dot(x0[p] - x0[tri[0]]);
    const double side = s0 > 0 ? 1.0 : s0 < 0 ? -1.0 : (d >= 0 ? 1.0 : -1.0);
    gap = side * d;
    if (gap >= h) return false;
    if (gap < 0) {
      // Crossed since x0: plausible only if the motion over the step could have carried it there.
      const double moved = (P - x0[p]).norm() + std::max({(A - x0[tri[0]]).norm(),
                                                          (B - x0[tri[1]]).norm(),
                                                          (C - x0[tri[2]]).norm()});
      if (gap < -(moved + h)) return false;
    }
    normal = side * n;
    w = bary;
  } else {
    w = closest_point_on_triangle(P, A, B, C);
    const Vec3 r = P - (w[0] * A + w[1] * B + w[2] * C);
    const double dist = r.norm();
    if (dist >= h || !(dist > 1e-12 * h)) return false;  // touching exactly: edge-edge takes it
    normal = r / dist;
    gap = dist;
  }
  out.edge_edge = false;
  out.vertices = {p, tri[0], tri[1], tri[2]};
  out.weights = {1.0, -w[0], -w[1], -w[2]};
  out.normal = normal;
  out.gap = gap;
  return true;
}

bool edge_edge_proximity(const std::array<int, 2>& e, const std::array<int, 2>& f,
                         const std::vector<Vec3>& x0, const std::vector<Vec3>& x, double h,
                         ProximityPair& out) {
  const Vec3 &P0 = x[e[0]], &P1 = x[e[1]], &Q0 = x[f[0]], &Q1 = x[f[1]];
  double s, t;
  closest_points_on_segments(P0, P1, Q0, Q1, s, t);
  const Vec3 r = (P0 + s * (P1 - P0)) - (Q0 + t * (Q1 - Q0));
  const double dist = r.norm();
  if (dist >= h) return false;
  const Vec3 r0 = (x0[e[0]] + s * (x0[e[1]] - x0[e[0]])) - (x0[f[0]] + t * (x0[f[1]] - x0[f[0]]));
  Vec3 normal;
  if (dist > 1e-9 * h) {
    normal = r / dist;
    if (r0.dot(normal) < 0) normal = -normal;  // crossed since x0: keep the start side
  } else if (r0.norm() > 1e-9 * h) {
    normal = r0.normalized();
  } else {
    const Vec3 c = (P1 - P0).cross(Q1 - Q0);
    if (!(c.norm() > 0)) return false;  // parallel and touching: no usable direction
    normal = c.normalized();
  }
  out.edge_edge = true;
  out.vertices = {e[0], e[1], f[0], f[1]};
  out.weights = {1 - s, s, -(1 - t), -t};
  out.normal = normal;
  out.gap = normal.dot(r);
  return true;
}

SelfCollider::SelfCollider(const std::vector<std::array<int, 3>>& triangles, int vertex_count)
    : triangles_(triangles), vertex_count_(vertex_count) {
  edges_.reserve(3 * triangles_.size());
  for (const auto& t : triangles_) {
    for (int k = 0; k < 3; ++k) {
      const int a = t[k], b = t[(k + 1) % 3];
      edges_.push_back({std::min(a, b), std::max(a, b)});
    }
  }
  std::sort(edges_.begin(), edges_.end());
  edges_.erase(std::unique(edges_.begin(), edges_.end()), edges_.end());
}

template <class VT, class EE>
void SelfCollider::for_each_candidate(const std::vector<Vec3>& x0, const std::vector<Vec3>& x,
                                      double h, double cell_size, VT&& on_vertex_triangle,
                                      EE&& on_edge_edge) {
  // Swept boxes (start and end of the step), inflated by h (triangles) and h/2 (each edge).
  tri_boxes_.resize(triangles_.size());
  double max_extent = 0;
  for (size_t i = 0; i < triangles_.size(); ++i) {
    const auto& t = triangles_[i];
    Aabb b = Aabb::of(x[t[0]], x[t[1]], x[t[2]]);
    b.expand(Aabb::of(x0[t[0]], x0[t[1]], x0[t[2]]));
    tri_boxes_[i] = b.inflated(h);
    if (tri_boxes_[i].valid()) {
      max_extent = std::max(max_extent, (tri_boxes_[i].hi - tri_boxes_[i].lo).maxCoeff());
    }
  }
  const double cell = cell_size > 0 ? cell_size : (max_extent > 0 ? max_extent : 1.0);
  tri_hash_.build(tri_boxes_, cell);
  for (int p = 0; p < static_cast<int>(x.size()); ++p) {
    tri_hash_.query(Aabb::of(x0[p], x[p]), [&](int t) {
      const auto& tri = triangles_[t];
      if (tri[0] == p || tri[1] == p || tri[2] == p) return;
      on_vertex_triangle(p, t);
    });
  }
  edge_boxes_.resize(edges_.size());
  for (size_t i = 0; i < edges_.size(); ++i) {
    const auto& e = edges_[i];
    Aabb b = Aabb::of(x[e[0]], x[e[1]]);
    b.expand(Aabb::of(x0[e[0]], x0[e[1]]));
    edge_boxes_[i] = b.inflated(0.5 * h);
  }
  edge_hash_.build(edge_boxes_, cell);
  edge_hash_.for_each_self_pair([&](int i, int j) {
    const auto& e = edges_[i];
    const auto& f = edges_[j];
    if (e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1]) return;
    on_edge_edge(i, j);
  });
}

void SelfCollider::broad_phase(const std::vector<Vec3>& x_start, const std::vector<Vec3>& x,
                               double thickness, double cell_size,
                               std::vector<std::array<int, 2>>& vertex_triangle,
                               std::vector<std::array<int, 2>>& edge_edge) {
  vertex_triangle.clear();
  edge_edge.clear();
  for_each_candidate(
      x_start, x, thickness, cell_size, [&](int p, int t) { vertex_triangle.push_back({p, t}); },
      [&](int i, int j) { edge_edge.push_back({i, j}); });
}

std::vector<ProximityPair> SelfCollider::find_proximities(const std::vector<Vec3>& x_start,
                                                          const std::vector<Vec3>& x,
                                                          double thickness, double cell_size) {
  std::vector<ProximityPair> out;
  ProximityPair pair;
  for_each_candidate(
      x_start, x, thickness, cell_size,
      [&](int p, int t) {
        if (vertex_triangle_proximity(p, triangles_[t], x_start, x, thickness, pair)) out.push_back(pair);
      },
      [&](int i, int j) {
        if (edge_edge_proximity(edges_[i], edges_[j], x_start, x, thickness, pair)) out.push_back(pair);
      });
  return out;
}

namespace {

// Response to one close pair (Gauss-Seidel: applied at once). Returns whether anything changed.
bool respond(const ProximityPair& c, const std::vector<double>& inv_mass, double h, double mu,
             ClothState& state) {
  double W = 0;  // sum w_k^2 / m_k: the pair's inverse effective mass along any direction
  for (int k = 0; k < 4; ++k) W += c.weights[k] * c.weights[k] * inv_mass[c.vertices[k]];
  if (!(W > 0)) return false;  // all four pinned
  const Vec3& n = c.normal;
  bool changed = false;
  // (b) position alteration: move apart along n until the gap is h (the centre of mass stays).
  if (c.gap < h) {
    // Aim a hair beyond h so that rounding does not re-detect the pair in the next pass.
    const double lambda = (h * (1 + 1e-6) - c.gap) / W;
    for (int k = 0; k < 4; ++k) {
      state.x[c.vertices[k]] += (c.weights[k] * inv_mass[c.vertices[k]] * lambda) * n;
    }
    changed = true;
  }
  // (a) inelastic impulse on the relative velocity along n, then Coulomb friction (Bridson et al.
  // 2002, 7.2): the relative tangential speed drops by at most mu x the normal speed removed.
  Vec3 vrel = Vec3::Zero();
  for (int k = 0; k < 4; ++k) vrel += c.weights[k] * state.v[c.vertices[k]];
  const double vn = vrel.dot(n);
  if (vn < 0) {
    const Vec3 vt = vrel - vn * n;
    const double vt_len = vt.norm();
    const double drop = std::min(vt_len, mu * (-vn));
    Vec3 dv_rel = -vn * n;  // wanted change of the relative velocity
    if (drop > 0) dv_rel -= (drop / vt_len) * vt;
    for (int k = 0; k < 4; ++k) {
      state.v[c.vertices[k]] += (c.weights[k] * inv_mass[c.vertices[k]] / W) * dv_rel;
    }
    changed = true;
  }
  return changed;
}

}  // namespace

SelfCollisionStats SelfCollider::resolve(const std::vector<double>& mass,
                                         const std::vector<std::uint8_t>& pinned,
                                         const std::vector<Vec3>& x_start, ClothState& state,
                                         const SelfCollisionSettings& settings) {
  SelfCollisionStats stats;
  if (!settings.enabled) return stats;
  const int n = state.vertex_count();
  assert(n == vertex_count_ && static_cast<int>(mass.size()) == n &&
         static_cast<int>(x_start.size()) == n && static_cast<int>(state.v.size()) == n &&
         (pinned.empty() || static_cast<int>(pinned.size()) == n));
  inv_mass_.assign(n, 0.0);
  for (int i = 0; i < n; ++i) {
    const bool pin = !pinned.empty() && pinned[i];
    inv_mass_[i] = (!pin && mass[i] > 0) ? 1.0 / mass[i] : 0.0;
  }
  const double h = settings.thickness;
  // Broad phase once per call, with boxes inflated by an extra margin of h/2 so that the candidate
  // lists stay valid while the passes move vertices (each correction moves a pair apart by at most
  // about h). Every pass then re-runs the narrow phase on the current positions and responds at
  // once (Gauss-Seidel).
  const double margin = 0.5 * h;
  vt_candidates_.clear();
  ee_candidates_.clear();
  for_each_candidate(
      x_start, state.x, h + margin, settings.cell_size,
      [&](int p, int t) { vt_candidates_.push_back({p, t}); },
      [&](int i, int j) { ee_candidates_.push_back({i, j}); });
  ProximityPair pair;
  for (int pass = 0; pass < settings.passes; ++pass) {
    int found = 0;
    for (const auto& [p, t] : vt_candidates_) {
      if (!vertex_triangle_proximity(p, triangles_[t], x_start, state.x, h, pair)) continue;
      ++found;
      stats.pairs_corrected += respond(pair, inv_mass_, h, settings.friction, state);
    }
    for (const auto& [i, j] : ee_candidates_) {
      if (!edge_edge_proximity(edges_[i], edges_[j], x_start, state.x, h, pair)) continue;
      ++found;
      stats.pairs_corrected += respond(pair, inv_mass_, h, settings.friction, state);
    }
    stats.vertex_triangle_candidates += static_cast<int>(vt_candidates_.size());
    stats.edge_edge_candidates += static_cast<int>(ee_candidates_.size());
    if (pass == 0) stats.pairs_found = found;
    stats.passes = pass + 1;
    stats.pairs_remaining = found;
    if (found == 0) break;
  }
  return stats;
}

}  // namespace cloth
