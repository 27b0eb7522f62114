#include "io/run_stats.hpp"

#include <algorithm>
#include <fstream>

#include "core/error.hpp"
#include "geometry/triangle_intersection.hpp"

namespace cloth {

double RunStats::median_ms() const {
  if (frame_ms_.empty()) return 0;
  std::vector<double> sorted = frame_ms_;
  const size_t mid = sorted.size() / 2;
  std::nth_element(sorted.begin(), sorted.begin() + mid, sorted.end());
  if (sorted.size() % 2 == 1) return sorted[mid];
  return 0.5 * (sorted[mid] + *std::max_element(sorted.begin(), sorted.begin() + mid));
}

nlohmann::json RunStats::to_json(const Simulation& sim) const {
  const Energies e = sim.energies();
  nlohmann::json doc;
  doc["frames"] = frames();
  doc["ms_per_frame_median"] = median_ms();
  doc["steps"] = sim.statistics().steps;
  doc["substeps_per_step"] = sim.substeps();
  doc["dt"] = sim.solver().dt;
  doc["sim_time"] = sim.time();
  doc["integrator"] = name_of(sim.solver().integrator);
  // Explicit integrators solve no linear system: then there is no CG count to report (null).
  const double cg = sim.statistics().mean_solver_iterations();
  doc["cg_iterations_mean"] = cg >= 0 ? nlohmann::json(cg) : nlohmann::json(nullptr);
  doc["cg_residual_last"] = sim.statistics().last_report.integration.solver_residual;
  doc["vbd_last_move_ratio"] = sim.statistics().last_report.integration.last_move_ratio;
  doc["instabilities"] = sim.statistics().instabilities;
  doc["rejected_steps"] = sim.statistics().rejected_steps;
  doc["adaptive"] = sim.solver().adaptive;
  doc["final_step_s"] = sim.current_step();
  // Where the time went, per frame on average (B&W Table 1's split).
  const StepTimings& t = sim.statistics().total_timings;
  const double frames_run = std::max<double>(1.0, static_cast<double>(sim.statistics().steps));
  doc["assembly_ms_mean"] = t.assembly_ms / frames_run;
  doc["solve_ms_mean"] = t.solve_ms / frames_run;
  doc["collision_ms_mean"] = t.collision_ms / frames_run;
  doc["last_instability"] = sim.statistics().last_instability;
  doc["divergence"] = sim.divergence();  // why a run under on_blowup = stop stopped ("" = it runs)
  doc["substeps_raised"] = sim.substeps_raised();
  doc["max_edge_strain"] = max_edge_strain(sim.model(), sim.state());
  doc["final_kinetic_energy"] = e.kinetic;
  doc["final_potential_energy"] = e.gravitational + e.elastic;
  doc["final_total_energy"] = e.total();
  doc["nan"] = !all_finite(sim.state());
  doc["self_collision"] = sim.self_collision().enabled;
  // Exact triangle-triangle tests (pairs sharing a vertex skipped): 0 when the cloth does not pass
  // through itself.
  doc["intersecting_triangle_pairs"] =
      all_finite(sim.state()) ? count_intersecting_triangle_pairs(sim.model().mesh.triangles, sim.state().x) : -1;
  doc["tearing"] = sim.tearing().settings().enabled;
  doc["torn_edges"] = sim.tearing().torn_edges();
  doc["pieces"] = connected_pieces(sim.model().mesh);
  doc["vertices"] = sim.model().vertex_count();
  doc["springs"] = sim.model().springs.size();
  doc["total_mass"] = sim.model().total_mass();
  return doc;
}

void write_json(const std::string& path, const nlohmann::json& doc) {
  std::ofstream out(path);
  if (!out) throw InputError("cannot write " + path);
  out << doc.dump(2) << '\n';
  if (!out) throw InputError("error while writing " + path);
}

}  // namespace cloth
