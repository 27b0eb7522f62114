#pragma once
// The solver's scene parameters ("solver" in a scene file): the integrator and its step, declared
// once (core/parameter.hpp) with their ranges, units, panel widgets and the integrators that use
// them.
#include <algorithm>

#include "core/parallel.hpp"
#include "core/parameter.hpp"
#include "integrators/integrator_type.hpp"
#include "linalg/constrained_solve.hpp"

namespace cloth {

/// What the blow-up guard does with a step that diverged (docs/integrators.md, "Blow-up guard").
enum class BlowUpResponse {
  Recover,  ///< roll back, redo with more substeps, and bring them back down once stable
  Stop,     ///< stop the run there and say so: the lesson of a classroom scene
  Reset,    ///< start the run over from the scene's initial state
};
inline constexpr NamedValue<BlowUpResponse> kBlowUpResponseNames[] = {
    {BlowUpResponse::Recover, "recover"},
    {BlowUpResponse::Stop, "stop"},
    {BlowUpResponse::Reset, "reset"},
};
constexpr std::span<const NamedValue<BlowUpResponse>> value_names(BlowUpResponse) { return kBlowUpResponseNames; }

struct SolverSettings {
  IntegratorType integrator = IntegratorType::Verlet;
  double dt = 1.0 / 60.0;             ///< fixed step, s
  /// substeps per step; 0 = auto: the explicit integrators' stability bound
  /// (integrators/stability_bound.hpp), 1 for the others
  int substeps = 20;
  BlowUpResponse on_blowup = BlowUpResponse::Recover;  ///< the guard's response to a diverged step
  /// implicit: the modified PCG's relative tolerance, iteration cap and preconditioner; their
  /// defaults, and why, are PcgSettings'.
  double tolerance = PcgSettings{}.tolerance;
  int max_iterations = PcgSettings{}.max_iterations;
  Preconditioner preconditioner = PcgSettings{}.preconditioner;
  bool direct_solve = false;  ///< implicit: reference direct (LDLT) solve instead of PCG
  int newton_iterations = 1;  ///< implicit: Newton iterations per step; 1 = B&W's single
                              ///< linearised step (eq. 18), more = fully implicit backward Euler
  int xpbd_iterations = 1;    ///< xpbd: constraint passes per substep (1 = Macklin's small steps)
  int projective_iterations = 10;  ///< projective: local-global iterations per substep
  int vbd_iterations = 10;         ///< vbd: descent iterations (sweeps over all colours) per substep
  /// projective: Wang 2015's spectral radius estimate; vbd: the same over-relaxation (Chen et al.
  /// 2024, sec. 3.8). 0 = off.
  double chebyshev_rho = 0.9;
  /// xpbd, vbd: long-range attachments' slack (Kim et al. 2012,
  /// kinematics/long_range_attachments.hpp; 0 = each vertex within its rest distance along the
  /// cloth from its nearest pin, 0.02 = 2% more); negative = off
  double long_range_slack = -1;
  double strain_limit = -1;   ///< verlet: Provot's elongation limit (0.1 = 10%, 0 = Yu's
                              ///< constraint method: edges held at rest length); negative = off
  /// verlet, symplectic-euler: substeps between the shape-operator bend's impulses (multiple
  /// time stepping, explicit_integrators.hpp); 0 = chosen from the bend's stiffest mode
  /// (bend_interval), 1 = every substep
  int bend_interval = 0;
  /// verlet, symplectic-euler: substeps between the air's impulses (multiple time stepping);
  /// 0 = chosen from the drag's rates at the step's speeds (air_interval), 1 = every substep
  int air_interval = 0;
  bool adaptive = false;      ///< B&W section 7 step-size control; dt is then the largest step
  double max_stretch_change = 0.1;  ///< adaptive: a step changing any triangle's stretch |w_u| or
                                    ///< |w_v| by more than this is discarded (dimensionless)
  /// Threads of the implicit solve, XPBD's passes, VBD's colours and every integrator's checks after a step;
  /// every count gives the same bits (parallel.hpp). 0 = all the machine offers (a scene that
  /// names none gets that).
  int threads = 1;
};

/// Calls v(field, ParamInfo) for each solver parameter of `s` (SolverSettings, const or not).
template <class Visitor, class Settings>
void visit_solver(Visitor&& v, Settings& s) {
  const UsedBy implicit = used_by(IntegratorType::Implicit);
  v(s.integrator, {.key = "integrator", .tip = "Time integration scheme"});
  v(s.dt, {.key = "dt", .unit = "s", .lo = 1e-7, .hi = 1, .tip = "Fixed simulation step (the display rate does not change it)",
           .log = true, .ui_lo = 1e-4, .ui_hi = 0.05});
  v(s.substeps, {.key = "substeps", .lo = 0, .hi = 10000, .label = "substeps (0: auto)",
                 .tip = "Substeps per step: each integrates dt / substeps; 0 = automatic: the "
                        "explicit integrators take the fewest their stability bound allows for "
                        "the stiffness, damping and mass, the others 1",
                 .log = true, .ui_lo = 0, .ui_hi = 2000});
  v(s.on_blowup, {.key = "on_blowup", .label = "on blow-up",
                  .tip = "When a step diverges: recover (roll back, redo with more substeps, "
                         "lower them again once stable), stop (freeze the run and say where it "
                         "diverged: the lesson of a classroom scene), or reset (start over)"});
  v(Switchable{s.strain_limit, 0.1}, {.key = "strain_limit", .lo = -1, .hi = 10, .label = "strain limit",
                     .tip = "Provot's limit on edge elongation (0.1 = 10%; 0 = edges held at rest "
                            "length; negative = off)",
                     .ui_lo = 0, .ui_hi = 0.5, .integrators = used_by(IntegratorType::Verlet)});
  v(s.bend_interval, {.key = "bend_interval", .lo = 0, .hi = 10000, .label = "bend interval (0: auto)",
                      .tip = "Substeps between the shape-operator bend's impulses (multiple time "
                             "stepping: the bend is far slower than the stretch); 0 = automatic, "
                             "from the bend's stiffest mode; 1 = every substep. Models with the "
                             "shape-operator bend only",
                      .ui_lo = 0, .ui_hi = 200,
                      .integrators = used_by(IntegratorType::Verlet, IntegratorType::SymplecticEuler)});
  v(s.air_interval, {.key = "air_interval", .lo = 0, .hi = 10000, .label = "air interval (0: auto)",
                     .tip = "Substeps between the air drag's impulses (multiple time stepping: the "
                            "drag is far slower than the stretch); 0 = automatic, from the drag's "
                            "rate at the step's speeds; 1 = every substep",
                     .ui_lo = 0, .ui_hi = 200,
                     .integrators = used_by(IntegratorType::Verlet, IntegratorType::SymplecticEuler)});
  v(Switchable{s.long_range_slack, 0.0},
    {.key = "long_range_attachments", .lo = -1, .hi = 10, .label = "long-range attachments",
     .tip = "Kim et al. 2012: tether each vertex to its nearest pin at its rest distance along the "
            "cloth times 1 + this slack (0 = inextensible from the pins; negative = off)",
     .ui_lo = 0, .ui_hi = 0.2,
     .integrators = used_by(IntegratorType::Xpbd, IntegratorType::Vbd)});
  v(s.adaptive, {.key = "adaptive", .label = "adaptive step",
                 .tip = "Baraff & Witkin 1998, sec. 7: discard a step that changes any triangle's "
                        "stretch too much, halve it, grow back after two good steps; dt is then "
                        "the largest step"});
  v(s.max_stretch_change, {.key = "max_stretch_change", .lo = 1e-6, .hi = 10,
                           .label = "max stretch change",
                           .tip = "Adaptive step: the largest change of a triangle's stretch "
                                  "|w_u|, |w_v| accepted in one step",
                           .log = true, .ui_lo = 1e-3, .ui_hi = 1, .visible = s.adaptive});
  v(s.xpbd_iterations, {.key = "xpbd_iterations", .lo = 1, .hi = 1000, .label = "passes",
                        .tip = "Gauss-Seidel constraint passes per substep; 1 with many substeps "
                               "is Macklin et al. 2019's small steps",
                        .log = true, .ui_lo = 1, .ui_hi = 50, .integrators = used_by(IntegratorType::Xpbd)});
  v(s.projective_iterations, {.key = "projective_iterations", .lo = 1, .hi = 10000, .label = "iterations",
                              .tip = "Local-global iterations per substep (Liu et al. 2013; "
                                     "Bouaziz et al. 2014): more come closer to backward Euler",
                              .log = true, .ui_lo = 1, .ui_hi = 200,
                              .integrators = used_by(IntegratorType::Projective)});
  v(s.vbd_iterations, {.key = "vbd_iterations", .lo = 1, .hi = 10000, .label = "iterations",
                       .tip = "Vertex block descent iterations per substep, each a Newton step per "
                              "vertex, colour by colour (Chen et al. 2024): more come closer to "
                              "backward Euler",
                       .log = true, .ui_lo = 1, .ui_hi = 200, .integrators = used_by(IntegratorType::Vbd)});
  v(s.chebyshev_rho, {.key = "chebyshev_rho", .lo = 0, .hi = 0.9999, .label = "Chebyshev rho",
                      .tip = "Estimated spectral radius of the iteration for Chebyshev acceleration "
                             "(Wang 2015; Chen et al. 2024, sec. 3.8; 0 = off; too high oscillates)",
                      .ui_lo = 0, .ui_hi = 0.9999,
                      .integrators = used_by(IntegratorType::Projective, IntegratorType::Vbd)});
  v(s.tolerance, {.key = "tolerance", .lo = 1e-14, .hi = 0.5, .label = "CG tolerance",
                  .tip = "Relative residual at which the modified PCG stops (Baraff & Witkin "
                         "1998, sec. 5.3)",
                  .log = true, .ui_lo = 1e-10, .ui_hi = 1e-2, .integrators = implicit});
  v(s.max_iterations, {.key = "max_iterations", .lo = 1, .hi = 100000, .label = "CG max iterations",
                       .tip = "Cap on conjugate-gradient iterations per solve", .log = true,
                       .ui_lo = 1, .ui_hi = 5000, .integrators = implicit});
  v(s.newton_iterations, {.key = "newton_iterations", .lo = 1, .hi = 20, .label = "Newton iterations",
                          .tip = "Newton iterations per step: 1 is Baraff & Witkin's linearised "
                                 "step (eq. 18), more solve backward Euler fully",
                          .ui_lo = 1, .ui_hi = 10, .integrators = implicit});
  v(s.direct_solve, {.key = "direct_solve", .label = "direct solve (LDLT)",
                     .tip = "Sparse direct solve instead of the PCG: slower, for comparison",
                     .integrators = implicit});
  v(s.preconditioner, {.key = "preconditioner",
                       .tip = "Of the modified PCG: diagonal (Baraff & Witkin's), block-Jacobi, "
                              "incomplete Cholesky, or two-level (incomplete Cholesky plus a "
                              "coarse solve)",
                       .integrators = implicit});
  v(s.threads, {.key = "threads", .lo = 0, .hi = kMaxThreads,
                .tip = "Threads of the solve (0 = all the machine offers); every count gives the "
                       "same result, bit for bit",
                .ui_lo = 1, .ui_hi = double(std::max(s.threads, available_threads())),
                .integrators = used_by(IntegratorType::Implicit, IntegratorType::Xpbd, IntegratorType::Vbd)});
}

/// Throws InputError naming the field for a value outside its declared range.
inline void validate_solver(const SolverSettings& solver) { visit_solver(RangeCheck("solver"), solver); }

/// The modified PCG's settings of the implicit step.
inline PcgSettings pcg_settings(const SolverSettings& s) {
  return {.tolerance = s.tolerance, .max_iterations = s.max_iterations,
          .preconditioner = s.preconditioner, .threads = s.threads};
}

}  // namespace cloth
