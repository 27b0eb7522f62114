#pragma once
// Draws the simulation: the cloth (two-sided Blinn-Phong, optional wireframe overlay), the
// colliders (solids as shaded meshes moved along their paths, planes as the metre-grid ground),
// pinned, grabbed and touching vertex markers, and the velocity / force / wind arrows
// (arrows.hpp). Everything drawn is read through cloth::SimulationView, strain and contacts
// included: the renderer computes no physics. It draws into whatever framebuffer is bound, so the
// window, screenshots and offscreen video recording share one code path.
#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "render/arrows.hpp"
#include "render/camera.hpp"
#include "simulation/simulation_view.hpp"
#include "render/gl_objects.hpp"
#include "run/pane.hpp"
#include "run/pane_layout.hpp"
#include "render/shader.hpp"
#include "render/view_options.hpp"

namespace app {

class Renderer {
 public:
  /// Loads the shaders from `shader_dir` and creates the buffers for `sim`'s mesh. Needs a
  /// current GL 3.3 context. Throws std::runtime_error on shader errors.
  Renderer(const std::string& shader_dir, const cloth::SimulationView& sim);

  /// Clears `viewport` of the bound framebuffer and draws the whole scene into it.
  void draw(const cloth::SimulationView& sim, const OrbitCamera& camera, const Viewport& viewport,
            const ViewOptions& view);

  /// Size of the pin, grab and contact markers and width of the arrows and element lines,
  /// relative to normal: the window follows its presentation scale (Ctrl + / Ctrl -), headless
  /// pictures --ui-scale, so they stay readable from the back of a room.
  void set_marker_scale(float scale) { marker_scale_ = scale; }

  /// A ground plane (drawn with its metre grid, receives the cloth's shadow).
  struct Ground {
    glm::vec3 origin{0.0f};  ///< a point of the plane; grid lines are counted from it, m
    glm::vec3 normal{0, 1, 0};
  };

 private:
  struct GpuMesh {
    GlVertexArray vao;
    GlBuffer positions;
    GlBuffer normals;
    GlBuffer indices;
    GLsizei index_count = 0;
  };
  /// A drawn mesh per solid of sim.colliders() (at start, and when a solid is added or removed).
  void upload_colliders(const cloth::SimulationView& sim);
  /// Sizes the cloth's vertex buffers and uploads its triangles (at start, and after a tear).
  void upload_cloth_topology(const cloth::SimulationView& sim);
  void upload_cloth(const cloth::SimulationView& sim);
  /// Per-vertex heat-map colours of the current strain (only while the heat map is shown).
  void upload_strain_colors(const cloth::SimulationView& sim, float top);
  /// Pinned, grabbed and (view.show_contacts) touching vertices.
  void upload_markers(const cloth::SimulationView& sim, const ViewOptions& view);
  /// The element lines and arrows `view` asks for (none: nothing uploaded).
  void upload_arrows(const cloth::SimulationView& sim, const ViewOptions& view, const glm::vec3& eye);
  void draw_ground(const Ground& g, const glm::mat4& view_proj, const glm::vec3& eye);
  /// The solids' meshes where their motion puts them, with the lit program in use.
  void draw_solids(const cloth::SimulationView& sim);

  ShaderProgram lit_;
  ShaderProgram ground_;
  ShaderProgram points_;
  ShaderProgram lines_;

  GpuMesh cloth_;
  std::optional<std::uint64_t> uploaded_version_;  ///< sim.state_version() in the GPU buffers
  std::uint64_t uploaded_topology_ = 0;             ///< sim.topology_version() of the index buffer
  std::vector<glm::vec3> scratch_positions_;
  std::vector<glm::vec3> scratch_normals_;
  GlBuffer cloth_colors_;  ///< heat-map colour per cloth vertex (attribute 2)
  GlBuffer cloth_uvs_;     ///< texture coordinates per cloth vertex (attribute 3)
  GlTexture checker_;      ///< assets/textures/checker.png
  GlTexture fabric_;       ///< assets/textures/fabric.png

  /// One mesh per solid collider, in the order of sim.colliders(); null for planes.
  std::vector<std::unique_ptr<GpuMesh>> collider_meshes_;
  std::uint64_t uploaded_colliders_ = 0;  ///< sim.collider_version() of collider_meshes_
  GlVertexArray ground_vao_;
  GlBuffer ground_vbo_;
  GlVertexArray marker_vao_;
  GlBuffer marker_vbo_;  ///< interleaved position + colour per marker
  GLsizei marker_count_ = 0;
  float marker_scale_ = 1.0f;
  GlVertexArray arrow_vao_;
  GlBuffer arrow_vbo_;  ///< interleaved position + colour per segment end
  GLsizei arrow_point_count_ = 0;   ///< all line points: the element lines first, then the arrows
  GLsizei element_point_count_ = 0;  ///< of which the element lines (drawn depth-tested)
  std::vector<ColoredPoint> scratch_arrows_;
};

/// Clears the bound fb_w x fb_h framebuffer to the separator colour and draws pane k with
/// renderers[k] into rects[k] (framebuffer px, top-left origin; pane_rects()): the run now, or
/// the moment each pane's replay shows while `replaying`.
void draw_panes(const std::vector<std::unique_ptr<Renderer>>& renderers, const std::vector<Pane>& panes,
                const std::vector<PaneRect>& rects, const OrbitCamera& camera, int fb_w, int fb_h,
                const ViewOptions& view, bool replaying);

}  // namespace app
