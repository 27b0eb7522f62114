#include "kinematics/grab.hpp"

#include <string>

#include "core/error.hpp"

namespace cloth {

Vec3 grab_destination(const Grab& grab, const Vec3& from, double h) {
  Vec3 move = grab.target - from;
  const double max_move = grab.max_speed * h;
  if (move.norm() > max_move) move *= max_move / move.norm();
  return from + move;
}

void MouseGrab::set_vertex_count(int count) {
  vertex_count_ = count;
  if (grab_ && grab_->vertex >= count) grab_.reset();
}

void MouseGrab::grab(int vertex, const Vec3& target) {
  if (vertex < 0 || vertex >= vertex_count_ || !target.allFinite()) return;
  grab_ = Grab{.vertex = vertex, .target = target, .settings = settings_};
}

void MouseGrab::move(const Vec3& target) {
  if (grab_ && target.allFinite()) grab_->target = target;
}

void MouseGrab::set_settings(const GrabSettings& settings) {
  if (!(settings.stiffness > 0 && settings.stiffness <= 1e6)) {
    throw InputError("grab stiffness must be in (0, 1e6] N/m, got " + std::to_string(settings.stiffness));
  }
  if (!(settings.damping >= 0 && settings.damping <= 1e3)) {
    throw InputError("grab damping must be in [0, 1000] N*s/m, got " + std::to_string(settings.damping));
  }
  settings_ = settings;
  if (grab_) grab_->settings = settings;
}

}  // namespace cloth
