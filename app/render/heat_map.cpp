#include "render/heat_map.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace app {

glm::vec3 heat_color(float t) {
  // Piecewise-linear through five stops, evenly spaced: easy to read off against the legend.
  static const std::array<glm::vec3, 5> stops = {glm::vec3(0.15f, 0.25f, 0.85f), glm::vec3(0.10f, 0.75f, 0.85f),
                                                 glm::vec3(0.20f, 0.80f, 0.25f), glm::vec3(0.95f, 0.85f, 0.15f),
                                                 glm::vec3(0.90f, 0.15f, 0.10f)};
  const float x = std::clamp(std::isfinite(t) ? t : 1.0f, 0.0f, 1.0f) * float(stops.size() - 1);
  const int k = std::min(int(x), int(stops.size()) - 2);
  return glm::mix(stops[size_t(k)], stops[size_t(k) + 1], x - float(k));
}

}  // namespace app
