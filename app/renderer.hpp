#pragma once
// Draws the simulation: the cloth (two-sided Blinn-Phong, optional wireframe overlay), the
// colliders (solids as shaded meshes moved along their paths, planes as the metre-grid ground),
// pinned and grabbed vertex
// markers. It draws into whatever framebuffer is bound, so the window, screenshots and offscreen
// video recording share one code path.
#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "camera.hpp"
#include "cloth/simulation.hpp"
#include "gl_objects.hpp"
#include "pane.hpp"
#include "pane_layout.hpp"
#include "shader.hpp"

namespace app {

struct ViewOptions {
  bool wireframe = false;   ///< draw the triangle edges over the shaded cloth
  bool show_pins = true;    ///< mark pinned vertices (and the grabbed one)
  bool show_ground = true;  ///< the ground plane with its metre grid
  bool strain_heat_map = false;  ///< colour the cloth by edge strain (heat_map.hpp) instead of front / back
  float heat_map_top = 0.10f;    ///< strain shown in the top (red) colour, dimensionless (0.1 = 10%)
};

class Renderer {
 public:
  /// Loads the shaders from `shader_dir` and creates the buffers for `sim`'s mesh. Needs a
  /// current GL 3.3 context. Throws std::runtime_error on shader errors.
  Renderer(const std::string& shader_dir, const cloth::Simulation& sim);

  /// Clears `viewport` of the bound framebuffer and draws the whole scene into it.
  void draw(const cloth::Simulation& sim, const OrbitCamera& camera, const Viewport& viewport,
            const ViewOptions& view);

 private:
  struct GpuMesh {
    GlVertexArray vao;
    GlBuffer positions;
    GlBuffer normals;
    GlBuffer indices;
    GLsizei index_count = 0;
  };
  struct Ground {
    glm::vec3 origin{0.0f};  ///< a point of the plane; grid lines are counted from it, m
    glm::vec3 normal{0, 1, 0};
  };

  /// Sizes the cloth's vertex buffers and uploads its triangles (at start, and after a tear).
  void upload_cloth_topology(const cloth::Simulation& sim);
  void upload_cloth(const cloth::Simulation& sim);
  /// Per-vertex heat-map colours of the current strain (only while the heat map is shown).
  void upload_strain_colors(const cloth::Simulation& sim, float top);
  void upload_markers(const cloth::Simulation& sim, bool show_pins);
  void draw_ground(const Ground& g, const glm::mat4& view_proj, const glm::vec3& eye);

  ShaderProgram lit_;
  ShaderProgram ground_;
  ShaderProgram points_;

  GpuMesh cloth_;
  std::optional<std::uint64_t> uploaded_version_;  ///< sim.state_version() in the GPU buffers
  std::uint64_t uploaded_topology_ = 0;             ///< sim.topology_version() of the index buffer
  std::vector<glm::vec3> scratch_positions_;
  std::vector<glm::vec3> scratch_normals_;
  GlBuffer cloth_colors_;  ///< heat-map colour per cloth vertex (attribute 2)

  /// One mesh per solid collider, in the order of sim.colliders(); null for planes.
  std::vector<std::unique_ptr<GpuMesh>> collider_meshes_;
  GlVertexArray ground_vao_;
  GlBuffer ground_vbo_;
  GlVertexArray marker_vao_;
  GlBuffer marker_vbo_;  ///< interleaved position + colour per marker
  GLsizei marker_count_ = 0;
};

/// Clears the bound fb_w x fb_h framebuffer to the separator colour and draws pane k with
/// renderers[k] into its rectangle of pane_rects().
void draw_panes(const std::vector<std::unique_ptr<Renderer>>& renderers, const std::vector<Pane>& panes,
                const OrbitCamera& camera, int fb_w, int fb_h, const ViewOptions& view);

}  // namespace app
