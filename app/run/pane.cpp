#include "run/pane.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "io/scene_writer.hpp"

namespace app {

cloth::Scene shared_scene(const std::vector<PaneScene>& scenes) {
  cloth::Scene scene = scenes.front().scene;
  const std::string suffix = " [" + scenes.front().label + "]";  // cloth::load_pane_scenes adds it
  if (!scenes.front().label.empty() && scene.name.size() >= suffix.size() &&
      scene.name.compare(scene.name.size() - suffix.size(), suffix.size(), suffix) == 0)
    scene.name.resize(scene.name.size() - suffix.size());
  return scene;
}

std::vector<PaneScene> scenes_rebuilt(const std::vector<Pane>& panes, const ClothEdit& edit,
                                      const cloth::CameraSpec& camera, std::vector<std::string>& warnings) {
  std::vector<PaneScene> out;
  for (const Pane& p : panes) {
    nlohmann::json doc = cloth::scene_document(p.document, p.source_dir, *p.sim, camera, &p.drape);
    nlohmann::json& cloth_doc = doc["cloth"];
    if (edit.pins) {
      cloth_doc["pins"] = nlohmann::json::array();
      for (const cloth::PinSpec& pin : *edit.pins) cloth_doc["pins"].push_back(cloth::pin_json(pin));
    }
    if (edit.slides) {
      cloth_doc["slides"] = nlohmann::json::array();
      for (const cloth::SlideSpec& slide : *edit.slides) cloth_doc["slides"].push_back(cloth::slide_json(slide));
    }
    if (edit.grid) {
      const cloth::RestMesh& mesh = p.sim->tearing().intact_mesh();
      if (!mesh.is_grid()) throw cloth::InputError("only a generated grid can be changed (this cloth is a mesh file)");
      const int nx = edit.grid->nx, ny = edit.grid->ny;
      // Rows, columns and vertices named by index move to the same place on the new grid.
      const auto scale = [](int index, int from, int to) {
        return from > 1 ? int(std::lround(index * double(to - 1) / (from - 1))) : 0;
      };
      for (const char* list : {"pins", "slides"}) {
        if (!cloth_doc.contains(list)) continue;
        for (nlohmann::json& sel : cloth_doc[list]) {
          if (sel.contains("column")) sel["column"] = scale(sel["column"].get<int>(), mesh.grid_nx, nx);
          if (sel.contains("row")) sel["row"] = scale(sel["row"].get<int>(), mesh.grid_ny, ny);
          if (sel.contains("vertex")) {
            const int v = sel["vertex"].get<int>();
            sel["vertex"] = scale(v / mesh.grid_nx, mesh.grid_ny, ny) * nx + scale(v % mesh.grid_nx, mesh.grid_nx, nx);
          }
        }
      }
      cloth_doc["mesh"] = {{"grid", cloth::grid_json(*edit.grid)}};
    }
    out.push_back(PaneScene{p.label, cloth::parse_scene(doc, p.source_dir, warnings), doc, p.source_dir});
  }
  return out;
}

nlohmann::json new_solid_entry(const cloth::Simulation& sim, const std::string& type) {
  const auto& x = sim.state().x;
  cloth::Vec3 lo = x.front(), hi = x.front();
  for (const cloth::Vec3& p : x) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  const double size = std::clamp((hi - lo).maxCoeff() / 3.0, 0.05, 2.0);  // m
  const cloth::Vec3 c((lo.x() + hi.x()) / 2, lo.y() - 0.55 * size - 0.02, (lo.z() + hi.z()) / 2);
  const auto vec = [](const cloth::Vec3& v) { return nlohmann::json::array({v.x(), v.y(), v.z()}); };
  const double r = size / 2;
  if (type == "sphere") return {{"type", "sphere"}, {"center", vec(c)}, {"radius", r}};
  if (type == "box") return {{"type", "box"}, {"center", vec(c)}, {"half_extents", {r, r, r}}};
  if (type == "capsule") {
    return {{"type", "capsule"}, {"a", vec(c - cloth::Vec3(r, 0, 0))}, {"b", vec(c + cloth::Vec3(r, 0, 0))},
            {"radius", r / 2}};
  }
  throw cloth::InputError("a new solid must be a sphere, box or capsule, not '" + type + "'");
}

int add_pane_collider(Pane& pane, const nlohmann::json& entry) {
  nlohmann::json& list = pane.document["colliders"];
  if (!list.is_array()) list = nlohmann::json::array();
  const std::string key = "colliders." + std::to_string(list.size());
  const int k = pane.sim->colliders().add(cloth::parse_collider_entry(entry, key, pane.source_dir));
  list.push_back(entry);
  return k;
}

std::vector<int> solids_pins_follow(const Pane& pane) {
  std::vector<int> solids;
  const auto cloth_doc = pane.document.find("cloth");
  if (cloth_doc == pane.document.end() || !cloth_doc->contains("pins")) return solids;
  for (const nlohmann::json& pin : cloth_doc->at("pins")) {
    const int k = pin.value("collider", -1);
    if (k >= 0 && std::find(solids.begin(), solids.end(), k) == solids.end()) solids.push_back(k);
  }
  return solids;
}

void remove_pane_collider(Pane& pane, int k) {
  if (k < 0 || k >= int(pane.sim->colliders().size())) throw cloth::InputError("there is no solid " + std::to_string(k));
  const std::vector<int> followed = solids_pins_follow(pane);
  if (std::find(followed.begin(), followed.end(), k) != followed.end()) {
    throw cloth::InputError("a pin follows this solid: it cannot be removed");
  }
  nlohmann::json& cloth_doc = pane.document["cloth"];
  pane.sim->colliders().remove(k);
  pane.document["colliders"].erase(size_t(k));
  if (cloth_doc.contains("pins")) {
    for (nlohmann::json& pin : cloth_doc["pins"]) {
      if (pin.value("collider", -1) > k) pin["collider"] = pin["collider"].get<int>() - 1;
    }
  }
}

std::vector<Pane> make_panes(const std::vector<PaneScene>& scenes) {
  std::vector<Pane> panes;
  for (const PaneScene& s : scenes) {
    Pane pane;
    pane.label = s.label;
    pane.sim = cloth::make_simulation(s.scene);
    pane.document = s.document;
    pane.source_dir = s.source_dir;
    pane.drape = s.scene.drape;
    pane.layout = ClothLayout{s.scene.grid, s.scene.pins, s.scene.slides};
    pane.replay = cloth::ReplayBuffer(cloth::ReplayBuffer::kDefaultSeconds, cloth::ReplayBuffer::kDefaultInterval,
                                      cloth::ReplayBuffer::kDefaultBudgetBytes / scenes.size());
    panes.push_back(std::move(pane));
  }
  return panes;
}

nlohmann::json panes_stats_json(const std::vector<Pane>& panes) {
  nlohmann::json doc = panes.front().run_stats.to_json(*panes.front().sim);
  if (panes.size() > 1) {
    nlohmann::json list = nlohmann::json::array();
    for (const Pane& p : panes) {
      nlohmann::json one = p.run_stats.to_json(*p.sim);
      one["label"] = p.label;
      list.push_back(std::move(one));
    }
    doc["panes"] = std::move(list);
  }
  return doc;
}

}  // namespace app
