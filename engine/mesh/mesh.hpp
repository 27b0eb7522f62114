#pragma once
// Rest meshes: a triangle mesh with rest (u, v) material coordinates (Baraff & Witkin 1998,
// section 2.1), produced either by the grid generator or from an OBJ file.
#include <array>
#include <string>
#include <vector>

#include "core/enum_names.hpp"
#include "core/parameter.hpp"
#include "core/vec.hpp"

namespace cloth {

/// The plane a generated grid lies in. XZ is horizontal (y up), XY is vertical.
enum class GridPlane { XZ, XY };

/// The scene-file names of the grid planes.
inline constexpr NamedValue<GridPlane> kGridPlaneNames[] = {
    {GridPlane::XZ, "xz"},
    {GridPlane::XY, "xy"},
};
constexpr std::span<const NamedValue<GridPlane>> value_names(GridPlane) { return kGridPlaneNames; }

struct GridSpec {
  double width = 1.0;          ///< extent along the plane's first axis (x), m
  double height = 1.0;         ///< extent along the plane's second axis (z for XZ, y for XY), m
  int nx = 32;                 ///< vertex count along the first axis (>= 2)
  int ny = 32;                 ///< vertex count along the second axis (>= 2)
  GridPlane plane = GridPlane::XZ;
  Vec3 center = Vec3(0, 1, 0);  ///< world position of the grid's centre, m
};

/// Calls v(field, ParamInfo) for each parameter of a generated grid (a scene's
/// "cloth.mesh.grid"); make_grid checks the spec again.
template <class Visitor, class G>
void visit_grid(Visitor&& v, G& g) {
  v(Pair{g.width, g.height}, {.key = "size", .unit = "m", .lo = 1e-3, .hi = 100,
                              .tip = "[width, height]: extent along the plane's first axis (x) and second (z for xz; down for xy)",
                              .ui_lo = 0.05, .ui_hi = 4});
  v(Pair{g.nx, g.ny}, {.key = "resolution", .lo = 2, .hi = 1024,
                       .tip = "[nx, ny]: vertices along the plane's first and second axes", .ui_lo = 2,
                       .ui_hi = 200});
  v(g.plane, {.key = "plane", .tip = "xz: horizontal (y up); xy: vertical"});
  v(g.center, {.key = "center", .unit = "m", .lo = -1e4, .hi = 1e4, .tip = "World position of the grid's centre",
               .ui_lo = -3, .ui_hi = 3});
}

struct RestMesh {
  std::vector<Vec3> positions;                ///< rest / initial world positions, m
  std::vector<Vec2> uv;                       ///< rest material coordinates (u, v), m
  std::vector<std::array<int, 3>> triangles;  ///< counter-clockwise seen from the +normal side
  int grid_nx = 0;  ///< vertex counts of a generated grid; 0 for meshes from files
  int grid_ny = 0;

  int vertex_count() const { return static_cast<int>(positions.size()); }
  bool is_grid() const { return grid_nx > 0; }
  /// Index of grid vertex (i, j): i along the first axis, j along the second.
  int grid_index(int i, int j) const { return j * grid_nx + i; }
};

/// Builds a regular grid. Vertex (i, j) sits at index j * nx + i. Each cell is split into two
/// triangles along the same diagonal. Throws InputError on a bad spec.
RestMesh make_grid(const GridSpec& spec);

/// An OBJ file's geometry as read by read_obj.
struct ObjGeometry {
  std::vector<Vec3> positions;                ///< m
  std::vector<std::array<int, 3>> triangles;  ///< polygons triangulated
  std::vector<Vec2> uv;  ///< per vertex when every vertex has exactly one texture coordinate, else empty
};

/// Reads an OBJ file through tinyobjloader with the checks load_obj lists (size, numbers, face
/// sizes and indices), without the cloth's own checks; collider meshes use it too.
ObjGeometry read_obj(const std::string& path);

/// Loads an OBJ file (through tinyobjloader). Polygons are triangulated. Rest (u, v) come from the
/// file's texture coordinates (taken as metres) when every vertex has one, otherwise from a planar
/// projection of the rest shape onto its best-fit plane. Throws InputError naming the file on a
/// missing / unreadable / empty / non-regular file, a file over 256 MiB, a coordinate that is not
/// a finite number of magnitude at most 1e6, a face with more than 64 corners or a bad index, and
/// on degenerate geometry.
RestMesh load_obj(const std::string& path);

/// Checks indices, finiteness, that no triangle has (near) zero area in space or in (u, v) and
/// that no triangle appears twice. Throws InputError with a one-line reason (`what` names the
/// mesh's source). Non-manifold edges (shared by three or more triangles) are accepted: each gets
/// its structural spring but no bend element across it, since a hinge needs exactly two sides.
void validate_mesh(const RestMesh& mesh, const std::string& what);

/// Area of triangle t in rest (u, v) space, m^2.
double rest_area(const RestMesh& mesh, int t);

}  // namespace cloth
