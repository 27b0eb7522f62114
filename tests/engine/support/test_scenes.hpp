#pragma once
// Small simulations several test files start from: a falling square cloth, and a hanging cloth
// whose two top corners are pulled apart (the tearing scenario).
#include <utility>
#include <vector>

#include "mesh/mesh.hpp"
#include "model/model.hpp"
#include "simulation/simulation.hpp"

namespace cloth {

/// An n x n grid centred 1 m up, falling under gravity, symplectic Euler at 1/600 s (ten steps per
/// replay interval).
inline Simulation falling_cloth(int n, const SpringMaterial& material = {}, std::vector<Collider> colliders = {}) {
  GridSpec spec;
  spec.nx = spec.ny = n;
  spec.center = Vec3(0, 1, 0);
  SolverSettings solver;
  solver.integrator = IntegratorType::SymplecticEuler;
  solver.dt = 1.0 / 600;
  return Simulation(build_model(make_grid(spec), material), std::move(colliders), {}, solver, Vec3(0, -9.81, 0));
}

/// Moves the two top corners of `mesh` (row 0, the top of an XY grid) apart along x at `speed`
/// (m/s) each, from where they rest.
inline void pull_top_corners_apart(Simulation& sim, const RestMesh& mesh, double speed = 0.5) {
  std::vector<MovingPin> pins;
  for (int side : {0, 1}) {
    MovingPin pin;
    pin.vertex = mesh.grid_index(side ? mesh.grid_nx - 1 : 0, 0);
    pin.anchor = mesh.positions[size_t(pin.vertex)];
    pin.path.kind = MotionPath::Kind::Linear;
    pin.path.velocity = Vec3(side ? speed : -speed, 0, 0);
    pins.push_back(pin);
  }
  sim.set_kinematic_constraints(pins, {});
}

}  // namespace cloth
