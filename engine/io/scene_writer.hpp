#pragma once
// Saving a running simulation as a scene file (the app's "Save scene"; docs/scene-format.md).
#include <nlohmann/json.hpp>

#include "io/scene.hpp"

namespace cloth {

/// The scene document of `sim` as it runs now: `base` (the document it was loaded from, overrides
/// applied) with every setting the app edits live written over it: cloth.model, cloth.material
/// (explicit values; "preset" dropped), cloth.pins (pins of `base` kept while all their vertices
/// are still pinned, moving pins always, every other pinned vertex by index), self-collision,
/// tearing, every collider's parameters (its shape where it is now, after a mouse drag, and the
/// path of a moving one), forces, solver, `camera`, and `drape` (the app's Static drape settings;
/// null keeps `base`'s "drape" as it is); a generated grid and the slides are written from their
/// declarations too (the app changes them by rebuilding the cloth from a new document). What the
/// app cannot change (an OBJ mesh, colliders' types and mesh files) stays as in `base`; a
/// side-by-side "compare" list is dropped: the file
/// describes the one simulation given. Relative mesh paths become absolute (from `source_dir`),
/// so the file may be saved anywhere. Loading the result (with `base`'s folder as source_dir)
/// rebuilds `sim`'s settings exactly (tested). Throws InputError if `base` is not a scene `sim`
/// could have come from.
nlohmann::json scene_document(const nlohmann::json& base, const std::string& source_dir, const Simulation& sim,
                              const CameraSpec& camera, const DrapeSettings* drape = nullptr);

/// A scene file's "cloth.mesh.grid", "cloth.pins" entry and "cloth.slides" entry, each written
/// from its declared parameters (mesh.hpp's visit_grid, scene.hpp's visit_selector, visit_pin,
/// visit_slide; a moving pin's path by visit_motion): parse_scene reads them back to the same spec.
nlohmann::json grid_json(const GridSpec& grid);
nlohmann::json pin_json(const PinSpec& pin);
nlohmann::json slide_json(const SlideSpec& slide);

/// Writes `doc` to `path` (2-space indented). Throws InputError naming the path.
void write_scene_file(const std::string& path, const nlohmann::json& doc);

}  // namespace cloth
