#include <memory>
#include <string>

#include "core/error.hpp"
#include "integrators/explicit_integrators.hpp"
#include "integrators/implicit_euler.hpp"
#include "integrators/xpbd_integrator.hpp"

namespace cloth {

std::unique_ptr<Integrator> make_integrator(const std::string& name) {
  using Method = ExplicitIntegrator::Method;
  if (name == "verlet") return std::make_unique<ExplicitIntegrator>(Method::Verlet);
  if (name == "explicit-euler") return std::make_unique<ExplicitIntegrator>(Method::ForwardEuler);
  if (name == "symplectic-euler") return std::make_unique<ExplicitIntegrator>(Method::SymplecticEuler);
  if (name == "rk4") return std::make_unique<ExplicitIntegrator>(Method::Rk4);
  if (name == "implicit") return std::make_unique<ImplicitEulerIntegrator>();
  if (name == "xpbd") return std::make_unique<XpbdIntegrator>();
  throw InputError("unknown integrator '" + name + "' (available: " + joined(kIntegratorNames) + ")");
}

}  // namespace cloth
