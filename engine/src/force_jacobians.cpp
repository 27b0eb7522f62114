#include "cloth/force_jacobians.hpp"

#include "cloth/aerodynamics.hpp"
#include "cloth/bw_conditions.hpp"
#include "cloth/internal_forces.hpp"

namespace cloth {

std::vector<std::pair<int, int>> coupled_pairs(const ClothModel& model) {
  std::vector<std::pair<int, int>> pairs;
  append_internal_pairs(model, pairs);
  // Triangle edges couple through drag/wind and Baraff-Witkin stretch/shear.
  for (const auto& t : model.mesh.triangles) {
    pairs.emplace_back(t[0], t[1]);
    pairs.emplace_back(t[1], t[2]);
    pairs.emplace_back(t[2], t[0]);
  }
  return pairs;
}

void compute_force_jacobians(const ClothModel& model, const ClothState& state,
                             const ExternalForces& ext, double t, bool definite,
                             std::vector<Vec3>& f, BlockSparseMatrix& dfdx, BlockSparseMatrix& dfdv) {
  compute_forces(model, state, ext, t, f);
  dfdx.set_zero();
  dfdv.set_zero();
  add_internal_jacobians(model, state, definite, dfdx, dfdv);
  std::vector<double> damping(model.mass.size());
  for (size_t i = 0; i < damping.size(); ++i) damping[i] = -model.mass[i] * model.material.velocity_damping;
  dfdv.add_diagonal(damping);
  if (ext.drag > 0) {
    for (const auto& tri : model.mesh.triangles) {
      const std::array<Vec3, 3> x{state.x[tri[0]], state.x[tri[1]], state.x[tri[2]]};
      const std::array<Vec3, 3> v{state.v[tri[0]], state.v[tri[1]], state.v[tri[2]]};
      Eigen::Matrix3d air_jacobian;
      const Vec3 air = ext.wind.velocity((x[0] + x[1] + x[2]) / 3.0, t, &air_jacobian);
      const AeroTriangle a = aero_triangle(x, v, ext.drag, air, air_jacobian);
      // Block (i, k) is a.dfdx[k] for every i; keep its symmetric part over the 3 x 3 stencil.
      Eigen::Matrix<double, 9, 9> sym;
      for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) sym.block<3, 3>(3 * i, 3 * k) = 0.5 * (a.dfdx[k] + a.dfdx[i].transpose());
      }
      // The turning of the triangle's normal in the wind can make that part positive (a force
      // growing with the displacement); in the implicit matrix A = M - h df/dv - h^2 df/dx such
      // directions make A indefinite and CG diverge (a curtain in wind blew up in two frames). As
      // for the elastic Hessians, the implicit step keeps only its negative semidefinite part.
      if (definite) sym = -project_psd<9>(-sym);
      for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) {
          dfdx.add(tri[i], tri[k], sym.block<3, 3>(3 * i, 3 * k));
          dfdv.add(tri[i], tri[k], a.dfdv);
        }
      }
    }
  }
}

}  // namespace cloth
