// The inverse of parse_scene for the settings a running simulation can change
// (docs/scene-format.md names every key written here).
#include "io/scene_writer.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <variant>

#include "core/error.hpp"

namespace cloth {

using nlohmann::json;

namespace {

json vec(const Vec3& v) { return json::array({v.x(), v.y(), v.z()}); }

json material_json(const SpringMaterial& m) {
  json j = {{"density", m.density},
            {"stretch", m.stretch},
            {"shear", m.shear},
            {"bending", m.bending},
            {"damping", m.damping},
            {"velocity_damping", m.velocity_damping},
            {"bending_damping", m.bending_damping},
            {"area_stiffness", m.area_stiffness},
            {"diagonal_ratio", m.diagonal_ratio},
            {"buckling", m.buckling},
            {"rest_stretch", {m.rest_stretch_u, m.rest_stretch_v}},
            {"bend_anisotropy", {m.bend_k_u, m.bend_k_v}}};
  const DensityPattern& p = m.density_pattern;
  if (p.kind != DensityPattern::Kind::None) {
    j["density_pattern"] = {{"type", p.kind == DensityPattern::Kind::Stripes ? "stripes" : "checker"},
                            {"axis", p.axis == 0 ? "u" : "v"},
                            {"period", p.period},
                            {"width", p.width},
                            {"factor", p.factor}};
  }
  return j;
}

json solver_json(const SolverSettings& s) {
  return {{"integrator", s.integrator},
          {"dt", s.dt},
          {"substeps", s.substeps},
          {"tolerance", s.tolerance},
          {"max_iterations", s.max_iterations},
          {"strain_limit", s.strain_limit},
          {"direct_solve", s.direct_solve},
          {"preconditioner", preconditioner_name(s.preconditioner)},
          {"newton_iterations", s.newton_iterations},
          {"xpbd_iterations", s.xpbd_iterations},
          {"adaptive", s.adaptive},
          {"max_stretch_change", s.max_stretch_change}};
}

json forces_json(const ExternalForces& f) {
  const WindField& w = f.wind;
  return {{"gravity", vec(f.gravity)},
          {"drag", f.drag},
          {"wind",
           {{"type", wind_type_name(w.type)},
            {"speed", w.speed},
            {"direction", vec(w.direction)},
            {"frequency", w.frequency},
            {"wavenumber", w.wavenumber},
            {"gust", w.gust}}}};
}

/// cloth.pins: what `sim` pins now, in `base`'s words where they still hold. A pin is saved at
/// its vertex's rest place (the format has no other): one made away from it, in mid-air, loads
/// back at the rest place.
json pins_json(const json& base_cloth, const Scene& base, const Simulation& sim) {
  json pins = json::array();
  std::set<int> covered;
  std::set<int> moving_now;  // a ctrl+click takes a vertex off its path (Simulation::set_pinned)
  for (const MovingPin& p : sim.moving_pins()) moving_now.insert(p.vertex);
  const RestMesh& mesh = sim.intact_mesh();  // pins name vertices of the untorn cloth
  for (size_t k = 0; k < base.pins.size(); ++k) {
    const PinSpec& spec = base.pins[k];
    const std::vector<int> vertices = select_vertices(mesh, spec);
    // As resolve_moving_pins: a pin on a collider follows the collider's path.
    const MotionPath& path = spec.collider >= 0 ? base.colliders[size_t(spec.collider)].motion : spec.motion;
    bool all_held = true;
    for (int v : vertices) all_held = all_held && (path.moves() ? moving_now.count(v) > 0 : sim.is_pinned(v));
    if (all_held) {
      pins.push_back(base_cloth.at("pins").at(k));
      covered.insert(vertices.begin(), vertices.end());
    }
  }
  for (int v = 0; v < mesh.vertex_count(); ++v) {
    if (sim.is_pinned(v) && !covered.count(v)) pins.push_back({{"vertex", v}});
  }
  return pins;
}

/// Writes collider k's friction and where it is now (moved by the mouse: its offset) into its
/// entry, in the position keys of its type.
void update_collider(json& entry, const Collider& c) {
  entry["friction"] = c.friction;
  if (c.kinetic_friction) entry["kinetic_friction"] = *c.kinetic_friction;
  const Vec3& o = c.offset;
  std::visit(
      [&](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, PlaneShape>) {
          entry["point"] = vec(s.point + o);
        } else if constexpr (std::is_same_v<S, CapsuleShape> || std::is_same_v<S, CylinderShape>) {
          entry["a"] = vec(s.a + o);
          entry["b"] = vec(s.b + o);
        } else if constexpr (std::is_same_v<S, MeshShape>) {
          entry["offset"] = vec(s.offset + o);
        } else {  // sphere, box, ellipsoid
          entry["center"] = vec(s.center + o);
        }
      },
      c.shape);
}

/// A relative file path of `base` made absolute, so the saved file loads from any folder.
void absolute_path(json& node, const char* key, const std::string& source_dir) {
  if (!node.is_object() || !node.contains(key) || !node[key].is_string()) return;
  const std::filesystem::path p(node[key].get<std::string>());
  if (p.is_relative()) node[key] = std::filesystem::absolute(std::filesystem::path(source_dir) / p).lexically_normal().string();
}

}  // namespace

json scene_document(const json& base, const std::string& source_dir, const Simulation& sim,
                    const CameraSpec& camera) {
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
  cloth["model"] = model_type_name(sim.model().type);
  cloth["material"] = material_json(sim.model().material);
  cloth["pins"] = pins_json(base.at("cloth"), parsed, sim);
  const SelfCollisionSettings& sc = sim.self_collision();
  cloth["self_collision"] = {
      {"enabled", sc.enabled}, {"thickness", sc.thickness}, {"friction", sc.friction}, {"passes", sc.passes}};
  const TearSettings& t = sim.tearing();
  cloth["tearing"] = {
      {"enabled", t.enabled}, {"threshold", t.threshold}, {"max_breaks_per_frame", t.max_breaks_per_frame}};
  for (size_t k = 0; k < sim.colliders().size(); ++k) update_collider(doc["colliders"][k], sim.colliders()[k]);
  doc["forces"] = forces_json(sim.external_forces());
  doc["solver"] = solver_json(sim.solver());
  doc["camera"] = {{"target", vec(camera.target)},
                   {"distance", camera.distance},
                   {"yaw_deg", camera.yaw_deg},
                   {"pitch_deg", camera.pitch_deg}};
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
