#include "cloth/force_jacobians.hpp"

#include "cloth/forces.hpp"

namespace cloth {

std::vector<std::pair<int, int>> coupled_pairs(const ClothModel& model) {
  std::vector<std::pair<int, int>> pairs;
  pairs.reserve(model.springs.size());
  for (const Spring& s : model.springs) pairs.emplace_back(s.i, s.j);
  return pairs;
}

void compute_force_jacobians(const ClothModel& model, const ClothState& state, const Vec3& gravity,
                             bool clamp_compression, std::vector<Vec3>& f, BlockSparseMatrix& dfdx,
                             BlockSparseMatrix& dfdv) {
  compute_forces(model, state, gravity, f);
  dfdx.set_zero();
  dfdv.set_zero();
  for (const Spring& s : model.springs) {
    const SpringJacobian j = spring_jacobian(s, state.x[s.i], state.x[s.j], clamp_compression);
    // Two-vertex stencil: blocks (i,i), (j,j) = J and (i,j), (j,i) = -J.
    dfdx.add(s.i, s.i, j.dfdx);
    dfdx.add(s.j, s.j, j.dfdx);
    dfdx.add(s.i, s.j, -j.dfdx);
    dfdx.add(s.j, s.i, -j.dfdx);
    dfdv.add(s.i, s.i, j.dfdv);
    dfdv.add(s.j, s.j, j.dfdv);
    dfdv.add(s.i, s.j, -j.dfdv);
    dfdv.add(s.j, s.i, -j.dfdv);
  }
  std::vector<double> damping(model.mass.size());
  for (size_t i = 0; i < damping.size(); ++i) damping[i] = -model.mass[i] * model.material.velocity_damping;
  dfdv.add_diagonal(damping);
}

}  // namespace cloth
