#pragma once
// Provot's deformation constraint (1995; Karthikeyan & Ranganathan 1998, "Provot": elongation
// "arbitrarily limited to 10%") and the Verlet report's "constraint method" (Yu, section 4, which
// moves both ends
// of a spring back to exactly its rest length): after an explicit step, every mesh edge longer
// than (1 + max_strain) x rest is shortened to that length by moving its ends towards each other
// (half each; all of it on the free end if the other is pinned). Velocities follow the positions
// (v += dx / h), as position-based methods do.
#include <cstdint>
#include <vector>

#include "model/model.hpp"
#include "model/state.hpp"

namespace cloth {

/// Gauss-Seidel passes over the edges until none is too long, at most `max_passes` (Provot used
/// one; fixing one edge stretches its neighbours, so one pass leaves ~20% over the limit).
/// Returns the number of edge corrections made.
int limit_strain(ClothState& state, const ClothModel& model, const std::vector<std::uint8_t>& pinned,
                 double max_strain, double h, int max_passes = 10);

}  // namespace cloth
