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

/// Which vertices a pin or a line / plane constraint holds: a corner name, a grid column / row,
/// or one vertex index.
struct VertexSelector {
  enum class Kind { Corner, Column, Row, Vertex } kind = Kind::Vertex;
  std::string corner;  ///< "min-min", "max-min", "min-max", "max-max"
  int index = 0;       ///< column i, row j or vertex index
};

/// A pin: fixed, or moving along a scripted path (its own, or that of collider `collider`).
struct PinSpec : VertexSelector {
  MotionPath motion;  ///< Fixed = a plain pin
  int collider = -1;  ///< >= 0: follows this collider's motion (attached to a moving solid)
};

/// Vertices held on a line or in a plane (the implicit cloth project's shower curtain: rings on a
/// rod).
struct SlideSpec : VertexSelector {
  SlideConstraint::Kind kind = SlideConstraint::Kind::Line;
  std::optional<Vec3> point;  ///< a point of the line / plane; unset = each vertex's rest place, m
  Vec3 direction = Vec3::UnitX();  ///< line direction or plane normal
};

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

/// The scene of each side-by-side pane: the file with `overrides`, then the pane's own, applied.
/// New warnings are appended once. Throws InputError naming the pane.
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
