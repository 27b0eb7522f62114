// solve_drape: option checks, the stop rule on the residual force and the progress record, for
// the three minimisers of static_drape.hpp.
#include <cmath>
#include <memory>
#include <string>

#include "drape/static_drape_internal.hpp"
#include "drape/static_drape_multigrid.hpp"
#include "drape/static_drape_newton.hpp"

#include "core/error.hpp"

namespace cloth {

namespace {

void check_count(int v, const char* name, int lo) {
  if (v < lo || v > 100000) {
    throw InputError(std::string("static drape: ") + name + " must be an integer in [" +
                     std::to_string(lo) + ", 100000], got " + std::to_string(v));
  }
}

void validate(const DrapeProblem& p, const DrapeOptions& o) {
  if (!(o.force_tolerance > 0) || !std::isfinite(o.force_tolerance)) {
    throw InputError("static drape: force_tolerance must be a positive finite force (N), got " +
                     std::to_string(o.force_tolerance));
  }
  check_count(o.max_iterations, "max_iterations", 1);
  if (!(o.relax.perturbation_deg >= 0 && o.relax.perturbation_deg <= 45)) {
    throw InputError("static drape: perturbation_deg must be an angle in [0, 45] degrees, got " +
                     std::to_string(o.relax.perturbation_deg));
  }
  const bool needs_grid = o.method == DrapeMethod::Multigrid ||
                          (o.method == DrapeMethod::Relaxation && o.relax.order == RelaxOrder::RedBlack);
  if (needs_grid && !p.model.mesh.is_grid()) {
    throw InputError(std::string("static drape: ") +
                     (o.method == DrapeMethod::Multigrid ? "multigrid" : "red-black relaxation") +
                     " needs a generated grid mesh (this mesh has no grid size); use relaxation "
                     "with sequential or jacobi order, or newton");
  }
  if (o.method == DrapeMethod::Multigrid) {
    const MultigridOptions& m = o.multigrid;
    check_count(m.k1, "multigrid k1", 0);
    check_count(m.k2, "multigrid k2", 0);
    check_count(m.k3, "multigrid k3", 0);
    check_count(m.kc, "multigrid kc", 1);
    check_count(m.coarsest, "multigrid coarsest", 3);
    if (m.k1 + m.k2 + (m.w_cycle ? m.k3 : 0) == 0) {
      throw InputError("static drape: multigrid needs at least one fine sweep per cycle (k1 + k2 > 0)");
    }
    const int nx = p.model.mesh.grid_nx, ny = p.model.mesh.grid_ny;
    if (nx % 2 == 0 || ny % 2 == 0 || std::min(nx, ny) <= m.coarsest) {
      throw InputError("static drape: multigrid needs a grid with odd sides larger than coarsest = " +
                       std::to_string(m.coarsest) + " (2^k + 1 is best), got " + std::to_string(nx) +
                       " x " + std::to_string(ny));
    }
  }
}

}  // namespace

DrapeResult solve_drape(const DrapeProblem& problem, const DrapeOptions& o) {
  validate(problem, o);
  DrapeResult r;
  std::vector<Vec3> x = problem.start;
  std::mt19937_64 rng(o.relax.seed);

  drape::Hierarchy h;
  if (o.method == DrapeMethod::Multigrid) {
    h = drape::build_hierarchy(problem, o.multigrid.coarsest);
  } else {
    h.levels.push_back(drape::make_level(problem.model, problem.pinned, problem.colliders, problem.gravity));
  }
  drape::Level& fine = h.levels[0];
  std::unique_ptr<drape::NewtonSolver> newton;
  if (o.method == DrapeMethod::Newton) newton = std::make_unique<drape::NewtonSolver>(fine);

  // A cloth without fixed points has a free fall in its null space, which no relaxation or coarse
  // grid resolves (each sweep moves it by about m g / k): fall onto the solids below first.
  drape::drop_onto_solids(fine, problem.gravity, x);

  std::vector<Vec3> f;
  const auto residual = [&] {
    drape::residual_forces(fine, x, f);
    return drape::max_norm(f);
  };
  r.max_force = residual();
  r.energy = drape::level_energy(fine, x);
  if (r.max_force < o.force_tolerance) {
    r.converged = true;
    r.message = "already in equilibrium";
  }
  int stalled = 0;
  while (!r.converged && r.iterations < o.max_iterations) {
    bool progress = true;
    switch (o.method) {
      case DrapeMethod::Relaxation:
        progress = drape::relax_sweep(fine, x, o.relax.order, o.relax.perturbation_deg, rng) > 0;
        ++r.fine_sweeps;
        r.work_units += 1;
        break;
      case DrapeMethod::Multigrid:
        drape::multigrid_cycle(h, x, o.multigrid, o.relax, rng, &r.fine_sweeps, &r.work_units);
        break;
      case DrapeMethod::Newton:
        progress = newton->step(fine, x);
        break;
    }
    ++r.iterations;
    r.max_force = residual();
    r.energy = drape::level_energy(fine, x);
    const DrapeProgress p{r.iterations, r.energy, r.max_force, r.fine_sweeps, r.work_units};
    r.history.push_back(p);
    if (o.on_progress) o.on_progress(p);
    if (!std::isfinite(r.energy) || !std::isfinite(r.max_force)) {
      r.message = "diverged: non-finite energy or force";
      break;
    }
    if (r.max_force < o.force_tolerance) {
      r.converged = true;
      r.message = "converged";
      break;
    }
    // No point could lower the energy (round-off floor): a few such sweeps in a row is a stall.
    stalled = progress ? 0 : stalled + 1;
    if (stalled >= 3) {
      r.message = "stalled: no step lowers the energy (round-off); max force " + std::to_string(r.max_force) + " N";
      break;
    }
  }
  if (!r.converged && r.message.empty()) {
    r.message = "did not converge in " + std::to_string(o.max_iterations) + " " +
                (o.method == DrapeMethod::Relaxation ? "sweeps" :
                 o.method == DrapeMethod::Multigrid ? "cycles" : "iterations") +
                ": max force " + std::to_string(r.max_force) + " N";
  }
  r.x = std::move(x);
  return r;
}

}  // namespace cloth
