#include "settings_store.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "ui/ui_scale.hpp"

namespace app {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// The view's fields by name, so reading and writing cannot drift apart.
struct ViewField {
  const char* name;
  bool ViewOptions::*flag;
};
constexpr ViewField kViewFlags[] = {
    {"wireframe", &ViewOptions::wireframe},
    {"show_pins", &ViewOptions::show_pins},
    {"show_ground", &ViewOptions::show_ground},
    {"show_shadow", &ViewOptions::show_shadow},
    {"strain_heat_map", &ViewOptions::strain_heat_map},
    {"velocity_arrows", &ViewOptions::velocity_arrows},
    {"force_arrows", &ViewOptions::force_arrows},
    {"wind_arrows", &ViewOptions::wind_arrows},
    {"show_contacts", &ViewOptions::show_contacts},
    {"caption", &ViewOptions::caption},
    {"show_springs", &ViewOptions::show_springs},
};

bool finite_number(const json& j) { return j.is_number() && std::isfinite(j.get<double>()); }

/// A camera entry, or nothing when any field is missing or not a finite number.
std::optional<CameraPose> read_pose(const json& j) {
  if (!j.is_object()) return std::nullopt;
  const json& t = j.value("target", json());
  if (!t.is_array() || t.size() != 3 || !finite_number(t[0]) || !finite_number(t[1]) || !finite_number(t[2]))
    return std::nullopt;
  for (const char* k : {"distance", "yaw_deg", "pitch_deg"})
    if (!j.contains(k) || !finite_number(j[k])) return std::nullopt;
  CameraPose p;
  p.target = glm::vec3(t[0].get<float>(), t[1].get<float>(), t[2].get<float>());
  p.distance = j["distance"].get<float>();
  p.yaw_deg = j["yaw_deg"].get<float>();
  p.pitch_deg = j["pitch_deg"].get<float>();
  // A hand-edited 1e300 is finite as a double but not as a float; scenes are room-sized.
  constexpr float kMaxCoordinate = 1e4f;  // m, as scene files allow
  for (float v : {p.target.x, p.target.y, p.target.z, p.yaw_deg})
    if (!(std::abs(v) <= kMaxCoordinate)) return std::nullopt;
  return p;
}

}  // namespace

CameraPose CameraPose::of(const OrbitCamera& camera) {
  return CameraPose{camera.target(), camera.distance(), camera.yaw_deg(), camera.pitch_deg()};
}

void CameraPose::apply_to(OrbitCamera& camera) const { camera.set(target, distance, yaw_deg, pitch_deg); }

std::string config_dir() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg != '\0')
    return (fs::path(xdg) / "clothsim").string();
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
    return (fs::path(home) / ".config" / "clothsim").string();
  return "";
}

std::string scene_key(const std::string& scene_path) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(scene_path, ec), ec);
  return ec ? scene_path : p.string();
}

SavedSettings load_settings(const std::string& path, std::string& warning) {
  SavedSettings s;
  std::ifstream in(path);
  if (!in) return s;  // first run
  json doc;
  try {
    doc = json::parse(in);
  } catch (const json::exception&) {
    warning = "ignored the saved settings " + path + ": not valid JSON";
    return s;
  }
  if (!doc.is_object()) {
    warning = "ignored the saved settings " + path + ": not a JSON object";
    return s;
  }
  if (const json& v = doc.value("view", json()); v.is_object()) {
    for (const ViewField& f : kViewFlags)
      if (v.contains(f.name) && v[f.name].is_boolean()) s.view.*f.flag = v[f.name].get<bool>();
    if (v.contains("texture") && v["texture"].is_string())
      s.view.texture = cloth_texture_from_name(v["texture"].get<std::string>()).value_or(ClothTexture::None);
    if (v.contains("heat_map_top") && finite_number(v["heat_map_top"]))
      s.view.heat_map_top = std::clamp(v["heat_map_top"].get<float>(), 0.001f, 10.0f);
  }
  if (doc.contains("show_plots") && doc["show_plots"].is_boolean()) s.show_plots = doc["show_plots"].get<bool>();
  if (doc.contains("ui_scale") && doc["ui_scale"].is_number()) s.ui_scale = stepped_ui_scale(doc["ui_scale"].get<float>(), 0);
  if (const json& c = doc.value("cameras", json()); c.is_object()) {
    for (const auto& [key, value] : c.items())
      if (const auto pose = read_pose(value)) s.cameras[key] = *pose;
  }
  return s;
}

void save_settings(const std::string& path, const SavedSettings& s) {
  json doc;
  json& v = doc["view"];
  for (const ViewField& f : kViewFlags) v[f.name] = s.view.*f.flag;
  v["heat_map_top"] = s.view.heat_map_top;
  v["texture"] = cloth_texture_name(s.view.texture);
  doc["show_plots"] = s.show_plots;
  doc["ui_scale"] = s.ui_scale;
  doc["cameras"] = json::object();
  for (const auto& [key, p] : s.cameras) {
    doc["cameras"][key] = {{"target", {p.target.x, p.target.y, p.target.z}},
                           {"distance", p.distance},
                           {"yaw_deg", p.yaw_deg},
                           {"pitch_deg", p.pitch_deg}};
  }
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    out << doc.dump(2) << "\n";
    if (!out) throw std::runtime_error("cannot write settings " + tmp);
  }
  fs::rename(tmp, path, ec);
  if (ec) throw std::runtime_error("cannot write settings " + path + ": " + ec.message());
}

}  // namespace app
