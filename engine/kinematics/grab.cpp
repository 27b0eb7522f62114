#include "kinematics/grab.hpp"

namespace cloth {

Vec3 grab_destination(const Grab& grab, const Vec3& from, double h) {
  Vec3 move = grab.target - from;
  const double max_move = grab.max_speed * h;
  if (move.norm() > max_move) move *= max_move / move.norm();
  return from + move;
}

}  // namespace cloth
