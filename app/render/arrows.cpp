#include "render/arrows.hpp"

#include <algorithm>
#include <cmath>

namespace app {
namespace {

constexpr glm::vec3 kVelocityColor{0.20f, 0.85f, 0.30f};  // green
constexpr glm::vec3 kForceColor{0.95f, 0.30f, 0.20f};     // red
constexpr glm::vec3 kWindColor{0.30f, 0.60f, 1.00f};      // blue
constexpr float kMinLength = 1e-3f;                       // m
constexpr float kHeadFraction = 0.25f;                    // head length / arrow length

glm::vec3 to_glm(const cloth::Vec3& v) { return glm::vec3(float(v.x()), float(v.y()), float(v.z())); }

/// Every k-th of 0..n-1 with the last one included.
std::vector<int> every_kth(int n, int k) {
  std::vector<int> out;
  for (int i = 0; i < n; i += k) out.push_back(i);
  if (out.back() != n - 1) out.push_back(n - 1);
  return out;
}

}  // namespace

std::vector<int> arrow_vertices(const cloth::RestMesh& mesh, int max_arrows) {
  const int n = mesh.vertex_count();
  std::vector<int> out;
  if (n == 0 || max_arrows < 1) return out;
  if (n <= max_arrows) {
    for (int i = 0; i < n; ++i) out.push_back(i);
    return out;
  }
  if (mesh.is_grid() && n == mesh.grid_nx * mesh.grid_ny) {  // (a torn grid has extra vertices)
    const int nx = mesh.grid_nx, ny = mesh.grid_ny;
    // Rows and columns kept: about sqrt(max_arrows) each way (+1 for the last one).
    const int side = std::max(2, int(std::sqrt(double(max_arrows))) - 1);
    const std::vector<int> is = every_kth(nx, std::max(1, (nx + side - 1) / side));
    const std::vector<int> js = every_kth(ny, std::max(1, (ny + side - 1) / side));
    for (int j : js)
      for (int i : is) out.push_back(mesh.grid_index(i, j));
    return out;
  }
  const int k = (n + max_arrows - 1) / max_arrows;
  for (int i = 0; i < n; i += k) out.push_back(i);
  return out;
}

void append_arrow(const glm::vec3& tail, const glm::vec3& vec, const glm::vec3& eye,
                  const glm::vec3& color, std::vector<ColoredPoint>& out) {
  const float length = glm::length(vec);
  if (!(length >= kMinLength)) return;  // also skips NaN
  const glm::vec3 tip = tail + vec;
  const glm::vec3 dir = vec / length;
  glm::vec3 side = glm::cross(dir, eye - tip);
  if (glm::length(side) < 1e-6f) side = glm::cross(dir, glm::vec3(0, 1, 0));  // looking along it
  if (glm::length(side) < 1e-6f) side = glm::vec3(1, 0, 0);
  side = glm::normalize(side);
  const glm::vec3 back = tip - kHeadFraction * length * dir;
  const glm::vec3 spread = 0.5f * kHeadFraction * length * side;
  for (const glm::vec3& p : {tail, tip, tip, back + spread, tip, back - spread}) out.push_back({p, color});
}

void build_arrows(const cloth::SimulationView& sim, const ViewOptions& view, const glm::vec3& eye,
                  std::vector<ColoredPoint>& out) {
  if (!view.velocity_arrows && !view.force_arrows && !view.wind_arrows) return;
  const std::vector<cloth::Vec3>& x = sim.positions();
  const std::vector<int> vertices = arrow_vertices(sim.mesh(), kMaxArrows);
  if (view.velocity_arrows) {
    const std::vector<cloth::Vec3>& v = sim.velocities();
    for (int i : vertices)
      append_arrow(to_glm(x[size_t(i)]), ArrowScales::kVelocity * to_glm(v[size_t(i)]), eye, kVelocityColor, out);
  }
  if (view.force_arrows) {
    const std::vector<cloth::Vec3> a = sim.applied_accelerations();
    for (int i : vertices)
      append_arrow(to_glm(x[size_t(i)]), ArrowScales::kAcceleration * to_glm(a[size_t(i)]), eye, kForceColor, out);
  }
  if (view.wind_arrows) {
    for (int i : vertices)
      append_arrow(to_glm(x[size_t(i)]), ArrowScales::kWind * to_glm(sim.air_velocity(i)), eye, kWindColor, out);
  }
}

}  // namespace app
