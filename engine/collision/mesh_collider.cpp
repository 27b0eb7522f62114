#include "collision/mesh_collider.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "core/error.hpp"
#include "mesh/mesh.hpp"

namespace cloth {
namespace {

constexpr int kLeafSize = 4;

/// Closest point of triangle abc to p as barycentric coordinates (Ericson, Real-Time Collision
/// Detection, 5.1.5).
Vec3 closest_barycentric(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return {1, 0, 0};
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return {0, 1, 0};
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const double v = d1 / (d1 - d3);
    return {1 - v, v, 0};
  }
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return {0, 0, 1};
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const double w = d2 / (d2 - d6);
    return {1 - w, 0, w};
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return {0, 1 - w, w};
  }
  const double denom = 1 / (va + vb + vc);
  const double v = vb * denom, w = vc * denom;
  return {1 - v - w, v, w};
}

}  // namespace

TriangleMeshSdf::TriangleMeshSdf(std::vector<Vec3> positions,
                                 std::vector<std::array<int, 3>> triangles, const std::string& what)
    : positions_(std::move(positions)), triangles_(std::move(triangles)) {
  const int n = int(positions_.size());
  if (triangles_.empty()) throw InputError(what + ": the collider mesh has no triangles");
  // Closed and consistently oriented: each directed edge once, and its reverse exactly once.
  std::map<std::pair<int, int>, int> directed;
  face_normals_.resize(triangles_.size());
  for (size_t t = 0; t < triangles_.size(); ++t) {
    const auto& tri = triangles_[t];
    for (int k = 0; k < 3; ++k) {
      if (tri[k] < 0 || tri[k] >= n) throw InputError(what + ": triangle index out of range");
      if (++directed[{tri[k], tri[(k + 1) % 3]}] > 1) {
        throw InputError(what + ": the collider mesh is not consistently oriented or not manifold "
                                "(an edge is used twice in the same direction)");
      }
    }
    const Vec3 cross = (positions_[tri[1]] - positions_[tri[0]]).cross(positions_[tri[2]] - positions_[tri[0]]);
    if (!(cross.norm() > 1e-14)) {
      throw InputError(what + ": the collider mesh has a degenerate triangle (" + std::to_string(t) + ")");
    }
    face_normals_[t] = cross.normalized();
  }
  for (const auto& [edge, count] : directed) {
    if (!directed.count({edge.second, edge.first})) {
      throw InputError(what + ": the collider mesh is not closed (edge " + std::to_string(edge.first) +
                       "-" + std::to_string(edge.second) + " has one side only)");
    }
  }
  // Outward: the enclosed volume (divergence theorem, sum of det(a, b, c) / 6) must be positive;
  // a mesh with every face flipped passes the edge checks but would put all space inside.
  double volume = 0;
  for (const auto& tri : triangles_) {
    volume += positions_[tri[0]].dot(positions_[tri[1]].cross(positions_[tri[2]])) / 6.0;
  }
  if (!(volume > 0)) {
    throw InputError(what + ": the collider mesh is inside out (its faces point inwards)");
  }
  // Pseudo-normals: angle-weighted at vertices, the sum of both faces on edges.
  vertex_normals_.assign(n, Vec3::Zero());
  std::map<std::pair<int, int>, Vec3> edge_sum;
  for (size_t t = 0; t < triangles_.size(); ++t) {
    const auto& tri = triangles_[t];
    for (int k = 0; k < 3; ++k) {
      const Vec3 e1 = (positions_[tri[(k + 1) % 3]] - positions_[tri[k]]).normalized();
      const Vec3 e2 = (positions_[tri[(k + 2) % 3]] - positions_[tri[k]]).normalized();
      vertex_normals_[tri[k]] += std::acos(std::clamp(e1.dot(e2), -1.0, 1.0)) * face_normals_[t];
      const int a = std::min(tri[k], tri[(k + 1) % 3]), b = std::max(tri[k], tri[(k + 1) % 3]);
      // (insert, not operator[]: a default-constructed Eigen vector is uninitialised)
      edge_sum.try_emplace({a, b}, Vec3::Zero()).first->second += face_normals_[t];
    }
  }
  edge_normals_.resize(triangles_.size());
  for (size_t t = 0; t < triangles_.size(); ++t) {
    const auto& tri = triangles_[t];
    for (int k = 0; k < 3; ++k) {
      const int a = std::min(tri[k], tri[(k + 1) % 3]), b = std::max(tri[k], tri[(k + 1) % 3]);
      edge_normals_[t][k] = edge_sum.at({a, b});
    }
  }
  order_.resize(triangles_.size());
  std::iota(order_.begin(), order_.end(), 0);
  nodes_.reserve(2 * triangles_.size());
  build(0, int(triangles_.size()));
}

int TriangleMeshSdf::build(int first, int count) {
  Node node;
  Eigen::AlignedBox3d centroids;
  for (int k = first; k < first + count; ++k) {
    const auto& tri = triangles_[order_[k]];
    for (int v : tri) node.box.extend(positions_[v]);
    centroids.extend((positions_[tri[0]] + positions_[tri[1]] + positions_[tri[2]]) / 3.0);
  }
  const int index = int(nodes_.size());
  nodes_.push_back(node);
  if (count <= kLeafSize) {
    nodes_[index].first = first;
    nodes_[index].count = count;
    return index;
  }
  // Split at the median centroid along the longest axis of the centroids' box.
  int axis = 0;
  centroids.sizes().maxCoeff(&axis);
  const int mid = first + count / 2;
  std::nth_element(order_.begin() + first, order_.begin() + mid, order_.begin() + first + count,
                   [&](int a, int b) {
                     const auto& ta = triangles_[a];
                     const auto& tb = triangles_[b];
                     return positions_[ta[0]][axis] + positions_[ta[1]][axis] + positions_[ta[2]][axis] <
                            positions_[tb[0]][axis] + positions_[tb[1]][axis] + positions_[tb[2]][axis];
                   });
  const int left = build(first, mid - first);
  const int right = build(mid, first + count - mid);
  nodes_[index].left = left;
  nodes_[index].right = right;
  return index;
}

void TriangleMeshSdf::nearest(int node_index, const Vec3& p, int& best, double& best_d2,
                              Vec3& best_bary) const {
  const Node& node = nodes_[node_index];
  if (node.left < 0) {
    for (int k = node.first; k < node.first + node.count; ++k) {
      const auto& tri = triangles_[order_[k]];
      const Vec3& a = positions_[tri[0]];
      const Vec3& b = positions_[tri[1]];
      const Vec3& c = positions_[tri[2]];
      const Vec3 bary = closest_barycentric(p, a, b, c);
      const double d2 = (p - (bary[0] * a + bary[1] * b + bary[2] * c)).squaredNorm();
      if (d2 < best_d2) {
        best_d2 = d2;
        best = order_[k];
        best_bary = bary;
      }
    }
    return;
  }
  // Visit the nearer child first; skip a child whose box is farther than the best so far.
  int first = node.left, second = node.right;
  double d_first = nodes_[first].box.squaredExteriorDistance(p);
  double d_second = nodes_[second].box.squaredExteriorDistance(p);
  if (d_second < d_first) {
    std::swap(first, second);
    std::swap(d_first, d_second);
  }
  if (d_first < best_d2) nearest(first, p, best, best_d2, best_bary);
  if (d_second < best_d2) nearest(second, p, best, best_d2, best_bary);
}

Vec3 TriangleMeshSdf::pseudo_normal(int t, const Vec3& bary) const {
  constexpr double kOnFeature = 1e-9;
  const auto& tri = triangles_[t];
  int zeros = 0, nonzero = -1;
  for (int k = 0; k < 3; ++k) {
    if (bary[k] <= kOnFeature) ++zeros; else nonzero = k;
  }
  if (zeros == 2) return vertex_normals_[tri[nonzero]];  // at a corner
  if (zeros == 1) {
    for (int k = 0; k < 3; ++k) {
      if (bary[k] <= kOnFeature) return edge_normals_[t][(k + 1) % 3];  // edge opposite corner k
    }
  }
  return face_normals_[t];
}

double TriangleMeshSdf::signed_distance(const Vec3& p, Vec3* normal) const {
  int best = -1;
  double best_d2 = std::numeric_limits<double>::infinity();
  Vec3 bary = Vec3::Zero();
  nearest(0, p, best, best_d2, bary);
  const auto& tri = triangles_[best];
  const Vec3 q = bary[0] * positions_[tri[0]] + bary[1] * positions_[tri[1]] + bary[2] * positions_[tri[2]];
  const Vec3 pn = pseudo_normal(best, bary);
  const double sign = (p - q).dot(pn) < 0 ? -1.0 : 1.0;
  const double d = std::sqrt(best_d2);
  *normal = d > 1e-12 ? Vec3(sign * (p - q) / d) : Vec3(pn.normalized());
  return sign * d;
}

TriangleMeshSdf load_collider_mesh(const std::string& path) {
  ObjGeometry obj = read_obj(path);
  return TriangleMeshSdf(std::move(obj.positions), std::move(obj.triangles), "mesh " + path);
}

}  // namespace cloth
