#pragma once
// Baraff-Witkin implicit integration (Baraff & Witkin 1998): backward Euler linearised once (one
// Newton step, eq. 6), solved in its symmetric form eq. 15/16 with the modified PCG of section 5.3;
// pins, the kinematic mouse grab and solid contacts are velocity constraints (S_i, z_i of section
// 5.1), and contacts are also pushed out by position alteration y (eq. 17-18); the spring mouse
// grab is a force with its Jacobians. Optionally more Newton iterations make the step fully
// implicit (SolverSettings::newton_iterations).
#include <array>
#include <cstdint>
#include <vector>

#include "linalg/block_sparse.hpp"
#include "forces/force_jacobians.hpp"
#include "linalg/constrained_solve.hpp"
#include "integrators/integrator.hpp"
#include "linalg/pcg_workspace.hpp"

namespace cloth {

class ImplicitEulerIntegrator final : public Integrator {
 public:
  StepReport step(ClothState& state, const ClothModel& model, const StepContext& ctx) override;
  /// The solver's state after the last step (tests: what IC(0) factored).
  const PcgWorkspace& pcg_workspace() const { return pcg_; }

 private:
  /// Builds the constraints of one substep and the position alteration y.
  void gather_constraints(const ClothState& state, const StepContext& ctx, double t, double h);
  /// f_ and A = M - h ∂f/∂v - h² ∂f/∂x (eq. 16, into A_) at time t: the model and external forces
  /// (PSD-projected), and the mouse spring when the grab is one. With `d`, also dfdx_d_ = ∂f/∂x d
  /// (the assembled ∂f/∂x, without dfdx_correction_).
  void assemble_system(const ClothState& state, const ClothModel& model, const StepContext& ctx, double t,
                       double h, const std::vector<Vec3>* d);
  /// B&W section 5: the constraint impulse of each contact is the residual e = A dv - b of the
  /// (first) solve; stored in contacts_.
  void measure_contact_impulses(int threads);
  /// From those impulses: a stuck vertex is released to slide when the tangential part exceeds
  /// mu_s times the normal part; a sliding one loses mu_k times the normal part of its slip
  /// speed and sticks once that stops it; a contact that pulls (negative normal impulse) is
  /// released. Sets each contact's state for the next substep.
  void apply_contact_friction(ClothState& state, const ClothModel& model, double h);
  /// dv_ = A_^-1 b_ under `constraints`, by the modified PCG or the direct reference solve.
  void solve_system(const VertexConstraints& constraints, const ClothState& state, const StepContext& ctx,
                    StepReport& report);
  /// One more Newton iteration of the backward Euler equation from the current iterate.
  void newton_correction(ClothState& state, const ClothModel& model, const StepContext& ctx,
                         double t_end, double h, StepReport& report);

  /// Rebuilds A's pattern and the element slots when the model's coupled pairs differ from those
  /// A was built for (a new topology); otherwise nothing is allocated. Tells IC(0) which blocks
  /// to leave out (the weak bend springs' at step h, s) when the pattern or those springs changed.
  void update_pattern(const ClothModel& model, double h);

  std::vector<std::pair<int, int>> pattern_pairs_;  ///< the pairs A's pattern was built from
  /// A of eq. 16, values in place; ∂f/∂x and ∂f/∂v are never stored (jacobian_target.hpp).
  BlockSparseMatrix A_;
  ElementSlots element_slots_;                      ///< of A_'s pattern
  ElementEvalBuffers element_buffers_;              ///< the BW elements' assembly on several threads
  PcgWorkspace pcg_;                                ///< kept across solves (IC symbolic phase)
  /// Per spring, whether IC(0) leaves it out (weak_bend_springs), and the next step's candidate.
  std::vector<char> weak_bend_springs_, next_weak_bend_springs_;
  std::vector<double> softest_spring_;              ///< weak_bend_springs' scratch
  std::array<double, 5> weak_bend_key_{};  ///< h and the material's spring constants they are for
  JacobianCorrection dfdx_correction_;  ///< exact - assembled drag/wind ∂f/∂x, for eq. 15's right side
  VertexConstraints constraints_;
  VertexConstraints correction_constraints_;  ///< constraints_ with z = 0 (Newton corrections)
  std::vector<Vec3> f_, b_, dv_, y_, scratch_;
  std::vector<Vec3> dfdx_d_;  ///< ∂f/∂x (h v0 + y), for eq. 18's right side
  std::vector<Vec3> v_start_;  ///< v0 of the substep (Newton corrections)
  std::vector<Vec3> x_start_;  ///< x0 of the substep (self-collision)
  /// What each vertex's contact was after the last substep, to decide the next one's constraint.
  enum class ContactState : std::uint8_t { Free, Slide, Stick, Released };
  struct ConstrainedContact {
    int vertex;
    Vec3 normal, solid_velocity;
    double mu_static, mu_kinetic;
    bool stick;
    double normal_impulse = 0, tangential_impulse = 0;  ///< of the constraint, kg m/s
  };
  std::vector<ConstrainedContact> contacts_;  ///< this substep's contact constraints
  std::vector<ContactState> contact_state_;   ///< per vertex, carried across steps
};

}  // namespace cloth
