#pragma once
// Scene files: JSON (nlohmann-json), SI units; the format is documented in docs/scene-format.md.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "collision/collider.hpp"
#include "core/parameter.hpp"
#include "drape/drape_settings.hpp"
#include "io/compare_panes.hpp"
#include "elements/material.hpp"
#include "mesh/mesh.hpp"
#include "simulation/simulation.hpp"

namespace cloth {

/// A corner of a generated grid: min-min is vertex (i, j) = (0, 0), max-min (nx - 1, 0).
enum class GridCorner { MinMin, MaxMin, MinMax, MaxMax };
inline constexpr NamedValue<GridCorner> kGridCornerNames[] = {
    {GridCorner::MinMin, "min-min"},
    {GridCorner::MaxMin, "max-min"},
    {GridCorner::MinMax, "min-max"},
    {GridCorner::MaxMax, "max-max"},
};
constexpr std::span<const NamedValue<GridCorner>> value_names(GridCorner) { return kGridCornerNames; }

/// A whole side of a generated grid: column 0 or nx - 1, row 0 or ny - 1. Unlike a row or column
/// index it names the same side at every resolution (`--set cloth.mesh.grid.resolution=...`).
enum class GridEdge { FirstColumn, LastColumn, FirstRow, LastRow };
inline constexpr NamedValue<GridEdge> kGridEdgeNames[] = {
    {GridEdge::FirstColumn, "first-column"},
    {GridEdge::LastColumn, "last-column"},
    {GridEdge::FirstRow, "first-row"},
    {GridEdge::LastRow, "last-row"},
};
constexpr std::span<const NamedValue<GridEdge>> value_names(GridEdge) { return kGridEdgeNames; }

/// Which vertices a pin or a line / plane constraint holds: a corner, a side of the grid, a grid
/// column / row, or one vertex index. A file gives exactly one of the five keys; `kind` says which.
struct VertexSelector {
  enum class Kind { Corner, Edge, Column, Row, Vertex } kind = Kind::Vertex;
  GridCorner corner = GridCorner::MinMin;
  GridEdge edge = GridEdge::FirstRow;
  int column = 0;  ///< grid column i
  int row = 0;     ///< grid row j
  int vertex = 0;  ///< vertex index
};

/// Calls v(field, ParamInfo) for each key of a selector; only the one it uses is visible (the
/// panel shows it, the writer writes it).
template <class Visitor, class S>
void visit_selector(Visitor&& v, S& s) {
  using Kind = VertexSelector::Kind;
  const Kind kind = static_cast<const VertexSelector&>(s).kind;  // not SlideSpec's line / plane
  v(s.corner, {.key = "corner", .tip = "A corner of the grid (exactly one of corner, edge, column, row, vertex)",
               .visible = kind == Kind::Corner});
  v(s.edge, {.key = "edge", .tip = "Every vertex of one side of the grid, at any resolution",
             .visible = kind == Kind::Edge});
  v(s.column, {.key = "column", .lo = 0, .hi = 1 << 20, .tip = "Every vertex of grid column i",
               .ui_hi = 255, .visible = kind == Kind::Column});
  v(s.row, {.key = "row", .lo = 0, .hi = 1 << 20, .tip = "Every vertex of grid row j", .ui_hi = 255,
            .visible = kind == Kind::Row});
  v(s.vertex, {.key = "vertex", .lo = 0, .hi = 1 << 30, .tip = "One vertex by index (grids: j nx + i)",
               .ui_hi = 65535, .visible = kind == Kind::Vertex});
}

/// A pin: fixed, or moving along a scripted path (its own, or that of collider `collider`).
struct PinSpec : VertexSelector {
  MotionPath motion;  ///< Fixed = a plain pin
  int collider = -1;  ///< >= 0: follows this collider's motion (attached to a moving solid)
};

/// Calls v(field, ParamInfo) for a pin's own keys beside its selector's (its "motion" object is
/// visit_motion's).
template <class Visitor, class P>
void visit_pin(Visitor&& v, P& p) {
  v(p.collider, {.key = "collider", .lo = -1, .hi = 1 << 20,
                 .tip = "Follows the path of this solid (an index of colliders) instead of its own; -1: none",
                 .visible = p.collider >= 0});
}

/// Vertices held on a line or in a plane (the implicit cloth project's shower curtain: rings on a
/// rod).
struct SlideSpec : VertexSelector {
  SlideConstraint::Kind kind = SlideConstraint::Kind::Line;
  std::optional<Vec3> point;  ///< a point of the line / plane; unset = each vertex's rest place, m
  Vec3 direction = Vec3::UnitX();  ///< line direction or plane normal
};

/// Calls v(field, ParamInfo) for the keys of a slide's "line" or "plane" object.
template <class Visitor, class S>
void visit_slide(Visitor&& v, S& s) {
  const bool line = s.kind == SlideConstraint::Kind::Line;
  v(Optional{s.point, Vec3::Zero()},
    {.key = "point", .unit = "m", .lo = -1e4, .hi = 1e4,
     .tip = "A point of the line or plane (unset: each vertex's rest place)", .ui_lo = -3, .ui_hi = 3});
  v(Direction{s.direction}, {.key = line ? "direction" : "normal", .lo = -1, .hi = 1,
                             .tip = line ? "Direction of the line, made a unit vector"
                                         : "Normal of the plane, made a unit vector"});
}

struct CameraSpec {
  Vec3 target = Vec3(0, 0.6, 0);  ///< m
  double distance = 2.6;          ///< m
  double yaw_deg = 30;            ///< about +y, degrees
  double pitch_deg = 25;          ///< above the horizon, degrees
};

/// Calls v(field, ParamInfo) for each parameter of "camera" (the app's view; the panel has no
/// widgets for it: the mouse moves the camera).
template <class Visitor, class Camera>
void visit_camera(Visitor&& v, Camera& c) {
  v(c.target, {.key = "target", .unit = "m", .lo = -1e4, .hi = 1e4, .tip = "The point the camera orbits"});
  v(c.distance, {.key = "distance", .unit = "m", .lo = 0.01, .hi = 1e4, .tip = "From the target"});
  v(c.yaw_deg, {.key = "yaw_deg", .unit = "deg", .lo = -360, .hi = 360, .tip = "About +y"});
  v(c.pitch_deg, {.key = "pitch_deg", .unit = "deg", .lo = -89, .hi = 89, .tip = "Above the horizon"});
}

struct Scene {
  std::string name = "untitled";
  std::string source_dir = ".";  ///< relative mesh paths resolve from here
  RestMesh mesh;
  std::optional<GridSpec> grid;  ///< the spec of a generated grid; unset for a mesh file
  ModelType model = ModelType::Springs;
  SpringMaterial material;
  std::vector<PinSpec> pins;
  std::vector<SlideSpec> slides;
  SelfCollisionSettings self_collision;
  TearSettings tearing;
  std::vector<Collider> colliders;
  ExternalForces forces;  ///< gravity, wind, drag
  SolverSettings solver;
  CameraSpec camera;
  DrapeSettings drape;  ///< the app's Static drape section and the headless --drape
  std::vector<ComparePane> compare;  ///< side-by-side panes (empty = one cloth)
};

/// Applies `--set key=value` overrides to a parsed scene document. The value is read as JSON when
/// it parses (numbers, arrays, true/false), otherwise as a string. Throws InputError.
void apply_override(nlohmann::json& doc, const std::string& assignment);

/// The warning of a springs cloth on a mesh file: a spring network cannot carry a membrane's
/// moduli on uneven triangles (docs/models.md, "Mass-spring model", calibration).
inline constexpr const char* kSpringsOnAMeshFile =
    "cloth.model 'springs' on a mesh file: its springs take k = stretch per edge, so stretch and "
    "shear are not the sheet's moduli there; 'edge-area' and 'baraff-witkin' hold them on any mesh";

/// Turns a scene document into a Scene. Unknown keys are appended to `warnings` (one line each,
/// naming the key); wrong types, out-of-range values and missing files throw InputError naming
/// the key or file.
Scene parse_scene(const nlohmann::json& doc, const std::string& source_dir,
                  std::vector<std::string>& warnings);

/// One entry of a scene's "colliders" list as a Collider (the app adds solids this way, so a
/// saved scene lists them in the same words). `key` names it in errors. Throws InputError.
Collider parse_collider_entry(const nlohmann::json& entry, const std::string& key, const std::string& source_dir);

/// Reads a scene file and applies the overrides in order, without parsing it. Throws InputError
/// for a missing file, invalid JSON or a bad override.
nlohmann::json load_scene_document(const std::string& path, const std::vector<std::string>& overrides);

/// The folder a scene file's relative mesh paths resolve from ("." for a bare file name).
std::string scene_source_dir(const std::string& path);

/// Reads a scene file, applies the overrides in order, parses it. Throws InputError.
Scene load_scene(const std::string& path, const std::vector<std::string>& overrides,
                 std::vector<std::string>& warnings);

/// The file's substeps are for the file's integrator (as Simulation::set_solver has it): a
/// `scene` loaded from the file at `path` with `overrides` that give it another integrator
/// without naming solver.substeps gets that integrator's own count
/// (Simulation::default_substeps).
void give_switched_integrator_its_substeps(Scene& scene, const std::string& path,
                                           const std::vector<std::string>& overrides);

/// The scene of each side-by-side pane: the file with `overrides`, then the pane's own, applied
/// (a pane that switches integrator: give_switched_integrator_its_substeps). New warnings are
/// appended once. Throws InputError naming the pane.
std::vector<Scene> load_pane_scenes(const std::string& path, const std::vector<std::string>& overrides,
                                    const std::vector<ComparePane>& panes,
                                    std::vector<std::string>& warnings);

/// Vertex indices of the scene's fixed pins (duplicates removed). Throws InputError for a pin
/// that does not exist on the mesh (e.g. a column on an OBJ mesh or an index out of range).
std::vector<int> resolve_pins(const Scene& scene);

/// The vertices a selector names on `mesh` (same errors as resolve_pins).
std::vector<int> select_vertices(const RestMesh& mesh, const VertexSelector& selector);

/// The simulation a scene describes.
std::unique_ptr<Simulation> make_simulation(const Scene& scene);

}  // namespace cloth
