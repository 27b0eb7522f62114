#include <memory>
#include <string>

#include "cloth/error.hpp"
#include "cloth/integrator.hpp"

namespace cloth {

std::unique_ptr<Integrator> make_integrator(const std::string& name) {
  if (name == "verlet") return std::make_unique<VerletIntegrator>();
  static const char* kPlanned[] = {"explicit-euler", "symplectic-euler", "rk4", "implicit", "xpbd",
                                   "static"};
  for (const char* planned : kPlanned) {
    if (name == planned) throw InputError("integrator '" + name + "' is not supported yet (available: " + kIntegratorNames + ")");
  }
  throw InputError("unknown integrator '" + name + "' (available: " + kIntegratorNames + ")");
}

}  // namespace cloth
