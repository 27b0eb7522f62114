#pragma once
// The one interface every time integrator implements (explicit, implicit, XPBD).
#include <memory>
#include <string>

#include "model/model.hpp"
#include "model/state.hpp"
#include "integrators/integrator_type.hpp"
#include "integrators/step_context.hpp"
#include "integrators/step_timings.hpp"

namespace cloth {

struct StepReport {
  int substeps = 0;          ///< substeps actually taken
  int contacts = 0;          ///< vertex-collider contacts resolved in the last substep
  int self_contacts = 0;     ///< cloth-cloth close pairs found in the last substep
  int solver_iterations = 0; ///< CG iterations summed over substeps (implicit only)
  double solver_residual = 0;///< relative residual of the last solve (implicit only)
  /// How far the last substep's descent was from converged (VBD only, else 0): its last
  /// iteration's largest vertex move over its first iteration's. A descent that converges
  /// shrinks its moves (test Vbd.LastMoveShrinksWithIterations).
  double last_move_ratio = 0;
  StepTimings timings;       ///< wall time split over assembly / solve / collision

  /// Adds a later step's work: substeps, iterations and time sum; contacts, the residual and the
  /// move ratio are the later step's.
  void accumulate(const StepReport& later) {
    substeps += later.substeps;
    contacts = later.contacts;
    self_contacts = later.self_contacts;
    solver_iterations += later.solver_iterations;
    solver_residual = later.solver_residual;
    last_move_ratio = later.last_move_ratio;
    timings += later.timings;
  }
};

class Integrator {
 public:
  virtual ~Integrator() = default;
  /// Advances `state` by ctx.dt. Pinned vertices end exactly at their pin positions.
  virtual StepReport step(ClothState& state, const ClothModel& model, const StepContext& ctx) = 0;
};

/// Creates an integrator of the given type.
std::unique_ptr<Integrator> make_integrator(IntegratorType type);

}  // namespace cloth
