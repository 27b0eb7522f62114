// libFuzzer target for scene files: text -> file -> cloth::load_scene (with --set overrides) ->
// make_simulation -> a few steps when the scene is small enough to step quickly.
//
// Input layout: the scene file's text up to the first NUL byte; every further NUL-separated
// chunk is one `--set key=value` override (JSON text cannot hold a raw NUL, so this is
// unambiguous). The scene's folder also holds cloth.obj, a valid quad, so that scenes in the
// corpus can name an OBJ mesh by a relative path.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "io/scene.hpp"
#include "fuzz_contract.hpp"
#include "model_checks.hpp"

namespace {

constexpr int kSteps = 3;
// Vertex-substep-iterations per step (its blow-up retries included) above which stepping is
// skipped: the fuzzer is after crashes and NaNs, which small scenes reach as well as big ones, at
// thousands of runs a second. An instrumented substep costs up to ~350 us per vertex with the
// edge-area model (tests/fuzz/corpus/scene/edge_area_verlet_timeout.json: 4,300 took 5 s on a
// loaded machine) and ~600 us with Baraff-Witkin bending (its 12 x 12 Jacobian blocks are
// instrumented loops: 14,500 took 9 s, tests/fuzz/corpus/scene/bw_verlet_timeout.json).
constexpr double kMaxWorkPerStep = 2e3;

double work_per_step(const cloth::Simulation& sim) {
  const cloth::SolverSettings& s = sim.solver();
  // The substeps the step runs: with substeps 0 (auto), the explicit stability bound's count,
  // which a stiff thin cell makes large (tests/fuzz/corpus/scene/auto_substeps_timeout.json).
  double work = double(sim.model().vertex_count()) * sim.substeps();
  if (s.integrator == cloth::IntegratorType::Xpbd) work *= s.xpbd_iterations;
  if (s.integrator == cloth::IntegratorType::Projective) work *= s.projective_iterations;
  if (s.integrator == cloth::IntegratorType::Vbd) work *= s.vbd_iterations;
  if (s.integrator == cloth::IntegratorType::Implicit) {
    work *= s.newton_iterations * std::min(s.max_iterations, 3 * sim.model().vertex_count());
  }
  // An adaptive frame may take up to this many full-cost steps (simulation.hpp).
  if (s.adaptive) work *= cloth::Simulation::kMaxAdaptiveAttempts;
  // A step that blows up is retried with 2, 4, ... 2^R times the substeps (R = kRecoveryRetries).
  work *= (1 << (cloth::Simulation::kRecoveryRetries + 1)) - 1;
  return work;
}

const char kQuadObj[] =
    "v 0 1 0\nv 1 1 0\nv 1 1 1\nv 0 1 1\nvt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nf 1/1 2/2 3/3\nf 1/1 3/3 4/4\n";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string quad = fuzz::write_input("cloth.obj", kQuadObj);
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> chunks;
  for (size_t start = 0;;) {
    const size_t end = bytes.find('\0', start);
    chunks.emplace_back(bytes.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  const std::string path = fuzz::write_input("scene.json", chunks.front());
  const std::vector<std::string> overrides(chunks.begin() + 1, chunks.end());
  try {
    std::vector<std::string> warnings;
    const cloth::Scene scene = cloth::load_scene(path, overrides, warnings);
    for (const std::string& w : warnings) fuzz::check_one_line(w.c_str());
    const auto sim = cloth::make_simulation(scene);
    fuzz::check_finite_model(sim->model());
    if (work_per_step(*sim) <= kMaxWorkPerStep) {
      for (int k = 0; k < kSteps; ++k) {
        sim->step();
        if (!cloth::all_finite(sim->state())) fuzz::violated("state not finite after step " + std::to_string(k));
        // A recovered blow-up keeps its doubled substeps and each further one doubles them again
        // (up to Simulation::kMaxRecoverySubsteps): the recovery path has run, and stepping on
        // would only cost the fuzzer seconds per input (an unstable Verlet handkerchief hit the
        // 10 s limit on its third frame at 2048 substeps).
        if (sim->statistics().instabilities > 0) break;
      }
    }
  } catch (const cloth::InputError& e) {
    fuzz::check_one_line(e.what());
  } catch (const std::exception& e) {
    fuzz::violated(std::string("scene loading threw a non-InputError: ") + e.what());
  }
  return 0;
}
