#pragma once
// A closed triangle mesh as a solid collider: exact distance to the nearest triangle, found
// through an axis-aligned bounding-box tree built by recursive splitting along coordinate axes
// (as B&W section 6 does for its solids), and an inside/outside sign from angle-weighted
// pseudo-normals (Baerentzen & Aanaes 2005), which are exact for closed, consistently oriented
// meshes.
#include <array>
#include <string>
#include <vector>

#include "core/vec.hpp"

namespace cloth {

class TriangleMeshSdf {
 public:
  /// Throws InputError (naming `what`) unless the mesh is closed (every edge shared by exactly two
  /// triangles, in opposite directions) with no degenerate triangle.
  TriangleMeshSdf(std::vector<Vec3> positions, std::vector<std::array<int, 3>> triangles,
                  const std::string& what);

  /// Signed distance (negative inside) and the outward unit normal at the nearest surface point.
  double signed_distance(const Vec3& p, Vec3* normal) const;

  const std::vector<Vec3>& positions() const { return positions_; }
  const std::vector<std::array<int, 3>>& triangles() const { return triangles_; }

 private:
  struct Node {
    Eigen::AlignedBox3d box;
    int left = -1, right = -1;  ///< children, or -1 for a leaf
    int first = 0, count = 0;   ///< leaf: triangles order_[first, first + count)
  };
  int build(int first, int count);
  /// Nearest triangle to p: its index, squared distance and barycentric coordinates.
  void nearest(int node, const Vec3& p, int& best, double& best_d2, Vec3& best_bary) const;
  Vec3 pseudo_normal(int triangle, const Vec3& bary) const;

  std::vector<Vec3> positions_;
  std::vector<std::array<int, 3>> triangles_;
  std::vector<Vec3> face_normals_;
  std::vector<Vec3> vertex_normals_;                 ///< angle-weighted
  std::vector<std::array<Vec3, 3>> edge_normals_;    ///< per triangle edge (k, k+1): sum of both faces
  std::vector<int> order_;
  std::vector<Node> nodes_;
};

/// Loads a closed OBJ mesh for a collider. Throws InputError naming the file on any problem.
TriangleMeshSdf load_collider_mesh(const std::string& path);

}  // namespace cloth
