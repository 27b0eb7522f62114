#pragma once
// Projective dynamics: implicit (backward) Euler as the minimisation of
//
//   Phi(x) = 1/(2 h^2) |x - y|_M^2 + sum_s k_s/2 (|x_i - x_j| - L_s)^2
//            + sum_s kd_s/(2 h) |(x_i - x_j) - (x0_i - x0_j)|^2,      y = x0 + h v0 + h^2 M^-1 f_ext
//
// (Liu, Bargteil, O'Brien & Kavan 2013, "Fast Simulation of Mass-Spring Systems", eq. 5-6;
// Bouaziz, Martin, Liu, Kavan & Pauly 2014, "Projective Dynamics", eq. 4-10), solved by
// local-global iterations:
//   local:  p_s = L_s (x_i - x_j) / |x_i - x_j|                   (projective_constraints.hpp)
//   global: (M/h^2 + sum_s (k_s + kd_s/h) A_s^T A_s) x = M y / h^2 + sum_s k_s A_s^T p_s
//                                                       + sum_s kd_s/h A_s^T A_s x0
// with A_s x = x_i - x_j. The global matrix is one scalar n_free x n_free matrix shared by x, y
// and z; it depends on h, the masses, the springs' constants and which vertices are fixed, not on
// x, so it is factored (Eigen's SimplicialLDLT) only when one of those changed (`factorizations`).
// Each iteration does not increase Phi (both steps minimise it over their own variables); the
// fixed point is the backward Euler step's position, the minimiser of Phi. The first iterate is
// x0 + h v0 (not y): then a static equilibrium is a fixed point of any number of iterations.
//
// Chebyshev semi-iterative acceleration (Wang 2015, "A Chebyshev Semi-Iterative Approach for
// Accelerating Projective and Position-based Dynamics", eq. 12), gamma = 1:
//   x^{k+1} = omega_{k+1} (xhat^{k+1} - x^{k-1}) + x^{k-1},
//   omega_k = 1 for k <= S = 2, omega_{S+1} = 2 / (2 - rho^2), omega_{k+1} = 4 / (4 - rho^2 omega_k),
// with xhat^{k+1} the local-global iterate from x^k and rho (SolverSettings::chebyshev_rho) the
// estimated spectral radius of the iteration; rho = 0 is plain local-global.
//
// What the integrator takes, and how:
// - the springs model only (Simulation::check_supported refuses the others); its bending by the
//   classic bend springs (k = B / h^2) whatever bend_element says, since the shape-operator bend
//   has no projection (its energy couples a triangle's three hinge angles);
// - gravity, the velocity damping -m c v, drag and wind: explicit, at (x0, v0), inside y;
// - the springs' damping kd: the quadratic dissipation kd/(2h) |A_s (x - x0)|^2 above, i.e. the
//   force -kd (v_i - v_j) on the whole relative velocity (the force-based integrators damp only
//   its component along the spring), so the matrix stays constant;
// - pins, moving pins and a kinematic grab: Dirichlet vertices, placed first by
//   enforce_pins_and_grab and eliminated from the system, so they end exactly there;
// - the spring grab: the quadratic k/2 |x_g - target|^2 + c/(2h) |x_g - x0_g|^2 (its force
//   k (target - x) - c v taken implicitly);
// - slides: projected after the solve (project_slides), as XPBD does;
// - solids and self-collision: the collision stage after the solve (end_substep).
#include <array>
#include <cstdint>
#include <vector>

#include <Eigen/Core>
#include <Eigen/SparseCholesky>

#include "elements/springs.hpp"
#include "integrators/integrator.hpp"
#include "integrators/projective_constraints.hpp"

namespace cloth {

class ProjectiveIntegrator final : public Integrator {
 public:
  StepReport step(ClothState& state, const ClothModel& model, const StepContext& ctx) override;

  /// Times the global matrix was factored since construction (tests: once per change of h,
  /// stiffness, masses, springs or fixed vertices, never per step).
  int factorizations() const { return factorizations_; }
  /// The global matrix last factored, on the free vertices (benchmarks compare factorisations).
  const Eigen::SparseMatrix<double>& matrix() const { return matrix_; }
  /// Phi at x for the last substep's problem (its y, x0, h, fixed vertices and grab), J.
  double objective(const std::vector<Vec3>& x) const;
  /// Whether each substep records Phi after every iteration (objective_history), for tests.
  void record_objective(bool on) { record_objective_ = on; }
  /// Phi at the start and after each iteration of the last substep (when recorded), J.
  const std::vector<double>& objective_history() const { return objective_history_; }

 private:
  /// The matrix's inputs of one step; the factor is rebuilt when they differ from the last.
  struct Key {
    double h = 0;
    std::vector<double> mass;
    std::vector<DistanceConstraint> springs;
    std::vector<std::uint8_t> fixed;
    int grab_vertex = -1;        ///< spring grab's vertex, -1 = none
    double grab_k = 0, grab_c = 0;
    bool operator==(const Key&) const;
  };
  /// key_ for this step; refactors when it changed.
  void prepare(const ClothModel& model, const StepContext& ctx, double h);
  /// The springs model's bend springs when it bends by the shape operator (which has no
  /// projection: its energy couples a triangle's three hinges), rebuilt when the mesh changes.
  const std::vector<Spring>& classic_bend_springs(const ClothModel& model);
  /// One local-global iteration from x_ into next_ (free rows; fixed ones copied).
  void local_global(const std::vector<Vec3>& x, std::vector<Vec3>& next);

  Key key_, next_key_;
  std::vector<Spring> bend_springs_;
  std::vector<std::array<int, 3>> bend_springs_triangles_;  ///< the mesh bend_springs_ were built on
  std::vector<int> row_;  ///< vertex -> row of the global matrix, -1 for a fixed vertex
  Eigen::SparseMatrix<double> matrix_;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> factor_;
  int factorizations_ = 0;
  Vec3 grab_target_ = Vec3::Zero();  ///< the spring grab's target this step, m
  std::vector<Vec3> force_, x0_, y_, previous_, next_;
  Eigen::MatrixX3d rhs_, solution_;
  bool record_objective_ = false;
  std::vector<double> objective_history_;
};

}  // namespace cloth
