// Scene files (docs/scene-format.md). Parsing goes through `Fields`, which records every key it
// reads so that the keys nobody read can be reported: a typo must not pass silently.
#include "io/scene.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "core/parameter.hpp"
#include "model/material_parameters.hpp"
#include "integrators/solver_settings.hpp"
#include "model/material_presets.hpp"
#include "collision/mesh_collider.hpp"
#include "core/parallel.hpp"

namespace cloth {

using nlohmann::json;

namespace {

// Typed, range-checked access to one JSON object; errors and warnings name the dotted key.
class Fields {
 public:
  Fields(const json& obj, std::string path, std::vector<std::string>& warnings)
      : obj_(obj), path_(std::move(path)), warnings_(warnings) {
    if (!obj_.is_object()) throw InputError(where() + " must be an object");
  }
  Fields(const Fields&) = delete;
  Fields& operator=(const Fields&) = delete;
  // Reports keys that were never read.
  ~Fields() {
    for (const auto& [key, value] : obj_.items()) {
      if (!used_.count(key)) warnings_.push_back(one_line("unknown key '" + join(key) + "' (ignored)"));
    }
  }

  bool has(const std::string& key) {
    used_.insert(key);
    return obj_.contains(key);
  }
  const json& at(const std::string& key) {
    used_.insert(key);
    return obj_.at(key);
  }
  const std::string& path() const { return path_; }
  std::string join(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

  double number(const std::string& key, double fallback, double lo, double hi, const char* unit) {
    if (!has(key)) return fallback;
    const json& v = obj_.at(key);
    if (!v.is_number()) throw InputError(join(key) + " must be a number (" + unit + ")");
    const double d = v.get<double>();
    if (!std::isfinite(d) || d < lo || d > hi) throw out_of_range(join(key), {.key = "", .unit = unit, .lo = lo, .hi = hi}, d);
    return d;
  }
  int integer(const std::string& key, int fallback, int lo, int hi) {
    if (!has(key)) return fallback;
    const json& v = obj_.at(key);
    if (!v.is_number_integer()) throw InputError(join(key) + " must be an integer");
    const auto i = v.get<long long>();
    if (i < lo || i > hi) {
      throw InputError(join(key) + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                       "], got " + std::to_string(i));
    }
    return static_cast<int>(i);
  }
  bool boolean(const std::string& key, bool fallback) {
    if (!has(key)) return fallback;
    const json& v = obj_.at(key);
    if (!v.is_boolean()) throw InputError(join(key) + " must be true or false");
    return v.get<bool>();
  }
  std::string string(const std::string& key, const std::string& fallback) {
    if (!has(key)) return fallback;
    const json& v = obj_.at(key);
    if (!v.is_string()) throw InputError(join(key) + " must be a string");
    return v.get<std::string>();
  }
  template <int N>
  Eigen::Matrix<double, N, 1> vector(const std::string& key, const Eigen::Matrix<double, N, 1>& fallback,
                                     double limit, const char* unit) {
    if (!has(key)) return fallback;
    const json& v = obj_.at(key);
    if (!v.is_array() || v.size() != N) {
      throw InputError(join(key) + " must be an array of " + std::to_string(N) + " numbers (" + unit + ")");
    }
    Eigen::Matrix<double, N, 1> out;
    for (int k = 0; k < N; ++k) {
      if (!v[k].is_number() || !std::isfinite(v[k].get<double>()) || std::abs(v[k].get<double>()) > limit) {
        throw InputError(join(key) + " must hold finite numbers of magnitude at most " + format_number(limit) + " " + unit);
      }
      out[k] = v[k].get<double>();
    }
    return out;
  }

 private:
  std::string where() const { return path_.empty() ? "the scene" : path_; }
  const json& obj_;
  std::string path_;
  std::vector<std::string>& warnings_;
  std::set<std::string> used_;
};

// Reads each declared parameter (core/parameter.hpp) present in `fields`; absent ones keep their
// value.
struct ReadParameters {
  Fields& f;
  void operator()(double& x, const ParamInfo& p) const { x = f.number(p.key, x, p.lo, p.hi, p.unit); }
  template <IntegerField I>
  void operator()(I& x, const ParamInfo& p) const {
    if (f.has(p.key)) x = static_cast<I>(f.integer(p.key, 0, int(p.lo), int(p.hi)));
  }
  void operator()(bool& x, const ParamInfo& p) const { x = f.boolean(p.key, x); }
  void operator()(Vec3& x, const ParamInfo& p) const {
    x = f.vector<3>(p.key, x, std::max(std::abs(p.lo), std::abs(p.hi)), p.unit);
    RangeCheck{section()}(x, p);
  }
  void operator()(Pair<double> x, const ParamInfo& p) const {
    const Vec2 read = f.vector<2>(p.key, Vec2(x.a, x.b), std::max(std::abs(p.lo), std::abs(p.hi)), p.unit);
    x.a = read.x();
    x.b = read.y();
    RangeCheck{section()}(x, p);
  }
  void operator()(Pair<int> x, const ParamInfo& p) const {
    if (!f.has(p.key)) return;
    const json& v = f.at(p.key);
    if (!v.is_array() || v.size() != 2 || !v[0].is_number_integer() || !v[1].is_number_integer())
      throw InputError(f.join(p.key) + " must be an array of two integers");
    // Range-checked before narrowing: get<int>() would wrap 4294967298 round to 2.
    for (const json& k : v) {
      const auto i = k.get<long long>();
      if (i < p.lo || i > p.hi) throw out_of_range(f.join(p.key), p, double(i));
    }
    x.a = v[0].get<int>();
    x.b = v[1].get<int>();
  }
  template <class E>
    requires std::is_enum_v<E>
  void operator()(E& x, const ParamInfo& p) const {
    x = value_named<E>(f.string(p.key, name_of(x)), f.join(p.key));
  }
  void operator()(Switchable<double> s, const ParamInfo& p) const { (*this)(s.value, p); }
  void operator()(Optional<std::optional<double>> o, const ParamInfo& p) const {
    if (f.has(p.key)) o.value = f.number(p.key, 0, p.lo, p.hi, p.unit);
  }
  void operator()(Optional<std::optional<Vec3>> o, const ParamInfo& p) const {
    if (!f.has(p.key)) return;
    Vec3 x = o.on_value;
    (*this)(x, p);
    o.value = x;
  }
  void operator()(Direction<Vec3> d, const ParamInfo& p) const {
    d.value = unit_direction(f.vector<3>(p.key, d.value, 1e6, ""), f.join(p.key));
  }
  void operator()(Choice<std::string> c, const ParamInfo& p) const {
    c.value = f.string(p.key, c.value);
    RangeCheck{section()}(c, p);
  }
  const std::string& section() const { return f.path(); }
};

RestMesh parse_mesh(const json& node, const std::string& source_dir, std::optional<GridSpec>& grid,
                    std::vector<std::string>& warnings) {
  Fields f(node, "cloth.mesh", warnings);
  const bool is_grid = f.has("grid"), obj = f.has("obj");
  if (is_grid == obj) throw InputError("cloth.mesh needs exactly one of 'grid' or 'obj'");
  if (obj) {
    const json& path_node = f.at("obj");
    if (!path_node.is_string()) throw InputError("cloth.mesh.obj must be a file path string");
    std::filesystem::path path(path_node.get<std::string>());
    if (path.is_relative()) path = std::filesystem::path(source_dir) / path;
    return load_obj(path.string());
  }
  Fields g(f.at("grid"), "cloth.mesh.grid", warnings);
  GridSpec spec;
  visit_grid(ReadParameters{g}, spec);
  grid = spec;
  return make_grid(spec);
}

// A preset names a fabric of material_presets(), or for the Breen model one of its Kawabata-fitted
// fabrics (breen_preset).
DensityPattern parse_density_pattern(const json& node, std::vector<std::string>& warnings) {
  Fields f(node, "cloth.material.density_pattern", warnings);
  DensityPattern p;
  p.kind = DensityPattern::Kind::Stripes;  // an object with no type makes stripes
  const bool width_given = f.has("width");
  visit_density_pattern(ReadParameters{f}, p);
  if (!width_given) p.width = std::min(p.width, p.period);  // the default band fits a short period
  check_density_pattern_width(p);
  return p;
}

SpringMaterial parse_material(const json& node, ModelType model, std::vector<std::string>& warnings) {
  Fields f(node, "cloth.material", warnings);
  SpringMaterial m;
  if (f.has("preset")) {
    const std::string name = f.string("preset", "");
    m = model == ModelType::Breen ? breen_fabric_material(name) : material_preset(name);
  }
  visit_material(ReadParameters{f}, m);
  if (f.has("density_pattern")) m.density_pattern = parse_density_pattern(f.at("density_pattern"), warnings);
  return m;
}

/// Reads one of corner / edge / column / row / vertex (exactly one) into `out`.
void parse_selector(Fields& f, const std::string& key, VertexSelector& out) {
  using Kind = VertexSelector::Kind;
  int kinds = 0;
  for (const auto& [name, kind] : {std::pair{"corner", Kind::Corner}, std::pair{"edge", Kind::Edge}, std::pair{"column", Kind::Column},
                                   std::pair{"row", Kind::Row}, std::pair{"vertex", Kind::Vertex}}) {
    if (!f.has(name)) continue;
    ++kinds;
    out.kind = kind;
  }
  if (kinds != 1) throw InputError(key + " needs exactly one of corner, edge, column, row, vertex");
  visit_selector(ReadParameters{f}, out);
}

MotionPath parse_motion(const json& node, const std::string& key, std::vector<std::string>& warnings) {
  Fields f(node, key, warnings);
  MotionPath m;
  const bool v_given = f.has("axis_v");
  visit_motion(ReadParameters{f}, m);
  // Without an axis_v, the default y is turned away from an axis_u near it.
  if (!v_given && std::abs(m.axis_v.dot(m.axis_u)) > 0.9) m.axis_v = Vec3::UnitZ();
  make_axes_perpendicular(m, key);
  return m;
}

std::vector<PinSpec> parse_pins(const json& node, std::vector<std::string>& warnings) {
  if (!node.is_array()) throw InputError("cloth.pins must be an array");
  std::vector<PinSpec> pins;
  for (size_t k = 0; k < node.size(); ++k) {
    const std::string key = "cloth.pins." + std::to_string(k);
    Fields f(node[k], key, warnings);
    PinSpec pin;
    parse_selector(f, key, pin);
    if (f.has("motion")) pin.motion = parse_motion(f.at("motion"), key + ".motion", warnings);
    visit_pin(ReadParameters{f}, pin);
    if (pin.collider >= 0 && pin.motion.moves()) throw InputError(key + ": give a motion or a collider, not both");
    pins.push_back(pin);
  }
  return pins;
}

std::vector<SlideSpec> parse_slides(const json& node, std::vector<std::string>& warnings) {
  if (!node.is_array()) throw InputError("cloth.slides must be an array");
  std::vector<SlideSpec> slides;
  for (size_t k = 0; k < node.size(); ++k) {
    const std::string key = "cloth.slides." + std::to_string(k);
    Fields f(node[k], key, warnings);
    SlideSpec slide;
    parse_selector(f, key, slide);
    const bool line = f.has("line"), plane = f.has("plane");
    if (line == plane) throw InputError(key + " needs exactly one of line, plane");
    slide.kind = line ? SlideConstraint::Kind::Line : SlideConstraint::Kind::Plane;
    const std::string sub = line ? "line" : "plane";
    Fields g(f.at(sub), key + "." + sub, warnings);
    visit_slide(ReadParameters{g}, slide);
    slides.push_back(slide);
  }
  return slides;
}

/// A default shape of the named type ("type" of a collider entry); a mesh is loaded from "path".
Shape make_shape(Fields& f, const std::string& type, const std::string& key, const std::string& source_dir) {
  if (type == "plane") return PlaneShape{};
  if (type == "sphere") return SphereShape{};
  if (type == "capsule") return CapsuleShape{};
  if (type == "cylinder") return CylinderShape{};
  if (type == "box") return BoxShape{};
  if (type == "ellipsoid") return EllipsoidShape{};
  if (type == "mesh") {
    const std::string file = f.string("path", "");
    if (file.empty()) throw InputError(key + ".path (an OBJ file) is required for a mesh collider");
    const std::filesystem::path full = std::filesystem::path(file).is_absolute()
                                           ? std::filesystem::path(file)
                                           : std::filesystem::path(source_dir) / file;
    MeshShape s;
    s.mesh = std::make_shared<const TriangleMeshSdf>(load_collider_mesh(full.string()));
    return s;
  }
  throw InputError(key + ".type must be plane, sphere, capsule, cylinder, box, ellipsoid or mesh, got \"" + type + "\"");
}

Collider parse_collider(const json& node, const std::string& key, const std::string& source_dir,
                        std::vector<std::string>& warnings) {
  Fields f(node, key, warnings);
  Collider c(make_shape(f, f.string("type", ""), key, source_dir));
  std::visit([&](auto& shape) { visit_shape(ReadParameters{f}, shape); }, c.shape);
  if (const auto* cylinder = std::get_if<CylinderShape>(&c.shape); cylinder && (cylinder->b - cylinder->a).norm() < 1e-6)
    throw InputError(key + ": a cylinder's ends a and b must differ");
  update_rotation(c.shape);
  visit_collider(ReadParameters{f}, c);
  if (f.has("motion")) c.motion = parse_motion(f.at("motion"), key + ".motion", warnings);
  return c;
}

}  // namespace

Scene parse_scene(const json& doc, const std::string& source_dir, std::vector<std::string>& warnings) {
  Fields top(doc, "", warnings);
  Scene scene;
  scene.source_dir = source_dir;
  scene.name = top.string("name", scene.name);

  if (!top.has("cloth")) throw InputError("the scene needs a 'cloth' object");
  {
    Fields c(top.at("cloth"), "cloth", warnings);
    if (!c.has("mesh")) throw InputError("cloth.mesh is required (a grid or an obj path)");
    scene.mesh = parse_mesh(c.at("mesh"), source_dir, scene.grid, warnings);
    const std::string model = c.string("model", "springs");
    scene.model = value_named<ModelType>(model, "cloth.model");
    if (scene.model == ModelType::Springs && !scene.grid) warnings.push_back(kSpringsOnAMeshFile);
    if (c.has("material")) scene.material = parse_material(c.at("material"), scene.model, warnings);
    if (c.has("pins")) scene.pins = parse_pins(c.at("pins"), warnings);
    if (c.has("slides")) scene.slides = parse_slides(c.at("slides"), warnings);
    // A self_collision or tearing object switches it on unless it says "enabled": false.
    if (c.has("self_collision")) {
      Fields sc(c.at("self_collision"), "cloth.self_collision", warnings);
      scene.self_collision.enabled = true;
      visit_self_collision(ReadParameters{sc}, scene.self_collision);
    }
    if (c.has("tearing")) {
      Fields tf(c.at("tearing"), "cloth.tearing", warnings);
      scene.tearing.enabled = true;
      visit_tearing(ReadParameters{tf}, scene.tearing);
    }
  }
  if (top.has("colliders")) {
    const json& list = top.at("colliders");
    if (!list.is_array()) throw InputError("colliders must be an array");
    for (size_t k = 0; k < list.size(); ++k) {
      scene.colliders.push_back(
          parse_collider(list[k], "colliders." + std::to_string(k), source_dir, warnings));
    }
  }
  for (size_t k = 0; k < scene.pins.size(); ++k) {
    if (scene.pins[k].collider >= int(scene.colliders.size())) {
      throw InputError("cloth.pins." + std::to_string(k) + ".collider: there is no collider " +
                       std::to_string(scene.pins[k].collider));
    }
  }
  if (top.has("forces")) {
    Fields f(top.at("forces"), "forces", warnings);
    visit_forces(ReadParameters{f}, scene.forces);
    if (f.has("wind")) {
      Fields w(f.at("wind"), "forces.wind", warnings);
      scene.forces.wind.type = WindField::Type::Constant;  // a wind object blows unless it says
      visit_wind(ReadParameters{w}, scene.forces.wind);
    }
  }
  // Threads are the machine's, not the scene's: all of them unless the file asks for fewer (the
  // results are the same bits for every count, parallel.hpp).
  scene.solver.threads = machine_threads();
  if (top.has("solver")) {
    Fields f(top.at("solver"), "solver", warnings);
    visit_solver(ReadParameters{f}, scene.solver);
    if (scene.solver.threads == 0) scene.solver.threads = machine_threads();
  }
  if (top.has("camera")) {
    Fields f(top.at("camera"), "camera", warnings);
    visit_camera(ReadParameters{f}, scene.camera);
  }
  if (top.has("drape")) {
    Fields f(top.at("drape"), "drape", warnings);
    visit_drape(ReadParameters{f}, scene.drape);
  }
  if (top.has("compare")) scene.compare = parse_compare(top.at("compare"));
  return scene;
}

void apply_override(json& doc, const std::string& assignment) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw InputError("--set expects key=value with a dotted key, got \"" + assignment + "\"");
  }
  const std::string path = assignment.substr(0, eq);
  const std::string text = assignment.substr(eq + 1);
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) value = text;  // not JSON: take it as a plain string

  json* node = &doc;
  std::stringstream parts(path);
  std::string part;
  std::vector<std::string> keys;
  while (std::getline(parts, part, '.')) {
    if (part.empty()) throw InputError("--set " + path + ": empty key segment");
    keys.push_back(part);
  }
  for (size_t k = 0; k < keys.size(); ++k) {
    const bool last = k + 1 == keys.size();
    if (node->is_array()) {
      size_t index = 0;
      const char* end = keys[k].data() + keys[k].size();
      const auto [stop, err] = std::from_chars(keys[k].data(), end, index);
      if (err != std::errc() || stop != end || index >= node->size()) {
        throw InputError("--set " + path + ": '" + keys[k] + "' is not an index of the array");
      }
      json& child = (*node)[index];
      if (last) child = value;
      node = &child;
    } else {
      if (node->is_null()) *node = json::object();
      if (!node->is_object()) {
        throw InputError("--set " + path + ": " + (k == 0 ? "the scene" : "'" + keys[k - 1] + "'") +
                         " is not an object");
      }
      json& child = (*node)[keys[k]];
      if (last) child = value;
      node = &child;
    }
  }
}

Collider parse_collider_entry(const json& entry, const std::string& key, const std::string& source_dir) {
  std::vector<std::string> warnings;
  Collider c = parse_collider(entry, key, source_dir, warnings);
  if (!warnings.empty()) throw InputError(warnings.front());
  return c;
}

json load_scene_document(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot open scene file " + path);
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::exception& e) {
    // parse_error, or out_of_range for a number that overflows a double (1e400).
    // nlohmann's message names the byte offset; keep it on one line.
    std::string why = e.what();
    throw InputError("scene " + path + " is not valid JSON: " + why);
  }
  for (const std::string& o : overrides) apply_override(doc, o);
  return doc;
}

std::string scene_source_dir(const std::string& path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

Scene load_scene(const std::string& path, const std::vector<std::string>& overrides,
                 std::vector<std::string>& warnings) {
  return parse_scene(load_scene_document(path, overrides), scene_source_dir(path), warnings);
}

void give_switched_integrator_its_substeps(Scene& scene, const std::string& path,
                                           const std::vector<std::string>& overrides) {
  // The file's solver against the overridden one, as documents (no mesh is loaded again): an
  // override may name the field or the whole solver object.
  const json file = load_scene_document(path, {});
  const json overridden = load_scene_document(path, overrides);
  const auto solver_field = [](const json& doc, const char* key) {
    return doc.contains("solver") && doc["solver"].is_object() && doc["solver"].contains(key) ? doc["solver"][key]
                                                                                              : json();
  };
  const bool names_substeps =
      solver_field(overridden, "substeps") != solver_field(file, "substeps") ||
      std::any_of(overrides.begin(), overrides.end(), [](const std::string& o) { return o.starts_with("solver.substeps="); });
  if (names_substeps) return;
  // A file whose own integrator is no integrator's name has no substeps chosen for this one.
  const json file_integrator = solver_field(file, "integrator");
  const bool same_integrator = file_integrator.is_null()
                                   ? scene.solver.integrator == SolverSettings{}.integrator
                                   : file_integrator == json(name_of(scene.solver.integrator));
  if (!same_integrator) scene.solver.substeps = Simulation::default_substeps(scene.solver.integrator);
}

std::vector<Scene> load_pane_scenes(const std::string& path, const std::vector<std::string>& overrides,
                                    const std::vector<ComparePane>& panes,
                                    std::vector<std::string>& warnings) {
  std::vector<Scene> scenes;
  for (const ComparePane& pane : panes) {
    std::vector<std::string> all = overrides;
    all.insert(all.end(), pane.overrides.begin(), pane.overrides.end());
    std::vector<std::string> pane_warnings;
    try {
      scenes.push_back(load_scene(path, all, pane_warnings));
      give_switched_integrator_its_substeps(scenes.back(), path, all);
    } catch (const InputError& e) {
      throw InputError("compare pane '" + pane.label + "': " + e.what());
    }
    for (const std::string& w : pane_warnings) {
      if (std::find(warnings.begin(), warnings.end(), w) == warnings.end()) warnings.push_back(w);
    }
    scenes.back().name += " [" + pane.label + "]";
  }
  return scenes;
}

std::vector<int> select_vertices(const RestMesh& mesh, const VertexSelector& pin) {
  if (pin.kind == VertexSelector::Kind::Vertex) {
    if (pin.vertex >= mesh.vertex_count()) {
      throw InputError("pin vertex " + std::to_string(pin.vertex) + " does not exist (mesh has " +
                       std::to_string(mesh.vertex_count()) + " vertices)");
    }
    return {pin.vertex};
  }
  if (!mesh.is_grid()) throw InputError("pins by corner, edge, column or row need a grid mesh; use vertex pins for OBJ meshes");
  const int nx = mesh.grid_nx, ny = mesh.grid_ny;
  std::vector<int> vertices;
  switch (pin.kind) {
    case VertexSelector::Kind::Corner: {
      const bool max_i = pin.corner == GridCorner::MaxMin || pin.corner == GridCorner::MaxMax;
      const bool max_j = pin.corner == GridCorner::MinMax || pin.corner == GridCorner::MaxMax;
      const int i = max_i ? nx - 1 : 0, j = max_j ? ny - 1 : 0;
      vertices.push_back(mesh.grid_index(i, j));
      break;
    }
    case VertexSelector::Kind::Edge: {
      const bool column = pin.edge == GridEdge::FirstColumn || pin.edge == GridEdge::LastColumn;
      const bool last = pin.edge == GridEdge::LastColumn || pin.edge == GridEdge::LastRow;
      if (column) {
        for (int j = 0; j < ny; ++j) vertices.push_back(mesh.grid_index(last ? nx - 1 : 0, j));
      } else {
        for (int i = 0; i < nx; ++i) vertices.push_back(mesh.grid_index(i, last ? ny - 1 : 0));
      }
      break;
    }
    case VertexSelector::Kind::Column:
      if (pin.column >= nx) {
        throw InputError("pin column " + std::to_string(pin.column) + " does not exist (grid has " + std::to_string(nx) +
                         " columns; \"edge\": \"last-column\" names the last one at any resolution)");
      }
      for (int j = 0; j < ny; ++j) vertices.push_back(mesh.grid_index(pin.column, j));
      break;
    case VertexSelector::Kind::Row:
      if (pin.row >= ny) {
        throw InputError("pin row " + std::to_string(pin.row) + " does not exist (grid has " + std::to_string(ny) +
                         " rows; \"edge\": \"last-row\" names the last one at any resolution)");
      }
      for (int i = 0; i < nx; ++i) vertices.push_back(mesh.grid_index(i, pin.row));
      break;
    case VertexSelector::Kind::Vertex: break;
  }
  return vertices;
}

std::vector<int> resolve_pins(const Scene& scene) {
  std::set<int> vertices;
  for (const PinSpec& pin : scene.pins) {
    const std::vector<int> chosen = select_vertices(scene.mesh, pin);
    const bool moves = pin.collider >= 0 ? scene.colliders[size_t(pin.collider)].motion.moves() : pin.motion.moves();
    if (!moves) vertices.insert(chosen.begin(), chosen.end());  // on a fixed solid: a plain pin
  }
  return {vertices.begin(), vertices.end()};
}

namespace {

std::vector<MovingPin> resolve_moving_pins(const Scene& scene) {
  std::vector<MovingPin> pins;
  for (const PinSpec& pin : scene.pins) {
    const MotionPath& path = pin.collider >= 0 ? scene.colliders[size_t(pin.collider)].motion : pin.motion;
    if (!path.moves()) continue;
    for (int v : select_vertices(scene.mesh, pin)) pins.push_back({v, scene.mesh.positions[size_t(v)], path});
  }
  return pins;
}

std::vector<SlideConstraint> resolve_slides(const Scene& scene) {
  std::vector<SlideConstraint> slides;
  for (const SlideSpec& spec : scene.slides) {
    for (int v : select_vertices(scene.mesh, spec)) {
      slides.push_back({v, spec.kind, spec.point.value_or(scene.mesh.positions[size_t(v)]), spec.direction});
    }
  }
  return slides;
}

}  // namespace

std::unique_ptr<Simulation> make_simulation(const Scene& scene) {
  auto sim = std::make_unique<Simulation>(build_model(scene.mesh, scene.material, scene.model), scene.colliders,
                                          resolve_pins(scene), scene.solver, scene.forces.gravity);
  sim->set_external_forces(scene.forces);
  sim->set_kinematic_constraints(resolve_moving_pins(scene), resolve_slides(scene));
  sim->set_self_collision(scene.self_collision);
  sim->set_tearing(scene.tearing);
  return sim;
}

}  // namespace cloth
