#pragma once
// What the renderer shows: render modes and teaching overlays (the View panel, --view, and the
// persisted settings). GL-free, so the CLI and the tests can use it.
#include <optional>
#include <string>
#include <vector>

namespace app {

/// An image on the cloth's front (assets/textures; scripts/make_textures.py draws them).
enum class ClothTexture { None, Checker, Fabric };

/// "none", "checker", "fabric"; and back (nullopt for anything else).
const char* cloth_texture_name(ClothTexture t);
std::optional<ClothTexture> cloth_texture_from_name(const std::string& name);

struct ViewOptions {
  bool wireframe = false;        ///< draw the triangle edges over the shaded cloth
  bool show_pins = true;         ///< mark pinned vertices (and the grabbed one)
  bool show_ground = true;       ///< the ground plane with its metre grid
  bool show_shadow = true;       ///< the cloth's shadow on the ground planes (with the ground)
  bool strain_heat_map = false;  ///< colour the cloth by edge strain (heat_map.hpp) instead of front / back
  float heat_map_top = 0.10f;    ///< strain shown in the top (red) colour, dimensionless (0.1 = 10%)
  bool velocity_arrows = false;  ///< per-vertex velocity (arrows.hpp for the scales)
  bool force_arrows = false;     ///< per-vertex applied force (gravity, damping, air) per unit mass
  bool wind_arrows = false;      ///< the air velocity at the vertices
  bool show_contacts = false;    ///< mark the vertices touching a solid or the ground (SimulationView)
  bool show_springs = false;     ///< the model's springs coloured by kind (element_lines.hpp)
  bool caption = false;          ///< the scene's name along the bottom of the picture (picture_overlay.hpp)
  ClothTexture texture = ClothTexture::None;  ///< drawn on the cloth unless the heat map is on

  bool operator==(const ViewOptions&) const = default;
};

/// The names --view accepts, each turning one option away from its default.
const std::vector<std::string>& view_option_names();

/// Parses --view's comma-separated list of view_option_names() ("" = the defaults). Throws
/// cloth::InputError naming an unknown entry.
ViewOptions parse_view_list(const std::string& list);

}  // namespace app
