#pragma once
// The "contacts" overlay: which cloth vertices touch a solid or the ground now. GL-free.
#include <vector>

#include "simulation/simulation.hpp"

namespace app {

/// How far beyond a collider's contact offset (its `thickness`) a vertex still counts as
/// touching, m: the collision response leaves vertices at the offset, give or take round-off
/// and a step's drift.
constexpr double kContactSlack = 1e-3;

/// Indices of the vertices within thickness + kContactSlack of any collider, where the
/// colliders are at the simulation's current time.
std::vector<int> touching_vertices(const cloth::Simulation& sim);

}  // namespace app
