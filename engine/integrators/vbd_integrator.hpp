#pragma once
// Vertex Block Descent (Chen, Liu, Yang & Yuksel 2024, "Vertex Block Descent", ACM TOG 43(4)):
// the backward Euler step as the minimiser of
//
//   G(x) = 1/(2 h^2) |x - y|_M^2 + E(x) + D(x),      y = x0 + h v0 + h^2 M^-1 f_ext(x0, v0),
//
// by block coordinate descent over vertices. Each iteration visits the colours of a vertex
// colouring (no element has two vertices of one colour, VertexElements) and, for every vertex i
// of a colour, all at once on the solver's threads, takes one Newton step on G restricted to x_i:
//
//   f_i = -m_i/h^2 (x_i - y_i) + sum_e f_e,i(x, (x - x0)/h) - m_i c (x_i - x0_i)/h,
//   H_i =  m_i/h^2 I + sum_e (-∂f_e,i/∂x_i - 1/h ∂f_e,i/∂v_i) + m_i c/h I,     x_i += H_i^-1 f_i
//
// (the paper's section 3; H_i skipped when det(H_i) is tiny). The element terms are the model's own
// element kernels (forces/vertex_blocks.hpp: every model qualifies, their stiffness made
// definite); the damping forces are evaluated at the velocity (x - x0)/h that the iterate implies,
// so the fixed point is the fully implicit backward Euler step M (v1 - v0) = h f(x1, v1) that the
// implicit integrator's Newton iterations converge to, given the same explicit f_ext.
//
// Accelerated by the paper's Chebyshev over-relaxation (sec. 3.8) after each full iteration n:
//   x^n = omega_n (xbar^n - x^{n-2}) + x^{n-2},  omega_1 = 1, omega_2 = 2/(2 - rho^2),
//   omega_n = 4/(4 - rho^2 omega_{n-1}),
// with rho = SolverSettings::chebyshev_rho (0 = plain descent), as projective dynamics uses it.
// Initialised by the paper's adaptive initialisation: x0 + h v0 + h^2 a~, a~ the part of f_ext/m
// along which the vertex was already accelerating in the previous substep, clamped to [0, |a_ext|]
// (a cloth at rest starts where it is, a falling one where the fall takes it).
//
// What the integrator takes, and how:
// - gravity, drag and wind: explicit, at (x0, v0), inside y; the velocity damping -m c v:
//   implicit, as the implicit integrator takes it;
// - pins, moving pins and a kinematic grab: placed first by enforce_pins_and_grab and never
//   moved (their rows skipped), so they end exactly there;
// - the spring grab: the force k (target - x) - c v on its vertex, implicit (k + c/h on H_i);
// - slides: projected after the iterations (project_slides), as XPBD and projective do;
// - solids and self-collision: the collision stage after the iterations (end_substep).
#include <vector>

#include "forces/vertex_blocks.hpp"
#include "integrators/integrator.hpp"
#include "kinematics/long_range_attachments.hpp"

namespace cloth {

class VbdIntegrator final : public Integrator {
 public:
  StepReport step(ClothState& state, const ClothModel& model, const StepContext& ctx) override;

  /// The colouring the iterations use (tests: no element has two vertices of one colour).
  const VertexElements& vertex_elements() const { return elements_; }
  /// The shape-operator bend's hinge angles as the last step left them (tests: current for its
  /// end positions and velocities).
  const ShapeOperatorScratch& hinge_cache() const { return hinge_cache_; }

 private:
  /// One vertex's Newton step on G (the header's f_i, H_i); x_i and v_i = (x_i - x0_i)/h move,
  /// and the cached hinges of i are refreshed (from the colour's parallel tasks: race-free,
  /// VertexElements::hinges_of).
  void descend(ClothState& state, const ClothModel& model, const StepContext& ctx, int i, double h);

  VertexElements elements_;
  /// The shape-operator bend's hinge angles at the iterate: all refreshed where every vertex
  /// moves (the initial guess, the over-relaxation), a vertex's own after each of its descents.
  ShapeOperatorScratch hinge_cache_;
  std::vector<char> fixed_;               ///< pinned, or the kinematic grab's vertex
  std::vector<Vec3> x0_, v0_, y_, f_ext_;
  std::vector<Vec3> last_, before_last_;  ///< iterates x^{n-1}, x^{n-2} of the Chebyshev recurrence
  std::vector<Vec3> acceleration_;        ///< per vertex (v1 - v0)/h of the last substep, m/s^2
  LongRangeAttachments attachments_;  ///< solver.long_range_attachments (Kim et al. 2012)
};

}  // namespace cloth
