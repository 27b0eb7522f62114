#include "contact_marks.hpp"

#include "collision/collider.hpp"

namespace app {

std::vector<int> touching_vertices(const cloth::Simulation& sim) {
  std::vector<int> out;
  const auto& x = sim.state().x;
  cloth::Vec3 normal;  // signed_distance always writes it
  for (int i = 0; i < int(x.size()); ++i) {
    for (const cloth::Collider& c : sim.colliders()) {
      if (cloth::signed_distance(c, x[size_t(i)], &normal, sim.time()) < c.thickness + kContactSlack) {
        out.push_back(i);
        break;
      }
    }
  }
  return out;
}

}  // namespace app
