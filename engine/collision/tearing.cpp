#include "collision/tearing.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <cstdint>
#include <numeric>
#include <set>
#include <string>

#include "core/error.hpp"

namespace cloth {
namespace {

/// Triangles on each edge, for the edges asked about.
using EdgeTriangles = std::map<EdgeKey, std::vector<int>>;

EdgeTriangles triangles_of_edges(const RestMesh& mesh) {
  EdgeTriangles on_edge;
  for (int t = 0; t < int(mesh.triangles.size()); ++t) {
    const auto& tri = mesh.triangles[size_t(t)];
    for (int k = 0; k < 3; ++k) on_edge[edge_key(tri[k], tri[(k + 1) % 3])].push_back(t);
  }
  return on_edge;
}

int find_root(std::vector<int>& up, int i) {
  while (up[size_t(i)] != i) i = up[size_t(i)] = up[size_t(up[size_t(i)])];
  return i;
}

/// Groups the triangles around vertex v that touch across an uncut edge (v, w); returns one list
/// of triangle indices per group, the largest first.
std::vector<std::vector<int>> fan_groups(int v, const std::vector<int>& around_v,
                                         const RestMesh& mesh, const EdgeTriangles& on_edge,
                                         const std::set<EdgeKey>& cut) {
  const int n = int(around_v.size());
  std::vector<int> up(static_cast<size_t>(n));
  std::iota(up.begin(), up.end(), 0);
  auto local = [&](int t) { return int(std::find(around_v.begin(), around_v.end(), t) - around_v.begin()); };
  for (int a = 0; a < n; ++a) {
    for (int w : mesh.triangles[size_t(around_v[size_t(a)])]) {
      if (w == v || cut.count(edge_key(v, w))) continue;
      for (int t : on_edge.at(edge_key(v, w))) up[size_t(find_root(up, local(t)))] = find_root(up, a);
    }
  }
  std::map<int, std::vector<int>> by_root;
  for (int a = 0; a < n; ++a) by_root[find_root(up, a)].push_back(around_v[size_t(a)]);
  std::vector<std::vector<int>> groups;
  for (auto& [root, tris] : by_root) groups.push_back(std::move(tris));
  std::stable_sort(groups.begin(), groups.end(),
                   [](const auto& a, const auto& b) { return a.size() > b.size(); });
  return groups;
}

}  // namespace

void validate_tear_settings(const TearSettings& settings) {
  visit_tearing(RangeCheck("cloth.tearing"), settings);
}

bool model_supports_tearing(ModelType type) {
  return type == ModelType::Springs || type == ModelType::BaraffWitkin || type == ModelType::EdgeArea;
}

EdgeKey edge_key(int a, int b) { return a < b ? EdgeKey{a, b} : EdgeKey{b, a}; }

std::vector<int> breakable_edges(const ClothModel& model) {
  const EdgeTriangles on_edge = triangles_of_edges(model.mesh);
  std::vector<int> breakable;
  for (int k = 0; k < int(model.edges.size()); ++k) {
    const Edge& e = model.edges[size_t(k)];
    if (on_edge.at(edge_key(e.i, e.j)).size() >= 2) breakable.push_back(k);
  }
  return breakable;
}

std::vector<EdgeKey> edges_to_break(const ClothModel& model, const std::vector<int>& breakable,
                                    const ClothState& state, double threshold, int max_breaks) {
  std::vector<std::pair<double, EdgeKey>> over;  // (elongation, edge)
  for (int k : breakable) {
    const Edge& e = model.edges[size_t(k)];
    const double elongation = edge_elongation(e, state.x);
    if (elongation > threshold) over.push_back({elongation, edge_key(e.i, e.j)});
  }
  std::sort(over.begin(), over.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::uint8_t> used(size_t(model.vertex_count()), 0);
  std::vector<EdgeKey> chosen;
  for (const auto& [elongation, e] : over) {
    if (used[size_t(e.first)] || used[size_t(e.second)]) continue;
    used[size_t(e.first)] = used[size_t(e.second)] = 1;
    chosen.push_back(e);
    if (int(chosen.size()) == max_breaks) break;
  }
  return chosen;
}

CutMesh cut_mesh(const RestMesh& mesh, const std::vector<EdgeKey>& cuts) {
  CutMesh out;
  out.mesh = mesh;
  out.parent.resize(size_t(mesh.vertex_count()));
  std::iota(out.parent.begin(), out.parent.end(), 0);

  const EdgeTriangles on_edge = triangles_of_edges(mesh);
  std::set<EdgeKey> cut;
  for (const EdgeKey& e : cuts) {
    const auto it = on_edge.find(e);
    if (it != on_edge.end() && it->second.size() >= 2) cut.insert(e);
  }
  out.taken.assign(cut.begin(), cut.end());
  std::set<int> ends;
  for (const EdgeKey& e : cut) ends.insert({e.first, e.second});
  if (ends.empty()) return out;

  std::map<int, std::vector<int>> around;  // triangles around each end vertex
  for (int t = 0; t < int(mesh.triangles.size()); ++t)
    for (int v : mesh.triangles[size_t(t)])
      if (ends.count(v)) around[v].push_back(t);

  for (int v : ends) {
    const auto groups = fan_groups(v, around[v], mesh, on_edge, cut);
    for (size_t g = 1; g < groups.size(); ++g) {  // the largest group keeps v
      const int copy = out.mesh.vertex_count();
      out.mesh.positions.push_back(mesh.positions[size_t(v)]);
      out.mesh.uv.push_back(mesh.uv[size_t(v)]);
      out.parent.push_back(v);
      for (int t : groups[g])
        for (int& corner : out.mesh.triangles[size_t(t)])
          if (corner == v) corner = copy;
    }
  }
  if (out.mesh.vertex_count() > mesh.vertex_count()) out.mesh.grid_nx = out.mesh.grid_ny = 0;

  const EdgeTriangles after = triangles_of_edges(out.mesh);
  for (const EdgeKey& e : cut) {
    const auto it = after.find(e);
    if (it != after.end() && it->second.size() >= 2) out.pending.push_back(e);
  }
  return out;
}

int connected_pieces(const RestMesh& mesh) {
  std::vector<int> up(size_t(mesh.vertex_count()));
  std::iota(up.begin(), up.end(), 0);
  std::vector<std::uint8_t> used(up.size(), 0);
  for (const auto& t : mesh.triangles) {
    for (int k = 0; k < 3; ++k) used[size_t(t[k])] = 1;
    up[size_t(find_root(up, t[1]))] = find_root(up, t[0]);
    up[size_t(find_root(up, t[2]))] = find_root(up, t[0]);
  }
  int pieces = 0;
  for (int v = 0; v < mesh.vertex_count(); ++v) pieces += (used[size_t(v)] && find_root(up, v) == v);
  return pieces;
}

}  // namespace cloth
