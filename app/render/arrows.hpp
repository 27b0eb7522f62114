#pragma once
// The teaching overlay's arrows (View panel, --view velocity,force,wind): line segments from a
// spread of cloth vertices, each with a V-shaped head, so the class sees which way the cloth
// moves, what pulls it and where the air blows. GL-free: the renderer only uploads the segments.
#include <glm/glm.hpp>
#include <vector>

#include "simulation/simulation_view.hpp"
#include "render/view_options.hpp"

namespace app {

/// Arrow length per unit of what it shows. Fixed, so a teacher can read magnitudes off the
/// screen (the View panel prints them); chosen so typical cloth values give 5-20 cm arrows.
struct ArrowScales {
  static constexpr float kVelocity = 0.1f;       ///< m of arrow per m/s of vertex velocity
  static constexpr float kAcceleration = 0.01f;  ///< m per m/s^2 of net force / mass (g ~ 10 cm)
  static constexpr float kWind = 0.02f;          ///< m per m/s of air velocity
};

/// At most this many arrows per kind: more would hide the cloth.
constexpr int kMaxArrows = 144;

struct ColoredPoint {
  glm::vec3 position{0.0f};  ///< m
  glm::vec3 color{0.0f};     ///< linear RGB 0..1
};

/// The vertices that carry arrows: all of them up to `max_arrows`, else every k-th row and
/// column of a generated grid (corners included) or every k-th vertex of a file mesh.
std::vector<int> arrow_vertices(const cloth::RestMesh& mesh, int max_arrows);

/// The arrow from `tail` along `vec` (m) as 3 segments (shaft + two head strokes, the head
/// opening across the view from `eye`), appended to `out` as point pairs. Vectors shorter than
/// 1 mm draw nothing.
void append_arrow(const glm::vec3& tail, const glm::vec3& vec, const glm::vec3& eye,
                  const glm::vec3& color, std::vector<ColoredPoint>& out);

/// The segments of every arrow kind `view` turns on, for the simulation's current state,
/// appended to `out`. Force arrows show the applied (external) force per mass that the engine
/// reports (SimulationView::applied_accelerations, which says why the material is left out);
/// wind arrows the air velocity at the vertex.
void build_arrows(const cloth::SimulationView& sim, const ViewOptions& view, const glm::vec3& eye,
                  std::vector<ColoredPoint>& out);

}  // namespace app
