#include "input/mouse_controller.hpp"

#include <cmath>

#include "collision/picking.hpp"
#include "render/gl.hpp"

namespace app {
namespace {

cloth::Vec3 to_cloth(const glm::dvec3& v) {
  return cloth::Vec3(v.x, v.y, v.z);
}
glm::dvec3 to_glm(const cloth::Vec3& v) {
  return glm::dvec3(v.x(), v.y(), v.z());
}

std::optional<cloth::PickHit> pick_ray(double x, double y, WindowExtent win,
                                       const OrbitCamera& camera, const cloth::Simulation& sim) {
  const Ray ray = camera.ray_through(x, y, win.width, win.height);
  return cloth::pick(sim.model().mesh, sim.state(), to_cloth(ray.origin), to_cloth(ray.direction));
}

/// The cloth under the cursor, forgiving by a few pixels: corners and edges (exactly what one
/// wants to grab) lie on the mesh boundary, where a ray through the exact pixel misses half the
/// time, and a cloth seen edge-on is only a pixel or two wide. Tries the exact ray first, then
/// rings of rays around it, and keeps the first ring's nearest hit.
std::optional<cloth::PickHit> pick_at(double x, double y, WindowExtent win,
                                      const OrbitCamera& camera, const cloth::Simulation& sim) {
  if (auto hit = pick_ray(x, y, win, camera, sim)) return hit;
  constexpr double kRadiiPx[] = {3.0, 6.0, 9.0};
  constexpr int kDirections = 12;
  for (double r : kRadiiPx) {
    std::optional<cloth::PickHit> best;
    for (int k = 0; k < kDirections; ++k) {
      const double a = 2.0 * 3.14159265358979 * k / kDirections;
      auto hit = pick_ray(x + r * std::cos(a), y + r * std::sin(a), win, camera, sim);
      if (hit && (!best || hit->distance < best->distance)) best = hit;
    }
    if (best) return best;
  }
  return std::nullopt;
}

}  // namespace

void MouseController::press(int button, int mods, double x, double y, WindowExtent win,
                            OrbitCamera& camera, cloth::Simulation& sim, bool touch_scene) {
  if (drag_ != Drag::None) return;  // one drag at a time; a second button is ignored
  last_x_ = x;
  last_y_ = y;
  const bool shift = (mods & GLFW_MOD_SHIFT) != 0;
  const bool ctrl = (mods & GLFW_MOD_CONTROL) != 0;
  if (button == GLFW_MOUSE_BUTTON_LEFT && !touch_scene) {
    drag_ = Drag::Orbit;
  } else if (button == GLFW_MOUSE_BUTTON_LEFT) {
    if (ctrl) {
      try_toggle_pin(x, y, win, camera, sim);
      return;
    }
    if (shift) {
      drag_ = try_grab_solid(x, y, win, camera, sim) ? Drag::Solid : Drag::Orbit;
      drag_button_ = button;
      return;
    }
    drag_ = try_grab(x, y, win, camera, sim) ? Drag::Grab : Drag::Orbit;
  } else if (button == GLFW_MOUSE_BUTTON_RIGHT) {
    drag_ = shift ? Drag::Pan : Drag::Orbit;
  } else if (button == GLFW_MOUSE_BUTTON_MIDDLE) {
    drag_ = Drag::Pan;
  } else {
    return;
  }
  drag_button_ = button;
}

bool MouseController::try_grab(double x, double y, WindowExtent win, const OrbitCamera& camera,
                               cloth::Simulation& sim) {
  const auto hit = pick_at(x, y, win, camera, sim);
  if (!hit || hit->vertex < 0) return false;
  plane_point_ = to_glm(hit->point);
  plane_normal_ = glm::dvec3(camera.forward());
  GrabRecord record;
  record.vertex = hit->vertex;
  record.start = to_glm(sim.state().x[size_t(hit->vertex)]);
  record.last_target = plane_point_;
  record.position = record.start;
  record.active = true;
  grab_log_.push_back(record);
  sim.mouse().grab(hit->vertex, hit->point);
  return true;
}

bool MouseController::try_grab_solid(double x, double y, WindowExtent win,
                                     const OrbitCamera& camera, const cloth::Simulation& sim) {
  const Ray ray = camera.ray_through(x, y, win.width, win.height);
  const auto hit = cloth::pick_collider(sim.colliders().all(), sim.time(), to_cloth(ray.origin),
                                        to_cloth(ray.direction));
  if (!hit) return false;
  solid_ = hit->collider;
  solid_start_offset_ = to_glm(sim.colliders()[size_t(solid_)].offset);
  plane_point_ = to_glm(hit->point);
  plane_normal_ = glm::dvec3(camera.forward());
  return true;
}

std::optional<glm::dvec3> MouseController::on_drag_plane(double x, double y, WindowExtent win,
                                                         const OrbitCamera& camera) const {
  const Ray ray = camera.ray_through(x, y, win.width, win.height);
  const double denom = glm::dot(ray.direction, plane_normal_);
  if (std::abs(denom) < 1e-6) return std::nullopt;
  const double t = glm::dot(plane_point_ - ray.origin, plane_normal_) / denom;
  if (t <= 0) return std::nullopt;
  return ray.origin + t * ray.direction;
}

void MouseController::try_toggle_pin(double x, double y, WindowExtent win,
                                     const OrbitCamera& camera, cloth::Simulation& sim) {
  if (const auto hit = pick_at(x, y, win, camera, sim); hit && hit->vertex >= 0)
    sim.set_pinned(hit->vertex, !sim.pins().is_pinned(hit->vertex));
}

void MouseController::release(int button, cloth::Simulation& sim) {
  if (drag_ == Drag::None || button != drag_button_) return;
  if (drag_ == Drag::Grab) {
    update(sim);  // freeze the logged position at the moment of release
    if (!grab_log_.empty()) grab_log_.back().active = false;
    sim.mouse().release();
  }
  drag_ = Drag::None;
  drag_button_ = -1;
}

void MouseController::move(double x, double y, WindowExtent win, OrbitCamera& camera,
                           cloth::Simulation& sim) {
  const double dx = x - last_x_, dy = y - last_y_;
  last_x_ = x;
  last_y_ = y;
  switch (drag_) {
    case Drag::None:
      return;
    case Drag::Orbit:
      // Dragging right swings the eye left around the target, like turning an object by hand.
      camera.orbit(float(-dx) * kOrbitDegPerPx, float(dy) * kOrbitDegPerPx);
      return;
    case Drag::Pan:
      camera.pan(float(dx), float(dy), float(win.height));
      return;
    case Drag::Grab: {
      // A ray (nearly) parallel to the drag plane, or meeting it behind the eye, leaves the
      // target where it was.
      const std::optional<glm::dvec3> target = on_drag_plane(x, y, win, camera);
      if (!target) return;
      sim.mouse().move(to_cloth(*target));
      if (!grab_log_.empty()) grab_log_.back().last_target = *target;
      return;
    }
    case Drag::Solid: {
      const std::optional<glm::dvec3> target = on_drag_plane(x, y, win, camera);
      if (target) sim.colliders().set_offset(solid_, to_cloth(solid_start_offset_ + (*target - plane_point_)));
      return;
    }
  }
}

void MouseController::scroll(double steps, OrbitCamera& camera) {
  camera.zoom(float(steps));
}

void MouseController::update(const cloth::Simulation& sim) {
  if (drag_ != Drag::Grab || grab_log_.empty()) return;
  GrabRecord& r = grab_log_.back();
  if (r.vertex >= 0 && r.vertex < sim.model().vertex_count())
    r.position = to_glm(sim.state().x[size_t(r.vertex)]);
}

void MouseController::cancel(cloth::Simulation& sim) {
  if (drag_ == Drag::Grab) {
    if (!grab_log_.empty()) grab_log_.back().active = false;
    sim.mouse().release();
  }
  drag_ = Drag::None;
  drag_button_ = -1;
}

}  // namespace app
