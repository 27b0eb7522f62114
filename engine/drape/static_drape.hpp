#pragma once
// Static drape: the resting shape of a cloth found directly by minimising its energy, after
// C. Feynman, "Modeling the Appearance of Cloth", MIT 1986:
//
//   E(x) = E_material(x) - sum_i m_i g . x_i        (section 5.1: strain + bending + gravity)
//
// over the free vertices, with pinned vertices held where they start (7.1 "fixed points") and no
// vertex inside a solid (7.2: a point moved into a solid is moved to the nearest point outside).
// Three minimisers share the problem:
//  - point relaxation (section 4): each vertex moves along its force, turned by a small random
//    angle, to the minimum of a parabola through the energies at t = 0, k, 3k (4.1); sequential,
//    red-black (4.2) or fully parallel (Jacobi, the order 4.2 wished for) sweeps;
//  - the multigrid full approximation scheme (section 6) on generated grids of 2^k + 1 points a
//    side (any odd size coarsens at least once): V or W schedules with k1, k2, k3, kc (6.1),
//    full-weighting coarsening and a cubic or bilinear interpolation of the coarse correction (6.2);
//  - Newton's method with a backtracking line search on the PSD-projected Hessian (modern
//    comparison, not in the thesis).
// All three stop on the residual force (max |f| over the free vertices, N), not on a count.
// Material damping plays no part (velocities are zero). SI units throughout.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "collision/collider.hpp"
#include "model/model.hpp"
#include "core/vec.hpp"

namespace cloth {

/// What is being minimised. Build it with make_drape_problem (which validates).
struct DrapeProblem {
  ClothModel model;                  ///< any model type; multigrid needs a generated grid
  Vec3 gravity = Vec3(0, -9.81, 0);  ///< m/s^2
  std::vector<std::uint8_t> pinned;  ///< per vertex: 1 = fixed point (7.1), held at `start`
  std::vector<Collider> colliders;   ///< solids (7.2); a vertex is kept `thickness` outside
  std::vector<Vec3> start;           ///< initial positions (pinned ones stay there), m
};

/// Validates and builds a problem. `start` empty = the model's rest mesh positions. Throws
/// InputError (one line) for non-finite gravity or start positions, a pin index out of range, a
/// collider with a non-finite shape or negative thickness, or a model without masses.
DrapeProblem make_drape_problem(ClothModel model, const Vec3& gravity,
                                const std::vector<int>& pinned_vertices,
                                std::vector<Collider> colliders = {},
                                std::vector<Vec3> start = {});

enum class DrapeMethod { Relaxation, Multigrid, Newton };
/// Sweep orders of section 4.2. Jacobi relaxes every point from the positions at the start of
/// the sweep, then scales the whole move by a line search (the thesis's relax-cloth-forcibly).
enum class RelaxOrder { Sequential, RedBlack, Jacobi };
enum class Interpolation { Bilinear, Cubic };

struct RelaxOptions {
  RelaxOrder order = RelaxOrder::RedBlack;  ///< RedBlack needs a generated grid
  double perturbation_deg = 7.0;  ///< mean random turn of the force direction (4.1), degrees, [0, 45]
  std::uint64_t seed = 1;         ///< the perturbation's random generator
};

struct MultigridOptions {
  bool w_cycle = false;  ///< V (false) or W (true) schedule of 6.1
  int k1 = 2;            ///< fine sweeps before coarsening
  int k2 = 2;            ///< sweeps after the (first) refinement
  int k3 = 2;            ///< W only: sweeps after the second refinement
  int kc = 10;           ///< sweeps on the coarsest grid (the thesis used 10)
  int coarsest = 3;      ///< stop coarsening when a side has at most this many points (>= 3)
  Interpolation interpolation = Interpolation::Cubic;  ///< of the correction (6.2)
  /// The FAS source term tau (Brandt): the coarse problem is E_c(X) - tau . X with tau chosen so
  /// that the coarse gradient at R x equals the restricted fine gradient; its minimum is then R x
  /// exactly when x is a fine minimum. false = the thesis's literal scheme (the coarse cloth
  /// minimises its own energy), which drags a converged fine grid towards the coarse shape.
  bool source_term = true;
  /// Scale each interpolated correction by a parabola line search on the fine energy (the
  /// safeguard that 6.3 lacked: "it may not move in the direction of reduced energy").
  bool line_search = true;
};

/// One entry per sweep (relaxation), cycle (multigrid) or iteration (Newton).
struct DrapeProgress {
  int iteration = 0;      ///< 1-based
  double energy = 0;      ///< E(x), J
  double max_force = 0;   ///< max residual |f| over free vertices, N (see drape_max_force)
  int fine_sweeps = 0;    ///< cumulative relaxation sweeps on the finest grid
  /// Cumulative fine-sweep equivalents: relaxation sweeps, and for multigrid every pass over a
  /// level (a sweep, or an evaluation of its forces or energy) weighted by level size / finest size.
  double work_units = 0;
};

struct DrapeOptions {
  DrapeMethod method = DrapeMethod::Multigrid;
  double force_tolerance = 1e-6;  ///< stop when max residual |f| < this, N
  int max_iterations = 10000;     ///< cap on sweeps / cycles / Newton iterations
  RelaxOptions relax;             ///< relaxation, and the smoother of multigrid
  MultigridOptions multigrid;
  /// Called after every sweep / cycle / iteration (e.g. to plot progress); may be empty.
  std::function<void(const DrapeProgress&)> on_progress;
};

struct DrapeResult {
  std::vector<Vec3> x;           ///< final positions, m
  bool converged = false;        ///< max_force < force_tolerance
  int iterations = 0;            ///< sweeps / cycles / Newton iterations done
  int fine_sweeps = 0;           ///< relaxation sweeps on the finest grid (0 for Newton)
  double work_units = 0;         ///< see DrapeProgress
  double energy = 0;             ///< J
  double max_force = 0;          ///< N
  std::vector<DrapeProgress> history;
  std::string message;           ///< one line: why it stopped
};

/// Minimises the problem's energy from problem.start. Throws InputError for bad options (NaN or
/// non-positive tolerance, negative sweep counts, ...) or a method that cannot take the model
/// (multigrid or red-black on a non-grid mesh, multigrid on a grid with an even side). Not
/// converging within max_iterations is a result (converged = false), not an error.
DrapeResult solve_drape(const DrapeProblem& problem, const DrapeOptions& options);

/// E(x) = material energy - sum m g . x, J.
double drape_energy(const DrapeProblem& problem, const std::vector<Vec3>& x);

/// Max over free vertices of the residual force |f_i|, f = material force + m g, N; at a vertex
/// touching a solid (within thickness + 1e-9 m) the component pushing into it is left out (the
/// solid takes it: Feynman's solids are frictionless).
double drape_max_force(const DrapeProblem& problem, const std::vector<Vec3>& x);

const char* drape_method_name(DrapeMethod m);

/// The reference curtain of the drape tests and of bench/drape_multigrid: Feynman cloth of
/// 0.2 kg/m², k_s 200 N/m, shear 60 N/m, B 1e-4 N m, r = 1/2, b = 1e-6 m² (curtain_material)...
SpringMaterial curtain_material();
/// ...as an n x n, 0.5 m square hanging in the XY plane from its whole top row (a curtain on a
/// rod), starting flat and unstretched: one equilibrium, everything in tension.
DrapeProblem curtain_drape_problem(int n);

class Simulation;
/// The drape problem of a running simulation: its model, gravity, pinned vertices and solids,
/// starting from its current positions.
DrapeProblem drape_problem_from(const Simulation& sim);

/// Named option sets for the CLI (--drape NAME) and the UI: "newton", "multigrid-v",
/// "multigrid-w", "relax-red-black", "relax-sequential", "relax-jacobi". Throws InputError
/// listing drape_method_names() for any other ("geometric" included: it has its own entry point).
DrapeOptions drape_options_from_name(const std::string& name);
std::vector<std::string> drape_option_names();
/// Every method --drape and the app offer: drape_option_names(), then "geometric", Weil's
/// catenary model, which is not an energy minimiser and runs by geometric_drape (weil_drape.hpp).
std::vector<std::string> drape_method_names();

}  // namespace cloth
