#pragma once
// Hooke springs of the Verlet report (seed 002, section 4): structural, shear and bend springs,
// with damping along the spring axis. A stateless kernel over a flat element array.
#include <vector>

#include "cloth/material.hpp"
#include "cloth/mesh.hpp"

namespace cloth {

enum class SpringType { Structural, Shear, Bend };
inline constexpr int kSpringTypeCount = 3;

struct Spring {
  int i = 0, j = 0;   ///< vertex indices
  double rest = 0;    ///< rest length, m
  double k = 0;       ///< stiffness, N/m
  double kd = 0;      ///< damping along the axis, N*s/m
  SpringType type = SpringType::Structural;
};

/// Spring topology. On a grid (seed 002 section 3): structural springs between 4-neighbours,
/// shear springs on both diagonals of each cell, bend springs between vertices two apart along
/// each axis; counts are 2hw-h-w, 2(w-1)(h-1) and 2(hw-h-w) for a w x h grid. On a general
/// triangle mesh: every edge is structural and each interior edge gets a bend spring between the
/// two vertices opposite it; there are no separate shear springs. Stiffness is left at zero:
/// call apply_spring_material.
std::vector<Spring> build_springs(const RestMesh& mesh);

/// Sets k and kd of every spring from the material (see material.hpp for the mapping).
void apply_spring_material(std::vector<Spring>& springs, const SpringMaterial& material);

/// Force on vertex i (the force on j is its negative). Hooke's law F = -k e along the spring
/// (seed 002 eq. F_spring = -k e) plus damping -kd ((v_i - v_j) . d) d with d the unit axis.
/// Force = minus the gradient of spring_energy with respect to x_i (for the elastic part).
Vec3 spring_force_on_i(const Spring& s, const Vec3& xi, const Vec3& xj, const Vec3& vi,
                       const Vec3& vj);

/// Elastic energy k/2 (|x_i - x_j| - rest)^2, J.
double spring_energy(const Spring& s, const Vec3& xi, const Vec3& xj);

/// Force derivatives of one spring. Both are the (i, i) block; by symmetry of the stencil the
/// (j, j) block is the same and the (i, j), (j, i) blocks are their negatives.
struct SpringJacobian {
  Eigen::Matrix3d dfdx;  ///< ∂f_i/∂x_i of the elastic force, N/m (symmetric)
  Eigen::Matrix3d dfdv;  ///< ∂f_i/∂v_i of the damping force, N*s/m (symmetric, negative semidefinite)
};

/// dfdx = -k [d d^T + (1 - rest/l)(I - d d^T)], dfdv = -kd d d^T, with d the unit axis, l the length.
/// With `clamp_compression` the transverse term (1 - rest/l), negative when the spring is
/// compressed, is clamped at 0: the matrix is then negative semidefinite, which keeps the implicit
/// system positive definite (the usual fix, cf. Choi & Ko 2002). The damping force's dependence on
/// x is dropped, as Baraff-Witkin advise for damping terms (seed 001 section 4.5).
SpringJacobian spring_jacobian(const Spring& s, const Vec3& xi, const Vec3& xj, bool clamp_compression);

}  // namespace cloth
