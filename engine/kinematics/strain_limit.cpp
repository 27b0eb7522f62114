#include "kinematics/strain_limit.hpp"

namespace cloth {

namespace {

int one_pass(ClothState& state, const ClothModel& model, const std::vector<std::uint8_t>& pinned,
             double max_strain, double h) {
  int limited = 0;
  for (const Edge& e : model.edges) {
    const bool pin_i = pinned[e.i] != 0, pin_j = pinned[e.j] != 0;
    if (pin_i && pin_j) continue;
    const Vec3 d = state.x[e.j] - state.x[e.i];
    const double len = d.norm();
    const double limit = (1.0 + max_strain) * e.rest;
    if (len <= limit) continue;
    // Excess length, moved onto the free end(s): both halves, or all on the one free end.
    const Vec3 excess = (len - limit) / len * d;
    const double share_i = pin_i ? 0.0 : (pin_j ? 1.0 : 0.5);
    const Vec3 move_i = share_i * excess, move_j = -(1.0 - share_i) * excess;
    state.x[e.i] += move_i;
    state.x[e.j] += move_j;
    state.v[e.i] += move_i / h;
    state.v[e.j] += move_j / h;
    ++limited;
  }
  return limited;
}

}  // namespace

int limit_strain(ClothState& state, const ClothModel& model, const std::vector<std::uint8_t>& pinned,
                 double max_strain, double h, int max_passes) {
  int total = 0;
  for (int pass = 0; pass < max_passes; ++pass) {
    const int fixed = one_pass(state, model, pinned, max_strain, h);
    total += fixed;
    if (fixed == 0) break;
  }
  return total;
}

}  // namespace cloth
