#pragma once
// Mouse interaction: left-press on the cloth grabs the vertex under the cursor and drags it in
// the plane through the grab point facing the camera; shift+left-press on a solid drags the solid
// the same way; left-drag on empty space or right-drag orbits; middle-drag or shift+right-drag
// pans; the wheel zooms; ctrl+left-click toggles a pin.
// Coordinates are window coordinates (px, origin top-left), as GLFW reports the cursor.
#include <glm/glm.hpp>
#include <optional>
#include <vector>

#include "render/camera.hpp"
#include "simulation/simulation.hpp"

namespace app {

/// One grab made with the mouse, kept for the --stats "grab_log" (the end-to-end test reads it).
struct GrabRecord {
  int vertex = -1;
  glm::dvec3 start{0.0};        ///< vertex position when grabbed, m
  glm::dvec3 last_target{0.0};  ///< last target the mouse set, m
  glm::dvec3 position{0.0};     ///< vertex position while held; frozen at release, m
  bool active = false;          ///< still held
};

struct WindowExtent {
  int width = 1;  ///< window size in window coordinates (not framebuffer pixels)
  int height = 1;
};

class MouseController {
 public:
  static constexpr float kOrbitDegPerPx = 0.3f;

  /// `touch_scene` false (a replay shows the past): no grab, pin or solid drag, only the camera.
  void press(int button, int mods, double x, double y, WindowExtent win, OrbitCamera& camera,
             cloth::Simulation& sim, bool touch_scene);
  void release(int button, cloth::Simulation& sim);
  void move(double x, double y, WindowExtent win, OrbitCamera& camera, cloth::Simulation& sim);
  void scroll(double steps, OrbitCamera& camera);

  /// Once per displayed frame: records where the held vertex is now.
  void update(const cloth::Simulation& sim);
  /// Drops any drag (e.g. on reset) and releases the grab in the simulation.
  void cancel(cloth::Simulation& sim);

  bool dragging() const { return drag_ != Drag::None; }
  const std::vector<GrabRecord>& grab_log() const { return grab_log_; }

 private:
  enum class Drag { None, Orbit, Pan, Grab, Solid };

  bool try_grab(double x, double y, WindowExtent win, const OrbitCamera& camera,
                cloth::Simulation& sim);
  void try_toggle_pin(double x, double y, WindowExtent win, const OrbitCamera& camera,
                      cloth::Simulation& sim);
  bool try_grab_solid(double x, double y, WindowExtent win, const OrbitCamera& camera,
                      const cloth::Simulation& sim);
  /// Where the cursor ray meets the drag plane, if in front of the eye and not parallel.
  std::optional<glm::dvec3> on_drag_plane(double x, double y, WindowExtent win,
                                          const OrbitCamera& camera) const;

  Drag drag_ = Drag::None;
  int drag_button_ = -1;
  double last_x_ = 0, last_y_ = 0;
  glm::dvec3 plane_point_{0.0};   ///< the drag plane passes through the grab point...
  glm::dvec3 plane_normal_{0.0};  ///< ...and faces the camera (its view direction)
  std::vector<GrabRecord> grab_log_;
  int solid_ = -1;                ///< the solid being dragged
  glm::dvec3 solid_start_offset_{0.0};
};

}  // namespace app
