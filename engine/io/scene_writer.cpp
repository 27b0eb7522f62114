// The inverse of parse_scene for the settings a running simulation can change
// (docs/scene-format.md names every key written here).
#include "io/scene_writer.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <variant>

#include "core/error.hpp"
#include "io/parameter_json.hpp"
#include "model/material_parameters.hpp"

namespace cloth {

using nlohmann::json;

namespace {

// One section's declared parameters (core/parameter.hpp) as a JSON object.
template <class Settings, class Visit>
json section_json(const Settings& settings, Visit visit) {
  json j = json::object();
  visit(WriteParameters{j}, settings);
  return j;
}

json material_json(const SpringMaterial& m) {
  json j = section_json(m, [](auto&& v, const auto& s) { visit_material(v, s); });
  const DensityPattern& p = m.density_pattern;
  if (p.kind != DensityPattern::Kind::None) {
    j["density_pattern"] = section_json(p, [](auto&& v, const auto& s) { visit_density_pattern(v, s); });
  }
  return j;
}

/// cloth.pins: what `sim` pins now, in `base`'s words where they still hold. A pin is saved at
/// its vertex's rest place (the format has no other): one made away from it, in mid-air, loads
/// back at the rest place.
json pins_json(const Scene& base, const Simulation& sim) {
  json pins = json::array();
  std::set<int> covered;
  std::set<int> moving_now;  // a ctrl+click takes a vertex off its path (Simulation::set_pinned)
  for (const MovingPin& p : sim.pins().moving_pins()) moving_now.insert(p.vertex);
  const RestMesh& mesh = sim.tearing().intact_mesh();  // pins name vertices of the untorn cloth
  for (size_t k = 0; k < base.pins.size(); ++k) {
    const PinSpec& spec = base.pins[k];
    const std::vector<int> vertices = select_vertices(mesh, spec);
    // As resolve_moving_pins: a pin on a collider follows the collider's path.
    const MotionPath& path = spec.collider >= 0 ? base.colliders[size_t(spec.collider)].motion : spec.motion;
    bool all_held = true;
    for (int v : vertices) all_held = all_held && (path.moves() ? moving_now.count(v) > 0 : sim.pins().is_pinned(v));
    if (all_held) {
      pins.push_back(pin_json(spec));
      covered.insert(vertices.begin(), vertices.end());
    }
  }
  for (int v = 0; v < mesh.vertex_count(); ++v) {
    if (sim.pins().is_pinned(v) && !covered.count(v)) pins.push_back({{"vertex", v}});
  }
  return pins;
}

/// `shape` moved by `o` (a solid dragged by the mouse is saved where it is now).
Shape moved_shape(Shape shape, const Vec3& o) {
  std::visit(
      [&](auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, PlaneShape>) {
          s.point += o;
        } else if constexpr (std::is_same_v<S, CapsuleShape> || std::is_same_v<S, CylinderShape>) {
          s.a += o;
          s.b += o;
        } else if constexpr (std::is_same_v<S, MeshShape>) {
          s.offset += o;
        } else {  // sphere, box, ellipsoid
          s.center += o;
        }
      },
      shape);
  return shape;
}

/// Writes every declared parameter of collider `c` into its entry (which keeps its "type" and a
/// mesh's "path"): the shape where it is now, thickness, friction and, for a solid that moves,
/// its path.
void update_collider(json& entry, const Collider& c) {
  std::visit([&](const auto& s) { visit_shape(WriteParameters{entry}, s); }, moved_shape(c.shape, c.offset));
  visit_collider(WriteParameters{entry}, c);
  if (c.motion.moves()) {
    entry["motion"] = section_json(c.motion, [](auto&& v, const auto& m) { visit_motion(v, m); });
  } else {
    entry.erase("motion");
  }
}

/// A relative file path of `base` made absolute, so the saved file loads from any folder.
void absolute_path(json& node, const char* key, const std::string& source_dir) {
  if (!node.is_object() || !node.contains(key) || !node[key].is_string()) return;
  const std::filesystem::path p(node[key].get<std::string>());
  if (p.is_relative()) node[key] = std::filesystem::absolute(std::filesystem::path(source_dir) / p).lexically_normal().string();
}

}  // namespace

json grid_json(const GridSpec& grid) {
  return section_json(grid, [](auto&& v, const auto& g) { visit_grid(v, g); });
}

json pin_json(const PinSpec& pin) {
  json j = json::object();
  visit_selector(WriteVisibleParameters{j}, static_cast<const VertexSelector&>(pin));
  visit_pin(WriteVisibleParameters{j}, pin);
  if (pin.motion.moves()) j["motion"] = section_json(pin.motion, [](auto&& v, const auto& m) { visit_motion(v, m); });
  return j;
}

json slide_json(const SlideSpec& slide) {
  json j = json::object();
  visit_selector(WriteVisibleParameters{j}, static_cast<const VertexSelector&>(slide));
  j[slide.kind == SlideConstraint::Kind::Line ? "line" : "plane"] =
      section_json(slide, [](auto&& v, const auto& s) { visit_slide(v, s); });
  return j;
}

json scene_document(const json& base, const std::string& source_dir, const Simulation& sim,
                    const CameraSpec& camera, const DrapeSettings* drape) {
  std::vector<std::string> warnings;
  const Scene parsed = parse_scene(base, source_dir, warnings);
  if (parsed.colliders.size() != sim.colliders().size())
    throw InputError("scene_document: the simulation's colliders do not match the scene");
  json doc = base;
  doc.erase("compare");
  json& cloth = doc["cloth"];
  absolute_path(cloth["mesh"], "obj", source_dir);
  if (doc.contains("colliders"))
    for (json& c : doc["colliders"]) absolute_path(c, "path", source_dir);
  cloth["model"] = name_of(sim.model().type);
  cloth["material"] = material_json(sim.model().material);
  if (parsed.grid) cloth["mesh"] = {{"grid", grid_json(*parsed.grid)}};
  cloth["pins"] = pins_json(parsed, sim);
  if (!parsed.slides.empty() || cloth.contains("slides")) {
    cloth["slides"] = json::array();
    for (const SlideSpec& slide : parsed.slides) cloth["slides"].push_back(slide_json(slide));
  }
  cloth["self_collision"] = section_json(sim.self_collision(), [](auto&& v, const auto& s) { visit_self_collision(v, s); });
  cloth["tearing"] = section_json(sim.tearing().settings(), [](auto&& v, const auto& s) { visit_tearing(v, s); });
  for (size_t k = 0; k < sim.colliders().size(); ++k) update_collider(doc["colliders"][k], sim.colliders()[k]);
  doc["forces"] = section_json(sim.external_forces(), [](auto&& v, const auto& s) { visit_forces(v, s); });
  doc["forces"]["wind"] = section_json(sim.external_forces().wind, [](auto&& v, const auto& s) { visit_wind(v, s); });
  doc["solver"] = section_json(sim.solver(), [](auto&& v, const auto& s) { visit_solver(v, s); });
  doc["solver"].erase("threads");  // the machine's, not the scene's
  doc["camera"] = section_json(camera, [](auto&& v, const auto& s) { visit_camera(v, s); });
  if (drape) doc["drape"] = section_json(*drape, [](auto&& v, const auto& s) { visit_drape(v, s); });
  return doc;
}

void write_scene_file(const std::string& path, const json& doc) {
  std::ofstream out(path);
  if (!out) throw InputError("cannot write scene file " + path);
  out << doc.dump(2) << "\n";
  out.flush();
  if (!out) throw InputError("cannot write scene file " + path + " (disk full?)");
}

}  // namespace cloth
