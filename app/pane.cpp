#include "pane.hpp"

#include <algorithm>
#include <cmath>

#include "cloth/error.hpp"
#include "cloth/scene_writer.hpp"

namespace app {

std::vector<PaneScene> scenes_to_run(const Options& options, std::vector<std::string>& warnings) {
  const nlohmann::json document = cloth::load_scene_document(options.scene_path, options.overrides);
  const std::string dir = cloth::scene_source_dir(options.scene_path);
  cloth::Scene scene = cloth::parse_scene(document, dir, warnings);
  const std::vector<cloth::ComparePane> panes =
      options.compare.empty() ? scene.compare : cloth::compare_sweep(options.compare);
  if (panes.empty()) return {PaneScene{"", std::move(scene), document, dir}};
  const std::vector<cloth::Scene> scenes =
      cloth::load_pane_scenes(options.scene_path, options.overrides, panes, warnings);
  std::vector<PaneScene> out;
  for (size_t k = 0; k < panes.size(); ++k) {
    nlohmann::json pane_document = document;
    for (const std::string& o : panes[k].overrides) cloth::apply_override(pane_document, o);
    out.push_back(PaneScene{panes[k].label, scenes[k], std::move(pane_document), dir});
  }
  return out;
}

std::vector<PaneScene> scenes_at_resolution(const std::vector<Pane>& panes, int nx,
                                            const cloth::CameraSpec& camera,
                                            std::vector<std::string>& warnings) {
  std::vector<PaneScene> out;
  for (const Pane& p : panes) {
    const cloth::RestMesh& mesh = p.sim->intact_mesh();
    if (!mesh.is_grid()) throw cloth::InputError("only a generated grid has a resolution to change (this cloth is a mesh file)");
    const int ny = std::max(2, int(std::lround(nx * double(mesh.grid_ny) / mesh.grid_nx)));
    nlohmann::json doc = cloth::scene_document(p.document, p.source_dir, *p.sim, camera);
    nlohmann::json& pins = doc["cloth"]["pins"];
    pins.erase(std::remove_if(pins.begin(), pins.end(), [](const nlohmann::json& pin) { return pin.contains("vertex"); }),
               pins.end());
    cloth::apply_override(doc, "cloth.mesh.grid.resolution=[" + std::to_string(nx) + "," + std::to_string(ny) + "]");
    out.push_back(PaneScene{p.label, cloth::parse_scene(doc, p.source_dir, warnings), doc, p.source_dir});
  }
  return out;
}

std::vector<Pane> make_panes(const std::vector<PaneScene>& scenes) {
  std::vector<Pane> panes;
  for (const PaneScene& s : scenes) {
    Pane pane;
    pane.label = s.label;
    pane.sim = cloth::make_simulation(s.scene);
    pane.document = s.document;
    pane.source_dir = s.source_dir;
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
