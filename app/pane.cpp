#include "pane.hpp"

namespace app {

std::vector<PaneScene> scenes_to_run(const Options& options, std::vector<std::string>& warnings) {
  cloth::Scene scene = cloth::load_scene(options.scene_path, options.overrides, warnings);
  const std::vector<cloth::ComparePane> panes =
      options.compare.empty() ? scene.compare : cloth::compare_sweep(options.compare);
  if (panes.empty()) return {PaneScene{"", std::move(scene)}};
  const std::vector<cloth::Scene> scenes =
      cloth::load_pane_scenes(options.scene_path, options.overrides, panes, warnings);
  std::vector<PaneScene> out;
  for (size_t k = 0; k < panes.size(); ++k) out.push_back(PaneScene{panes[k].label, scenes[k]});
  return out;
}

std::vector<Pane> make_panes(const std::vector<PaneScene>& scenes) {
  std::vector<Pane> panes;
  for (const PaneScene& s : scenes) {
    Pane pane;
    pane.label = s.label;
    pane.sim = cloth::make_simulation(s.scene);
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
