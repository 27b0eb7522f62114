// Multigrid against red-black relaxation on the static drape curtain (Feynman 1986, sections 4.2
// and 6): the counts behind the speed-up figure of docs/static-drape.md, "Static drape". One row
// per method:
//
//   drape_multigrid SIDE [PERTURBATION_DEG=7] [RELAX_CAP=20000] [TOL=1e-6]
//
// The curtain of the drape tests (curtain_drape_problem, static_drape.hpp): a 0.5 m square of
// Feynman cloth (0.2 kg/m², k_s 200 N/m, B 1e-4 N m, r 1/2, b 1e-6 m²) hung flat from its whole top row. Relaxation prints
// its sweeps every 500 so that a run stopped early still says where it was.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mesh/mesh.hpp"
#include "model/model.hpp"
#include "drape/static_drape.hpp"

using namespace cloth;

namespace {

void run(const char* name, const DrapeProblem& p, DrapeOptions o) {
  const auto t0 = std::chrono::steady_clock::now();
  const DrapeResult r = solve_drape(p, o);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("| %d × %d | %s | %g° | %d | %d | %.1f | %.3g | %.1f s | %s |\n", p.model.mesh.grid_nx,
              p.model.mesh.grid_ny, name, o.relax.perturbation_deg, r.iterations, r.fine_sweeps, r.work_units,
              r.max_force, s, r.message.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: drape_multigrid SIDE [PERTURBATION_DEG=7] [RELAX_CAP=20000] [TOL=1e-6]\n");
    return 2;
  }
  const DrapeProblem p = curtain_drape_problem(std::atoi(argv[1]));
  DrapeOptions o;
  o.relax.perturbation_deg = argc > 2 ? std::atof(argv[2]) : 7.0;
  o.force_tolerance = argc > 4 ? std::atof(argv[4]) : 1e-6;
  o.method = DrapeMethod::Multigrid;
  o.max_iterations = 2000;
  run("multigrid V", p, o);
  o.method = DrapeMethod::Relaxation;
  o.max_iterations = argc > 3 ? std::atoi(argv[3]) : 20000;
  o.on_progress = [](const DrapeProgress& q) {
    if (q.iteration % 500 == 0) std::fprintf(stderr, "  red-black sweep %d: max force %.3g N\n", q.iteration, q.max_force);
  };
  run("relaxation red-black", p, o);
  return 0;
}
