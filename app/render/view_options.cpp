#include "render/view_options.hpp"

#include <functional>
#include <sstream>
#include <utility>

#include "core/error.hpp"

namespace app {
namespace {

using Setter = std::function<void(ViewOptions&)>;

const std::vector<std::pair<std::string, Setter>>& setters() {
  static const std::vector<std::pair<std::string, Setter>> table = {
      {"wireframe", [](ViewOptions& v) { v.wireframe = true; }},
      {"heat-map", [](ViewOptions& v) { v.strain_heat_map = true; }},
      {"velocity", [](ViewOptions& v) { v.velocity_arrows = true; }},
      {"force", [](ViewOptions& v) { v.force_arrows = true; }},
      {"wind", [](ViewOptions& v) { v.wind_arrows = true; }},
      {"contacts", [](ViewOptions& v) { v.show_contacts = true; }},
      {"springs", [](ViewOptions& v) { v.show_springs = true; }},
      {"caption", [](ViewOptions& v) { v.caption = true; }},
      {"checker", [](ViewOptions& v) { v.texture = ClothTexture::Checker; }},
      {"fabric", [](ViewOptions& v) { v.texture = ClothTexture::Fabric; }},
      {"no-pins", [](ViewOptions& v) { v.show_pins = false; }},
      {"no-ground", [](ViewOptions& v) { v.show_ground = false; }},
      {"no-shadow", [](ViewOptions& v) { v.show_shadow = false; }},
  };
  return table;
}

}  // namespace

const char* cloth_texture_name(ClothTexture t) {
  switch (t) {
    case ClothTexture::Checker: return "checker";
    case ClothTexture::Fabric: return "fabric";
    case ClothTexture::None: break;
  }
  return "none";
}

std::optional<ClothTexture> cloth_texture_from_name(const std::string& name) {
  for (ClothTexture t : {ClothTexture::None, ClothTexture::Checker, ClothTexture::Fabric})
    if (name == cloth_texture_name(t)) return t;
  return std::nullopt;
}

const std::vector<std::string>& view_option_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& [name, set] : setters()) out.push_back(name);
    return out;
  }();
  return names;
}

ViewOptions parse_view_list(const std::string& list) {
  ViewOptions v;
  std::istringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    bool known = false;
    for (const auto& [name, set] : setters()) {
      if (name == item) {
        set(v);
        known = true;
      }
    }
    if (!known) {
      std::string all;
      for (const std::string& n : view_option_names()) all += (all.empty() ? "" : ", ") + n;
      throw cloth::InputError("--view: unknown '" + item + "' (one of: " + all + ")");
    }
  }
  return v;
}

}  // namespace app
