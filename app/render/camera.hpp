#pragma once
// Orbit camera around a target point (yaw about +y, pitch above the horizon), plus the screen
// <-> world mappings that picking and the test hooks need. Window coordinates everywhere have
// their origin at the top-left, like GLFW cursor positions and X / xdotool.
#include <glm/glm.hpp>
#include <optional>

namespace app {

struct Ray {
  glm::dvec3 origin{0.0};     ///< m
  glm::dvec3 direction{0.0};  ///< unit
};

/// The View panel's fixed directions: along -z (front), along -x (side), straight down (top).
enum class CameraPreset { Front, Side, Top };

class OrbitCamera {
 public:
  static constexpr float kFovYDeg = 45.0f;  ///< vertical field of view, degrees
  /// Narrowest horizontal field of view, degrees: a tall, narrow pane (side by side, next to
  /// the docked panel) widens its vertical one instead of cropping the cloth's sides.
  static constexpr float kMinFovXDeg = 50.0f;

  /// Vertical field of view for a viewport of width / height `aspect`, degrees.
  static float fov_y_deg(float aspect);
  static constexpr float kNear = 0.01f;     ///< m
  static constexpr float kFar = 500.0f;     ///< m

  void set(const glm::vec3& target, float distance, float yaw_deg, float pitch_deg);

  /// Rotates by the given angles (degrees); pitch stays inside +-89 deg so the view never flips.
  void orbit(float dyaw_deg, float dpitch_deg);
  /// Moves the target in the view plane so the scene follows a cursor moved by (dx, dy) px in a
  /// window `window_height` px tall.
  void pan(float dx_px, float dy_px, float window_height);
  /// Looks at the same target from the same distance in the preset's direction.
  void look_from(CameraPreset preset);
  /// Scroll zoom: each step scales the distance by 0.9 (in) or 1/0.9 (out).
  void zoom(float steps);

  glm::vec3 target() const { return target_; }
  float distance() const { return distance_; }
  float yaw_deg() const { return yaw_deg_; }
  float pitch_deg() const { return pitch_deg_; }
  glm::vec3 eye() const;
  glm::vec3 forward() const;  ///< unit, from the eye towards the target
  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;

  /// The ray from the eye through window point (x, y) of a w x h window (px, top-left origin).
  Ray ray_through(double x, double y, int w, int h) const;
  /// Window point (px, top-left origin) of world point p in a w x h window; nullopt if p is
  /// behind the camera.
  std::optional<glm::dvec2> project(const glm::dvec3& p, int w, int h) const;

 private:
  glm::vec3 target_{0.0f, 0.6f, 0.0f};
  float distance_ = 2.6f;
  float yaw_deg_ = 30.0f;
  float pitch_deg_ = 25.0f;
};

}  // namespace app
