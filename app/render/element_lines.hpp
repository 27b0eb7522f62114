#pragma once
// The "springs" teaching overlay: the cloth model's elements as coloured lines, so a class sees
// the structure Yu's report (section 3) describes. GL-free.
#include <vector>

#include "render/arrows.hpp"
#include "simulation/simulation_view.hpp"

namespace app {

/// Line colours per element kind.
struct ElementColors {
  static constexpr glm::vec3 kStructural{0.95f, 0.95f, 0.95f};  ///< white: stretch
  static constexpr glm::vec3 kShear{1.00f, 0.80f, 0.15f};       ///< yellow: shear diagonals
  static constexpr glm::vec3 kBend{0.85f, 0.30f, 0.95f};        ///< magenta: bend springs
};

/// Segments (point pairs) of the model's elements at the current positions, appended to `out`:
/// the mass-spring model's structural, shear and bend springs in their colours; for the other
/// models (continuum or hinge elements, not springs) the triangle edges as structural lines.
void build_element_lines(const cloth::SimulationView& sim, std::vector<ColoredPoint>& out);

}  // namespace app
