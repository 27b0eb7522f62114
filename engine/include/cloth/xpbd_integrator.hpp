#pragma once
// XPBD, extended position-based dynamics (M. Macklin, M. Müller, N. Chentanez, "XPBD:
// Position-Based Simulation of Compliant Constrained Dynamics", MIG 2016), in the "small steps"
// form of M. Macklin, K. Storey, M. Lu, P. Terdiman, N. Chentanez, S. Jeschke, M. Müller, "Small
// Steps in Physics Simulation", SCA 2019: many substeps, one Gauss-Seidel constraint pass each.
//
// Each substep of length h = dt / substeps:
//   v += h f_ext / m,  x_pred = x + h v      (gravity, velocity damping, drag and wind; explicit)
//   pins and a kinematic mouse grab placed kinematically (inverse mass 0)
//   lambda = 0; for every constraint j, in order (Gauss-Seidel; StepContext::xpbd_iterations passes):
//     dlambda = (-C - alpha~ lambda - gamma grad C . (x - x_n)) / ((1 + gamma) grad C W grad C^T + alpha~)
//     x += W grad C^T dlambda,  lambda += dlambda          (2016 eqs. 18 and 26; W = M^-1)
//     alpha~ = alpha / h^2,  gamma = alpha beta / h
//   v = (x - x_n) / h, then contacts as in the explicit integrators (resolve_contacts).
//
// The constraints are the model's own energies E = k/2 C^T C, so XPBD (alpha = 1/k) and the force
// based integrators have the same equilibrium (2016 sec. 3: XPBD's alpha^-1 is the stiffness):
//   springs:       C = |x_i - x_j| - rest, alpha = 1/k (N/m), beta = k_d;
//   Baraff-Witkin: the conditions of bw_conditions.hpp with the element constants the kernels use
//                  (stretch, shear: k / a with a the rest area; bend: weight * scale * B), so
//                  alpha = a / k resp. 1 / (weight scale B), and beta = the matching damping
//                  constant (B&W eq. 11's d = -k_d dC/dx C_dot is the Rayleigh damping of 2016
//                  sec. 3.5 with beta = k_d). The stretch condition's two components are
//                  projected together (a 2 x 2 solve).
// The spring mouse grab f = k (target - x) - c v is the constraint C = x - target of the grabbed
// vertex, alpha = 1/k, beta = c, projected last in each pass.
// A constraint (component) that cannot move any free vertex (zero-length spring, zero weighted
// gradient) or has zero stiffness is skipped for that pass: no NaN, no division by zero.
#include <vector>

#include "cloth/integrator.hpp"
#include "cloth/springs.hpp"

namespace cloth {

class XpbdIntegrator final : public Integrator {
 public:
  const char* name() const override { return "xpbd"; }
  StepReport step(ClothState& state, const ClothModel& model, const StepContext& ctx) override;

 private:
  /// One Gauss-Seidel pass over every constraint of the model and the mouse spring (when
  /// `spring` is not null), substep length h; the springs on up to `threads` threads.
  void project_constraints(ClothState& state, const ClothModel& model, const Grab* spring, double h,
                           int threads);
  /// spring_rows_ for substep h and the current inverse masses, and the springs' schedule when
  /// their topology changed.
  void prepare_springs(const ClothModel& model, double h);
  /// One pass over the springs in spring_tiles_'s order, on up to `threads` threads.
  void project_springs(std::vector<Vec3>& x, int threads);

  /// Tile size: the up to 2 x 2048 vertices a tile touches (positions, previous positions and
  /// inverse masses: 224 KiB) stay in a core's L2 while it is swept.
  static constexpr int kTileVertices = 2048;

  /// A spring constraint in the form its update needs, in pass order (40 bytes: on fine grids
  /// the passes are bound by the bandwidth of streaming these rows).
  struct SpringRow {
    int i, j;            ///< vertices
    double rest;         ///< rest length, m
    double alpha_tilde;  ///< compliance / h^2 = 1 / (k h^2), 1/kg
    double gamma;        ///< alpha beta / h = k_d / (k h), dimensionless
    double inv_a;        ///< 1 / ((1 + gamma)(w_i + w_j) + alpha~), kg; 0: the row is skipped
  };

  std::vector<Vec3> force_;        ///< external forces of the substep, N (scratch)
  std::vector<Vec3> x_prev_;       ///< positions at the start of the substep, m
  std::vector<double> inv_mass_;   ///< 1/kg; 0 for pinned and grabbed vertices
  std::vector<double> lambda_;     ///< Lagrange multiplier of each scalar constraint component
                                   ///< of the Baraff-Witkin elements (h^2 x its generalised
                                   ///< force), reset every substep
  std::vector<SpringRow> spring_rows_;          ///< the model's springs, in pass order
  std::vector<double> spring_lambda_;           ///< their multipliers, likewise
  SpringTiles spring_tiles_;                    ///< the order of model.springs in a pass
  std::vector<int> spring_ends_;                ///< i, j of each spring the groups were built for
  Vec3 grab_lambda_ = Vec3::Zero();  ///< the mouse spring's three components, likewise
};

}  // namespace cloth
