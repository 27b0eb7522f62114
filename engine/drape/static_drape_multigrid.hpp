#pragma once
// Multigrid FAS internals of the static drape solver (Feynman 1986 section 6; see
// static_drape_multigrid.cpp).
#include <random>
#include <vector>

#include "drape/static_drape_internal.hpp"

namespace cloth::drape {

/// Levels from the finest (0) to the coarsest: each a generated grid of (n + 1) / 2 points a side,
/// the same material (buckling b scaled by 4 per level, 5.5) and model type, fixed points by 7.1.
/// Coarsening stops at a side <= coarsest or at an even side.
struct Hierarchy {
  std::vector<Level> levels;
};
Hierarchy build_hierarchy(const DrapeProblem& p, int coarsest);

void restrict_positions(const Level& fine, const Level& coarse, const std::vector<Vec3>& x,
                        std::vector<Vec3>& X);
void restrict_forces(const Level& fine, const Level& coarse, const std::vector<Vec3>& f,
                     std::vector<Vec3>& F);
void interpolate_correction(const Level& coarse, const Level& fine, const std::vector<Vec3>& d,
                            Interpolation kind, std::vector<Vec3>& e);

/// One V or W cycle on x (finest level); adds the sweeps done on the finest grid and the work
/// units (passes over each level, sweeps and force or energy evaluations, weighted by its size).
void multigrid_cycle(Hierarchy& h, std::vector<Vec3>& x, const MultigridOptions& o,
                     const RelaxOptions& r, std::mt19937_64& rng, int* fine_sweeps, double* work);

}  // namespace cloth::drape
