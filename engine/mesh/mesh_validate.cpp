// Mesh checks shared by every mesh source: the simulation divides by rest areas and lengths, so a
// degenerate triangle must be rejected with a clear message rather than produce NaNs later.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "core/error.hpp"
#include "mesh/mesh.hpp"

namespace cloth {

double rest_area(const RestMesh& mesh, int t) {
  const auto& tri = mesh.triangles[t];
  const Vec2 e1 = mesh.uv[tri[1]] - mesh.uv[tri[0]];
  const Vec2 e2 = mesh.uv[tri[2]] - mesh.uv[tri[0]];
  return 0.5 * std::abs(e1.x() * e2.y() - e1.y() * e2.x());
}

void validate_mesh(const RestMesh& mesh, const std::string& what) {
  const int n = mesh.vertex_count();
  if (n < 3 || mesh.triangles.empty()) throw InputError(what + ": mesh needs at least one triangle");
  if (static_cast<int>(mesh.uv.size()) != n) throw InputError(what + ": rest (u, v) count mismatch");
  for (int i = 0; i < n; ++i) {
    if (!mesh.positions[i].allFinite() || !mesh.uv[i].allFinite()) {
      throw InputError(what + ": vertex " + std::to_string(i) + " is not finite");
    }
  }
  // Scale-aware tolerance: an area below 1e-10 of the squared mesh size is degenerate.
  Vec3 lo = mesh.positions[0], hi = mesh.positions[0];
  for (const Vec3& p : mesh.positions) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  const double size = std::max((hi - lo).norm(), 1e-12);
  const double min_area = 1e-10 * size * size;
  // A repeated triangle (in either orientation) would double its mass and stiffness and make a
  // hinge between a triangle and itself, whose bend angle is undefined.
  std::map<std::array<int, 3>, int> first_with_corners;
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
    const auto& tri = mesh.triangles[t];
    for (int k : tri) {
      if (k < 0 || k >= n) throw InputError(what + ": triangle " + std::to_string(t) + " has a bad index");
    }
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) {
      throw InputError(what + ": triangle " + std::to_string(t) + " repeats a vertex");
    }
    const Vec3 e1 = mesh.positions[tri[1]] - mesh.positions[tri[0]];
    const Vec3 e2 = mesh.positions[tri[2]] - mesh.positions[tri[0]];
    if (0.5 * e1.cross(e2).norm() < min_area || rest_area(mesh, t) < min_area) {
      throw InputError(what + ": triangle " + std::to_string(t) + " is degenerate (zero area)");
    }
    std::array<int, 3> corners = tri;
    std::sort(corners.begin(), corners.end());
    const auto [it, inserted] = first_with_corners.emplace(corners, t);
    if (!inserted) {
      throw InputError(what + ": triangle " + std::to_string(t) + " repeats triangle " + std::to_string(it->second));
    }
  }
}

}  // namespace cloth
