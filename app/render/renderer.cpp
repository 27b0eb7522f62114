#include "render/renderer.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <variant>

#include "render/collider_meshes.hpp"
#include "render/element_lines.hpp"
#include "render/heat_map.hpp"
#include "render/normals.hpp"
#include "run/paths.hpp"
#include "render/texture.hpp"

namespace app {
namespace {

// Colours (linear RGB). Front and back of the cloth differ so a fold or a flip is obvious.
const glm::vec3 kClothFront(0.86f, 0.36f, 0.24f);
const glm::vec3 kClothBack(0.22f, 0.50f, 0.80f);
const glm::vec3 kSphereColor(0.70f, 0.72f, 0.76f);
const glm::vec4 kWireColor(0.08f, 0.08f, 0.10f, 0.55f);
const glm::vec3 kPinColor(1.00f, 0.85f, 0.10f);
const glm::vec3 kGrabColor(0.10f, 0.95f, 0.30f);
const glm::vec3 kGrabTargetColor(0.95f, 0.95f, 0.95f);
const glm::vec3 kContactColor(0.10f, 0.85f, 0.95f);  // cyan: not used by the cloth or the arrows
const glm::vec3 kBackground(0.63f, 0.69f, 0.76f);
const glm::vec3 kPaneSeparator(0.12f, 0.13f, 0.15f);  // the gap between side-by-side panes
// Key light direction (towards the light), world space: high, front-right.
const glm::vec3 kLightDir = glm::normalize(glm::vec3(0.45f, 1.0f, 0.6f));
constexpr float kGroundHalfExtent = 100.0f;  ///< m; the grid fades out long before this
constexpr float kMarkerSizePx = 9.0f;
constexpr float kElementLineWidthPx = 1.0f;
constexpr float kArrowWidthPx = 2.0f;  ///< twice the element lines, so arrows read over them
constexpr float kCheckerTileM = 0.25f;  ///< one checker image (8 x 8 squares) per 25 cm of cloth
constexpr float kFabricTileM = 0.08f;   ///< one weave image (16 threads) per 8 cm: 5 mm threads
const glm::vec4 kShadowColor(0.05f, 0.06f, 0.08f, 0.35f);
constexpr float kShadowLift = 0.001f;  ///< m

/// The map that flattens a point onto ground `g` along the directional light `towards_light`
/// (x' = x - ((n.x - d) / (n.L)) L), lifted 1 mm off the plane so it wins the depth test against
/// the ground; none when the light grazes or is under the plane.
std::optional<glm::mat4> shadow_projection(const Renderer::Ground& g, const glm::vec3& towards_light) {
  const glm::vec3 n = glm::normalize(g.normal);
  const float nl = glm::dot(n, towards_light);
  if (nl < 0.05f) return std::nullopt;
  const float d = glm::dot(n, g.origin) + kShadowLift;
  glm::mat4 m(1.0f);
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) m[c][r] -= towards_light[r] * n[c] / nl;
  for (int r = 0; r < 3; ++r) m[3][r] = towards_light[r] * d / nl;
  return m;
}

glm::vec3 to_glm(const cloth::Vec3& v) {
  return glm::vec3(float(v.x()), float(v.y()), float(v.z()));
}

void attrib_vec3(GLuint index, GLsizei stride, std::size_t offset) {
  glEnableVertexAttribArray(index);
  glVertexAttribPointer(index, 3, GL_FLOAT, GL_FALSE, stride,
                        reinterpret_cast<const void*>(offset));
}

}  // namespace

Renderer::Renderer(const std::string& shader_dir, const cloth::SimulationView& sim)
    : lit_(shader_dir, "lit"), ground_(shader_dir, "ground"), points_(shader_dir, "points"),
      lines_(shader_dir, "lines"),
      checker_(load_texture(texture_dir() + "/checker.png")),
      fabric_(load_texture(texture_dir() + "/fabric.png")) {
  upload_cloth_topology(sim);

  upload_colliders(sim);

  // Ground: one big quad (4 corners, rewritten per plane when drawn), drawn as a triangle fan.
  glBindVertexArray(ground_vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, ground_vbo_.id());
  glBufferData(GL_ARRAY_BUFFER, 4 * sizeof(glm::vec3), nullptr, GL_DYNAMIC_DRAW);
  attrib_vec3(0, sizeof(glm::vec3), 0);

  // Markers: position + colour per point.
  glBindVertexArray(marker_vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, marker_vbo_.id());
  attrib_vec3(0, 2 * sizeof(glm::vec3), 0);
  attrib_vec3(1, 2 * sizeof(glm::vec3), sizeof(glm::vec3));

  // Arrows: the same layout (ColoredPoint is position then colour).
  static_assert(sizeof(ColoredPoint) == 2 * sizeof(glm::vec3));
  glBindVertexArray(arrow_vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, arrow_vbo_.id());
  attrib_vec3(0, sizeof(ColoredPoint), 0);
  attrib_vec3(1, sizeof(ColoredPoint), sizeof(glm::vec3));

  glBindVertexArray(0);
}

void Renderer::upload_colliders(const cloth::SimulationView& sim) {
  // At their starting places; motion and mouse offsets move them when drawn.
  collider_meshes_.clear();
  for (const cloth::Collider& c : sim.colliders()) {
    const std::optional<SimpleMesh> m = collider_mesh(c.shape);
    if (!m) {
      collider_meshes_.push_back(nullptr);
      continue;
    }
    auto gpu = std::make_unique<GpuMesh>();
    gpu->index_count = GLsizei(m->indices.size());
    glBindVertexArray(gpu->vao.id());
    glBindBuffer(GL_ARRAY_BUFFER, gpu->positions.id());
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(m->positions.size() * sizeof(glm::vec3)),
                 m->positions.data(), GL_STATIC_DRAW);
    attrib_vec3(0, sizeof(glm::vec3), 0);
    glBindBuffer(GL_ARRAY_BUFFER, gpu->normals.id());
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(m->normals.size() * sizeof(glm::vec3)),
                 m->normals.data(), GL_STATIC_DRAW);
    attrib_vec3(1, sizeof(glm::vec3), 0);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, gpu->indices.id());
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(m->indices.size() * sizeof(std::uint32_t)),
                 m->indices.data(), GL_STATIC_DRAW);
    collider_meshes_.push_back(std::move(gpu));
  }
  glBindVertexArray(0);
  uploaded_colliders_ = sim.collider_version();
}

void Renderer::upload_cloth_topology(const cloth::SimulationView& sim) {
  // Positions and normals change every step (dynamic); the triangles only when the cloth tears.
  const cloth::RestMesh& mesh = sim.mesh();
  const GLsizeiptr vbytes = GLsizeiptr(mesh.vertex_count() * sizeof(glm::vec3));
  std::vector<std::uint32_t> idx;
  idx.reserve(mesh.triangles.size() * 3);
  for (const auto& t : mesh.triangles)
    for (int k = 0; k < 3; ++k) idx.push_back(std::uint32_t(t[k]));
  cloth_.index_count = GLsizei(idx.size());
  glBindVertexArray(cloth_.vao.id());
  glBindBuffer(GL_ARRAY_BUFFER, cloth_.positions.id());
  glBufferData(GL_ARRAY_BUFFER, vbytes, nullptr, GL_DYNAMIC_DRAW);
  attrib_vec3(0, sizeof(glm::vec3), 0);
  glBindBuffer(GL_ARRAY_BUFFER, cloth_.normals.id());
  glBufferData(GL_ARRAY_BUFFER, vbytes, nullptr, GL_DYNAMIC_DRAW);
  attrib_vec3(1, sizeof(glm::vec3), 0);
  glBindBuffer(GL_ARRAY_BUFFER, cloth_colors_.id());
  glBufferData(GL_ARRAY_BUFFER, vbytes, nullptr, GL_DYNAMIC_DRAW);
  attrib_vec3(2, sizeof(glm::vec3), 0);
  // Material coordinates (m) change only with the topology; the texture scale is a uniform.
  std::vector<glm::vec2> uv(size_t(mesh.vertex_count()), glm::vec2(0.0f));
  for (size_t i = 0; i < mesh.uv.size() && i < uv.size(); ++i)
    uv[i] = glm::vec2(float(mesh.uv[i].x()), float(mesh.uv[i].y()));
  glBindBuffer(GL_ARRAY_BUFFER, cloth_uvs_.id());
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(uv.size() * sizeof(glm::vec2)), uv.data(), GL_STATIC_DRAW);
  glEnableVertexAttribArray(3);
  glVertexAttribPointer(3, 2, GL_FLOAT, GL_FALSE, sizeof(glm::vec2), nullptr);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, cloth_.indices.id());
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, GLsizeiptr(idx.size() * sizeof(std::uint32_t)), idx.data(),
               GL_STATIC_DRAW);
  glBindVertexArray(0);
  uploaded_topology_ = sim.topology_version();
  uploaded_version_.reset();
}

void Renderer::upload_cloth(const cloth::SimulationView& sim) {
  if (uploaded_topology_ != sim.topology_version()) upload_cloth_topology(sim);
  // Only when the engine says positions changed: paused frames cost no upload.
  if (uploaded_version_ && *uploaded_version_ == sim.state_version()) return;
  const auto& x = sim.positions();
  scratch_positions_.resize(x.size());
  for (size_t i = 0; i < x.size(); ++i) scratch_positions_[i] = to_glm(x[i]);
  compute_vertex_normals(x, sim.mesh().triangles, scratch_normals_);
  const GLsizeiptr bytes = GLsizeiptr(x.size() * sizeof(glm::vec3));
  glBindBuffer(GL_ARRAY_BUFFER, cloth_.positions.id());
  glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, scratch_positions_.data());
  glBindBuffer(GL_ARRAY_BUFFER, cloth_.normals.id());
  glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, scratch_normals_.data());
  uploaded_version_ = sim.state_version();
}

void Renderer::upload_strain_colors(const cloth::SimulationView& sim, float top) {
  const std::vector<double> strain = sim.vertex_strain();
  scratch_positions_.resize(strain.size());  // reused as colour scratch: same size, same type
  for (size_t i = 0; i < strain.size(); ++i) scratch_positions_[i] = heat_color(float(strain[i]) / top);
  glBindBuffer(GL_ARRAY_BUFFER, cloth_colors_.id());
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(strain.size() * sizeof(glm::vec3)), scratch_positions_.data());
}

void Renderer::upload_markers(const cloth::SimulationView& sim, const ViewOptions& view) {
  std::vector<glm::vec3> data;  // pairs: position, colour
  const auto& x = sim.positions();
  if (view.show_contacts) {  // first: a pin or the grab drawn later stays visible on top
    for (int i : sim.touching_vertices()) {
      data.push_back(to_glm(x[size_t(i)]));
      data.push_back(kContactColor);
    }
  }
  if (view.show_pins) {
    for (int i = 0; i < int(x.size()); ++i) {
      if (sim.is_pinned(i)) {
        data.push_back(to_glm(x[size_t(i)]));
        data.push_back(kPinColor);
      }
    }
  }
  if (const std::optional<cloth::Grab> grab = sim.grab();
      grab && grab->vertex >= 0 && grab->vertex < int(x.size())) {
    data.push_back(to_glm(grab->target));
    data.push_back(kGrabTargetColor);
    data.push_back(to_glm(x[size_t(grab->vertex)]));
    data.push_back(kGrabColor);
  }
  marker_count_ = GLsizei(data.size() / 2);
  glBindBuffer(GL_ARRAY_BUFFER, marker_vbo_.id());
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(data.size() * sizeof(glm::vec3)), data.data(),
               GL_STREAM_DRAW);
}

void Renderer::upload_arrows(const cloth::SimulationView& sim, const ViewOptions& view, const glm::vec3& eye) {
  scratch_arrows_.clear();
  if (view.show_springs) build_element_lines(sim, scratch_arrows_);
  element_point_count_ = GLsizei(scratch_arrows_.size());
  build_arrows(sim, view, eye, scratch_arrows_);
  arrow_point_count_ = GLsizei(scratch_arrows_.size());
  if (arrow_point_count_ == 0) return;
  glBindBuffer(GL_ARRAY_BUFFER, arrow_vbo_.id());
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(scratch_arrows_.size() * sizeof(ColoredPoint)),
               scratch_arrows_.data(), GL_STREAM_DRAW);
}

void Renderer::draw_ground(const Ground& g, const glm::mat4& view_proj, const glm::vec3& eye) {
  // An orthonormal basis of the plane; for a horizontal floor it is exactly (x, z), so the grid
  // lines sit on whole metres of world x and z.
  const glm::vec3 n = glm::normalize(g.normal);
  const glm::vec3 helper = std::abs(n.z) < 0.9f ? glm::vec3(0, 0, 1) : glm::vec3(1, 0, 0);
  const glm::vec3 axis_u = glm::normalize(glm::cross(helper, n));
  const glm::vec3 axis_v = glm::cross(n, axis_u);
  // Centre the quad under the eye so the visible part is always covered.
  const glm::vec3 centre = eye - glm::dot(eye - g.origin, n) * n;
  const glm::vec3 quad[4] = {centre + kGroundHalfExtent * (-axis_u - axis_v),
                             centre + kGroundHalfExtent * (axis_u - axis_v),
                             centre + kGroundHalfExtent * (axis_u + axis_v),
                             centre + kGroundHalfExtent * (-axis_u + axis_v)};
  glBindBuffer(GL_ARRAY_BUFFER, ground_vbo_.id());
  glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof quad, quad);

  ground_.use();
  ground_.set("u_view_proj", view_proj);
  ground_.set("u_origin", g.origin);
  ground_.set("u_axis_u", axis_u);
  ground_.set("u_axis_v", axis_v);
  ground_.set("u_normal", n);
  ground_.set("u_eye", eye);
  ground_.set("u_light_dir", kLightDir);
  ground_.set("u_background", kBackground);
  // Pushed back a little so cloth resting on the floor (a contact offset above it) never
  // z-fights with it.
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(1.0f, 2.0f);
  glBindVertexArray(ground_vao_.id());
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  glDisable(GL_POLYGON_OFFSET_FILL);
}

void Renderer::draw(const cloth::SimulationView& sim, const OrbitCamera& camera, const Viewport& vp,
                    const ViewOptions& view) {
  upload_cloth(sim);
  if (uploaded_colliders_ != sim.collider_version()) upload_colliders(sim);
  if (view.strain_heat_map) upload_strain_colors(sim, view.heat_map_top);
  upload_markers(sim, view);

  glViewport(vp.x, vp.y, vp.width, vp.height);
  glEnable(GL_SCISSOR_TEST);  // the clear stays inside this pane
  glScissor(vp.x, vp.y, vp.width, vp.height);
  glClearColor(kBackground.r, kBackground.g, kBackground.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glDisable(GL_SCISSOR_TEST);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  glDisable(GL_CULL_FACE);  // cloth is seen from both sides
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glEnable(GL_MULTISAMPLE);
  glEnable(GL_PROGRAM_POINT_SIZE);
  glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);

  const glm::mat4 view_proj =
      camera.projection(float(vp.width) / float(vp.height > 0 ? vp.height : 1)) * camera.view();
  const glm::vec3 eye = camera.eye();

  // Ground: every plane collider, or a floor at y = 0 when the scene has none.
  std::vector<Ground> grounds;
  for (int k = 0; k < int(sim.colliders().size()); ++k) {
    if (const auto* plane = std::get_if<cloth::PlaneShape>(&sim.colliders()[size_t(k)].shape))
      grounds.push_back(Ground{to_glm(plane->point + sim.collider_displacement(k)), to_glm(plane->normal)});
  }
  if (grounds.empty()) grounds.push_back(Ground{});
  if (view.show_ground) {
    for (const Ground& g : grounds) draw_ground(g, view_proj, eye);
  }

  lit_.use();
  lit_.set("u_view_proj", view_proj);
  lit_.set("u_eye", eye);
  lit_.set("u_light_dir", kLightDir);
  lit_.set("u_flat", 0);
  lit_.set("u_vertex_color", 0);
  lit_.set("u_textured", 0);

  // The cloth's shadow: its triangles flattened onto each ground along the key light.
  if (view.show_ground && view.show_shadow) {
    lit_.set("u_flat", 1);
    lit_.set("u_flat_color", kShadowColor);
    glBindVertexArray(cloth_.vao.id());
    cloth::Vec3 sum = cloth::Vec3::Zero();
    for (const cloth::Vec3& p : sim.positions()) sum += p;
    const glm::vec3 centroid = to_glm(sum / double(std::max<size_t>(sim.positions().size(), 1)));
    for (const Ground& g : grounds) {
      // Only a plane the cloth is in front of receives its shadow (not a wall behind it).
      if (glm::dot(g.normal, centroid - g.origin) < 0.0f) continue;
      const std::optional<glm::mat4> m = shadow_projection(g, kLightDir);
      if (!m) continue;
      lit_.set("u_model", *m);
      glDrawElements(GL_TRIANGLES, cloth_.index_count, GL_UNSIGNED_INT, nullptr);
    }
    lit_.set("u_flat", 0);
  }

  draw_solids(sim);

  // Cloth. The filled pass is pushed back so the wireframe lines win the depth test.
  glBindVertexArray(cloth_.vao.id());
  lit_.set("u_model", glm::mat4(1.0f));
  lit_.set("u_front_color", kClothFront);
  lit_.set("u_back_color", kClothBack);
  lit_.set("u_shininess", 24.0f);
  lit_.set("u_specular", 0.15f);
  lit_.set("u_vertex_color", view.strain_heat_map ? 1 : 0);
  if (view.texture != ClothTexture::None) {
    const bool checker = view.texture == ClothTexture::Checker;
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, checker ? checker_.id() : fabric_.id());
    lit_.set("u_texture", 0);
    lit_.set("u_textured", 1);
    // uv is in metres: one image per tile of this side.
    lit_.set("u_uv_scale", 1.0f / (checker ? kCheckerTileM : kFabricTileM));
  }
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(1.0f, 1.0f);
  glDrawElements(GL_TRIANGLES, cloth_.index_count, GL_UNSIGNED_INT, nullptr);
  glDisable(GL_POLYGON_OFFSET_FILL);
  lit_.set("u_vertex_color", 0);
  lit_.set("u_textured", 0);
  if (view.wireframe) {
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    lit_.set("u_flat", 1);
    lit_.set("u_flat_color", kWireColor);
    glDrawElements(GL_TRIANGLES, cloth_.index_count, GL_UNSIGNED_INT, nullptr);
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    lit_.set("u_flat", 0);
  }

  // Element lines lie on the cloth (which was pushed back) and are depth-tested like it. Arrows
  // are hidden by the solids in front of them but not by the cloth, into which half of them
  // point: the pane's depth is cleared and the solids' written again, depth only.
  upload_arrows(sim, view, eye);
  if (arrow_point_count_ > 0) {
    lines_.use();
    lines_.set("u_view_proj", view_proj);
    lines_.set("u_viewport_px", glm::vec2(float(vp.width), float(vp.height)));
    glBindVertexArray(arrow_vao_.id());
    lines_.set("u_line_width_px", kElementLineWidthPx * marker_scale_);
    glDrawArrays(GL_LINES, 0, element_point_count_);
    if (arrow_point_count_ > element_point_count_) {
      glEnable(GL_SCISSOR_TEST);
      glScissor(vp.x, vp.y, vp.width, vp.height);
      glClear(GL_DEPTH_BUFFER_BIT);
      glDisable(GL_SCISSOR_TEST);
      glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
      lit_.use();
      draw_solids(sim);
      glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
      lines_.use();
      glBindVertexArray(arrow_vao_.id());
      lines_.set("u_line_width_px", kArrowWidthPx * marker_scale_);
      glDrawArrays(GL_LINES, element_point_count_, arrow_point_count_ - element_point_count_);
    }
  }

  // Markers on top of everything: a pin hidden behind the cloth is still worth seeing.
  if (marker_count_ > 0) {
    glDisable(GL_DEPTH_TEST);
    points_.use();
    points_.set("u_view_proj", view_proj);
    points_.set("u_point_size", kMarkerSizePx * marker_scale_);
    glBindVertexArray(marker_vao_.id());
    glDrawArrays(GL_POINTS, 0, marker_count_);
    glEnable(GL_DEPTH_TEST);
  }
  glBindVertexArray(0);
}

void Renderer::draw_solids(const cloth::SimulationView& sim) {
  // At their real size (the contact offset is not drawn).
  lit_.set("u_front_color", kSphereColor);
  lit_.set("u_back_color", kSphereColor);
  lit_.set("u_shininess", 48.0f);
  lit_.set("u_specular", 0.35f);
  for (size_t k = 0; k < collider_meshes_.size(); ++k) {
    if (!collider_meshes_[k]) continue;
    const cloth::Vec3 offset = sim.collider_displacement(int(k));
    lit_.set("u_model", glm::translate(glm::mat4(1.0f), to_glm(offset)));
    glBindVertexArray(collider_meshes_[k]->vao.id());
    glDrawElements(GL_TRIANGLES, collider_meshes_[k]->index_count, GL_UNSIGNED_INT, nullptr);
  }
}

void draw_panes(const std::vector<std::unique_ptr<Renderer>>& renderers, const std::vector<Pane>& panes,
                const std::vector<PaneRect>& rects, const OrbitCamera& camera, int fb_w, int fb_h,
                const ViewOptions& view, bool replaying) {
  glViewport(0, 0, fb_w, fb_h);
  glClearColor(kPaneSeparator.r, kPaneSeparator.g, kPaneSeparator.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  for (size_t k = 0; k < panes.size(); ++k) {
    renderers[k]->draw(panes[k].view(replaying), camera, to_viewport(rects[k], fb_h), view);
  }
}

}  // namespace app
