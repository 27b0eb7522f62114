#pragma once
// The one interface every time integrator implements (issue 4 adds explicit, implicit, XPBD).
#include <memory>
#include <string>

#include "cloth/model.hpp"
#include "cloth/state.hpp"
#include "cloth/step_context.hpp"

namespace cloth {

struct StepReport {
  int substeps = 0;  ///< substeps actually taken
  int contacts = 0;  ///< vertex-collider contacts resolved in the last substep
};

class Integrator {
 public:
  virtual ~Integrator() = default;
  virtual const char* name() const = 0;
  /// Advances `state` by ctx.dt. Pinned vertices end exactly at their pin positions.
  virtual StepReport step(ClothState& state, const ClothModel& model, const StepContext& ctx) = 0;
};

/// Position Verlet of seed 002 section 6, x_{n+1} = 2 x_n - x_{n-1} + a dt^2, with substeps.
class VerletIntegrator final : public Integrator {
 public:
  const char* name() const override { return "verlet"; }
  StepReport step(ClothState& state, const ClothModel& model, const StepContext& ctx) override;

 private:
  std::vector<Vec3> force_;  ///< scratch, reused between steps
};

/// Names accepted by make_integrator, for messages.
inline constexpr const char* kIntegratorNames = "verlet";

/// Creates an integrator by name; throws InputError for names that are unknown or not built yet.
std::unique_ptr<Integrator> make_integrator(const std::string& name);

}  // namespace cloth
