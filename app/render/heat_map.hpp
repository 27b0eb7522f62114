#pragma once
// The strain heat map's colour scale, shared by the cloth's vertex colours and the on-screen
// legend so that both always agree.
#include <glm/glm.hpp>

namespace app {

/// Colour of a value t in [0, 1] (clamped): blue (unstretched) through cyan, green and yellow to
/// red (at or past the top of the scale).
glm::vec3 heat_color(float t);

}  // namespace app
