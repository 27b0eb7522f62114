#include "render/camera.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace app {

void OrbitCamera::set(const glm::vec3& target, float distance, float yaw_deg, float pitch_deg) {
  target_ = target;
  distance_ = std::clamp(distance, 0.05f, 200.0f);
  yaw_deg_ = yaw_deg;
  pitch_deg_ = std::clamp(pitch_deg, -89.0f, 89.0f);
}

void OrbitCamera::orbit(float dyaw_deg, float dpitch_deg) {
  yaw_deg_ = std::fmod(yaw_deg_ + dyaw_deg, 360.0f);
  pitch_deg_ = std::clamp(pitch_deg_ + dpitch_deg, -89.0f, 89.0f);
}

void OrbitCamera::pan(float dx_px, float dy_px, float window_height) {
  // Size of one pixel at the target's depth, m/px.
  const float m_per_px =
      2.0f * distance_ * std::tan(glm::radians(kFovYDeg) * 0.5f) / std::max(window_height, 1.0f);
  const glm::vec3 f = forward();
  const glm::vec3 right = glm::normalize(glm::cross(f, glm::vec3(0, 1, 0)));
  const glm::vec3 up = glm::cross(right, f);
  target_ += (-dx_px * right + dy_px * up) * m_per_px;
}

void OrbitCamera::look_from(CameraPreset preset) {
  switch (preset) {
    case CameraPreset::Front: set(target_, distance_, 0.0f, 10.0f); break;
    case CameraPreset::Side: set(target_, distance_, 90.0f, 10.0f); break;
    case CameraPreset::Top: set(target_, distance_, 0.0f, 89.0f); break;
  }
}

void OrbitCamera::zoom(float steps) {
  distance_ = std::clamp(distance_ * std::pow(0.9f, steps), 0.05f, 200.0f);
}

glm::vec3 OrbitCamera::eye() const {
  const float yaw = glm::radians(yaw_deg_);
  const float pitch = glm::radians(pitch_deg_);
  // yaw 0 looks from +z towards -z; positive yaw swings the eye towards +x.
  const glm::vec3 offset(std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                         std::cos(pitch) * std::cos(yaw));
  return target_ + distance_ * offset;
}

glm::vec3 OrbitCamera::forward() const {
  return glm::normalize(target_ - eye());
}

glm::mat4 OrbitCamera::view() const {
  return glm::lookAt(eye(), target_, glm::vec3(0, 1, 0));
}

float OrbitCamera::fov_y_deg(float aspect) {
  const float a = std::max(aspect, 1e-3f);
  const float needed = 2.0f * glm::degrees(std::atan(std::tan(glm::radians(kMinFovXDeg) * 0.5f) / a));
  return std::clamp(needed, kFovYDeg, 150.0f);
}

glm::mat4 OrbitCamera::projection(float aspect) const {
  return glm::perspective(glm::radians(fov_y_deg(aspect)), std::max(aspect, 1e-3f), kNear, kFar);
}

Ray OrbitCamera::ray_through(double x, double y, int w, int h) const {
  // Window -> normalised device coordinates (y flips: window y grows downwards).
  const double ndc_x = 2.0 * x / std::max(w, 1) - 1.0;
  const double ndc_y = 1.0 - 2.0 * y / std::max(h, 1);
  const glm::dmat4 inv =
      glm::inverse(glm::dmat4(projection(float(w) / float(std::max(h, 1))) * view()));
  glm::dvec4 near_p = inv * glm::dvec4(ndc_x, ndc_y, -1.0, 1.0);
  glm::dvec4 far_p = inv * glm::dvec4(ndc_x, ndc_y, 1.0, 1.0);
  near_p /= near_p.w;
  far_p /= far_p.w;
  Ray ray;
  ray.origin = glm::dvec3(eye());
  ray.direction = glm::normalize(glm::dvec3(far_p) - glm::dvec3(near_p));
  return ray;
}

std::optional<glm::dvec2> OrbitCamera::project(const glm::dvec3& p, int w, int h) const {
  const glm::dmat4 vp = glm::dmat4(projection(float(w) / float(std::max(h, 1))) * view());
  const glm::dvec4 clip = vp * glm::dvec4(p, 1.0);
  if (clip.w <= 1e-9) return std::nullopt;
  const glm::dvec3 ndc = glm::dvec3(clip) / clip.w;
  return glm::dvec2((ndc.x * 0.5 + 0.5) * w, (0.5 - ndc.y * 0.5) * h);
}

}  // namespace app
