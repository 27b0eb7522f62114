#pragma once
// Turns the air off (no quadratic and no linear drag) for tests whose exact answer assumes no air:
// free fall, energy conservation.
#include "simulation/simulation.hpp"

namespace cloth {

inline void in_vacuum(Simulation& sim) {
  ExternalForces f = sim.external_forces();
  f.air_density = 0;
  f.drag = 0;
  sim.set_external_forces(f);
}

}  // namespace cloth
