#include "render/element_lines.hpp"

namespace app {
namespace {

glm::vec3 to_glm(const cloth::Vec3& v) { return glm::vec3(float(v.x()), float(v.y()), float(v.z())); }

glm::vec3 color_of(cloth::SpringType type) {
  switch (type) {
    case cloth::SpringType::Shear: return ElementColors::kShear;
    case cloth::SpringType::Bend: return ElementColors::kBend;
    case cloth::SpringType::Structural: break;
  }
  return ElementColors::kStructural;
}

}  // namespace

void build_element_lines(const cloth::SimulationView& sim, std::vector<ColoredPoint>& out) {
  const cloth::ClothModel& model = sim.model();
  const auto& x = sim.positions();
  const auto segment = [&](int i, int j, const glm::vec3& color) {
    out.push_back({to_glm(x[size_t(i)]), color});
    out.push_back({to_glm(x[size_t(j)]), color});
  };
  if (model.type == cloth::ModelType::Springs) {
    for (const cloth::Spring& s : model.springs) segment(s.i, s.j, color_of(s.type));
    return;
  }
  for (const cloth::Edge& e : model.edges) segment(e.i, e.j, ElementColors::kStructural);
}

}  // namespace app
