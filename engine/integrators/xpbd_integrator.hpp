#pragma once
// XPBD, extended position-based dynamics (M. Macklin, M. Müller, N. Chentanez, "XPBD:
// Position-Based Simulation of Compliant Constrained Dynamics", MIG 2016), in the "small steps"
// form of M. Macklin, K. Storey, M. Lu, P. Terdiman, N. Chentanez, S. Jeschke, M. Müller, "Small
// Steps in Physics Simulation", SCA 2019: many substeps, one Gauss-Seidel constraint pass each.
//
// Each substep of length h = dt / substeps:
//   v += h f_ext / m,  x_pred = x + h v      (gravity, velocity damping, drag and wind; explicit)
//   pins and a kinematic mouse grab placed kinematically (inverse mass 0)
//   lambda = 0; for every constraint j, in order (Gauss-Seidel; SolverSettings::xpbd_iterations passes):
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
#include <array>
#include <vector>

#include <Eigen/Core>

#include "integrators/integrator.hpp"
#include "kinematics/long_range_attachments.hpp"
#include "elements/springs.hpp"

namespace cloth {

class XpbdIntegrator final : public Integrator {
 public:
  StepReport step(ClothState& state, const ClothModel& model, const StepContext& ctx) override;

 private:
  /// One Gauss-Seidel pass over every constraint of the model and the mouse spring (when
  /// `spring` is not null), substep length h; the springs on up to `threads` threads.
  void project_constraints(ClothState& state, const ClothModel& model, const Grab* spring, double h,
                           int threads);
  /// spring_batches_ for substep h and the current inverse masses, and the springs' schedule
  /// (tiles, groups, batches) when their topology changed. `compare_springs`: whether the model's
  /// springs may differ from the prepared ones (false after the first substep of a step: the
  /// model is const for the whole step, and comparing them reads 2.4 MB twice at 100²).
  void prepare_springs(const ClothModel& model, double h, bool compare_springs);
  /// One pass over the springs in spring_tiles_'s order on padded_x_, on up to `threads` threads.
  void project_springs(int threads);
  /// x from padded_x_ (before the other constraints read it, and at the end of the passes).
  void unpad_positions(std::vector<Vec3>& x) const;

  /// Tile size: the up to 2 x 2048 vertices a tile touches (padded positions and previous
  /// positions, 256 KiB) stay in a core's L2 while it is swept.
  static constexpr int kTileVertices = 2048;

  /// Springs updated together: eight, two AVX registers per quantity (four and sixteen were
  /// slower in BM_Frame/xpbd-4x10).
  static constexpr int kLanes = 8;
  using Lanes = Eigen::Array<double, kLanes, 1>;
  /// kLanes spring constraints of one vertex-disjoint group in the form their update needs, one
  /// array per quantity, so that their arithmetic on scalars is done for all of them at once
  /// (project_springs). A group's last batch is filled up with lanes of its tile's spare spring,
  /// all zero but its ends, whose update is a finite zero.
  struct SpringBatch {
    std::array<int, kLanes> i, j;  ///< vertices
    Lanes rest;         ///< rest length, m
    Lanes alpha_tilde;  ///< compliance / h^2 = 1 / (k h^2), 1/kg
    Lanes gamma;        ///< alpha beta / h = k_d / (k h), dimensionless
    Lanes inv_a;        ///< 1 / ((1 + gamma)(w_i + w_j) + alpha~), kg; 0: skipped
    Lanes w_i, w_j;     ///< the ends' inverse masses, 1/kg
    Lanes lambda;       ///< the multipliers, reset every substep, kg m
  };

  /// The positions the spring passes update, (x, y, z, 0) per vertex in m, then two spare
  /// vertices per tile 1 m apart (its spare spring): one 32-byte load or store per end, so that
  /// an update's difference, dot products and corrections are single AVX operations (a Vec3
  /// takes two loads and a scalar tail each). The other constraints work on ClothState::x,
  /// synchronised around them (project_constraints).
  std::vector<Eigen::Vector4d> padded_x_;
  std::vector<Eigen::Vector4d> padded_prev_;  ///< x_prev_ in the same form
  /// Whether this substep's passes keep the positions in padded_x_ (the model has springs);
  /// without springs they stay in ClothState::x.
  bool padded_ = false;
  std::vector<Vec3> force_;        ///< external forces of the substep, N (scratch)
  std::vector<Vec3> x_prev_;       ///< positions at the start of the substep, m
  std::vector<double> inv_mass_;   ///< 1/kg; 0 for pinned and grabbed vertices
  std::vector<double> lambda_;     ///< Lagrange multiplier of each scalar constraint component
                                   ///< of the Baraff-Witkin elements (h^2 x its generalised
                                   ///< force), reset every substep
  std::vector<SpringBatch> spring_batches_;  ///< the model's springs, in pass order
  /// The model.springs index of each lane of spring_batches_; -1 - t for a filler lane of tile t.
  std::vector<int> lane_springs_;
  /// Group g of spring_tiles_ is spring_batches_[batch_start_[g] .. batch_start_[g + 1]).
  std::vector<int> batch_start_;
  SpringTiles spring_tiles_;                    ///< the order of model.springs in a pass
  /// What spring_batches_ were computed from: the springs (their i, j also the schedule's), the
  /// inverse masses and the substep, s.
  std::vector<Spring> prepared_springs_;
  std::vector<double> prepared_inv_mass_;
  double prepared_h_ = 0;
  Vec3 grab_lambda_ = Vec3::Zero();  ///< the mouse spring's three components, likewise
  LongRangeAttachments attachments_;  ///< solver.long_range_attachments (Kim et al. 2012)
};

}  // namespace cloth
