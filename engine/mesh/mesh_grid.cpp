// Grid generator: the regular lattice of Yu's report (section 3), as a triangle mesh with
// rest (u, v).
#include <cmath>
#include <string>

#include "core/error.hpp"
#include "mesh/mesh.hpp"

namespace cloth {

namespace {
constexpr int kMaxGridSide = 2048;  // 4M vertices: beyond anything interactive
}

RestMesh make_grid(const GridSpec& spec) {
  if (spec.nx < 2 || spec.ny < 2 || spec.nx > kMaxGridSide || spec.ny > kMaxGridSide) {
    throw InputError("grid resolution must be between 2 and " + std::to_string(kMaxGridSide) +
                     " vertices per side, got " + std::to_string(spec.nx) + " x " +
                     std::to_string(spec.ny));
  }
  if (!(spec.width > 0) || !(spec.height > 0) || !std::isfinite(spec.width) ||
      !std::isfinite(spec.height)) {
    throw InputError("grid size must be two positive finite lengths in metres");
  }
  if (!spec.center.allFinite()) throw InputError("grid center must be finite");

  // Axes of the plane: first axis always +x; second axis +z (horizontal) or -y (vertical, so
  // that row j = 0 is the top edge and a flag hangs from it).
  const Vec3 axis_u = Vec3::UnitX();
  const Vec3 axis_v = spec.plane == GridPlane::XZ ? Vec3::UnitZ() : Vec3(0, -1, 0);

  RestMesh mesh;
  mesh.grid_nx = spec.nx;
  mesh.grid_ny = spec.ny;
  const double hu = spec.width / (spec.nx - 1);
  const double hv = spec.height / (spec.ny - 1);
  const Vec3 origin = spec.center - 0.5 * spec.width * axis_u - 0.5 * spec.height * axis_v;
  mesh.positions.reserve(static_cast<size_t>(spec.nx) * spec.ny);
  mesh.uv.reserve(mesh.positions.capacity());
  for (int j = 0; j < spec.ny; ++j) {
    for (int i = 0; i < spec.nx; ++i) {
      mesh.uv.emplace_back(i * hu, j * hv);
      mesh.positions.push_back(origin + i * hu * axis_u + j * hv * axis_v);
    }
  }
  // Cell (i, j) with corners a = (i, j), b = (i+1, j), c = (i, j+1), d = (i+1, j+1):
  //
  //     c ---- d      triangles (a, c, b) and (b, c, d). Their normal (c - a) x (b - a) is
  //     |  \   |      axis_v x axis_u: +y for the horizontal XZ grid (faces up, towards the
  //     |   \  |      sky) and +z for the vertical XY grid (faces the default camera).
  //     a ---- b
  mesh.triangles.reserve(2 * static_cast<size_t>(spec.nx - 1) * (spec.ny - 1));
  for (int j = 0; j + 1 < spec.ny; ++j) {
    for (int i = 0; i + 1 < spec.nx; ++i) {
      const int a = mesh.grid_index(i, j), b = mesh.grid_index(i + 1, j);
      const int c = mesh.grid_index(i, j + 1), d = mesh.grid_index(i + 1, j + 1);
      if ((i + j) % 2 == 0) {
        mesh.triangles.push_back({a, c, b});
        mesh.triangles.push_back({b, c, d});
      } else {
        mesh.triangles.push_back({a, c, d});
        mesh.triangles.push_back({a, d, b});
      }
    }
  }
  return mesh;
}

}  // namespace cloth
