#include <memory>
#include <string>

#include "core/error.hpp"
#include "integrators/integrator_type.hpp"
#include "integrators/explicit_integrators.hpp"
#include "integrators/implicit_euler.hpp"
#include "integrators/projective_integrator.hpp"
#include "integrators/vbd_integrator.hpp"
#include "integrators/xpbd_integrator.hpp"

namespace cloth {

std::unique_ptr<Integrator> make_integrator(IntegratorType type) {
  using Method = ExplicitIntegrator::Method;
  switch (type) {
    case IntegratorType::Verlet: return std::make_unique<ExplicitIntegrator>(Method::Verlet);
    case IntegratorType::ExplicitEuler: return std::make_unique<ExplicitIntegrator>(Method::ForwardEuler);
    case IntegratorType::SymplecticEuler: return std::make_unique<ExplicitIntegrator>(Method::SymplecticEuler);
    case IntegratorType::Rk4: return std::make_unique<ExplicitIntegrator>(Method::Rk4);
    case IntegratorType::Implicit: return std::make_unique<ImplicitEulerIntegrator>();
    case IntegratorType::Xpbd: return std::make_unique<XpbdIntegrator>();
    case IntegratorType::Projective: return std::make_unique<ProjectiveIntegrator>();
    case IntegratorType::Vbd: return std::make_unique<VbdIntegrator>();
  }
  throw InputError("unknown integrator " + std::to_string(int(type)));
}

}  // namespace cloth
