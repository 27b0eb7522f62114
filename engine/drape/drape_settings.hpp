#pragma once
// The static drape's scene parameters ("drape" in a scene file: the app's Static drape section,
// saved with the scene; --drape and --drape-tolerance for the headless run), declared once
// (core/parameter.hpp).
#include <string>
#include <string_view>

#include "core/enum_names.hpp"
#include "core/parameter.hpp"
#include "drape/static_drape.hpp"
#include "drape/weil_drape.hpp"

namespace cloth {

/// The drape methods by name, as --drape and the app list them: drape_option_names(), then Weil's
/// geometric model (drape_method_names() in this order).
inline constexpr const char* kDrapeMethodNames[] = {"newton",          "multigrid-v",      "multigrid-w",
                                                    "relax-red-black", "relax-sequential", "relax-jacobi",
                                                    kGeometricDrapeName};

struct DrapeSettings {
  std::string method = "multigrid-v";  ///< one of kDrapeMethodNames
  /// The minimiser's options. The method's name sets their method, relax.order and
  /// multigrid.w_cycle (drape_options); the rest are the scene's. The stop rule defaults to
  /// 1e-5 N here, as the app and --drape-tolerance always had.
  DrapeOptions options = [] {
    DrapeOptions o;
    o.force_tolerance = 1e-5;
    return o;
  }();
};

/// Calls v(field, ParamInfo) for each parameter of "drape" (DrapeSettings, const or not).
template <class Visitor, class Settings>
void visit_drape(Visitor&& v, Settings& s) {
  const std::string_view method = s.method;
  const bool geometric = method == kGeometricDrapeName;
  const bool multigrid = method.starts_with("multigrid");
  const bool relaxes = multigrid || method.starts_with("relax");  // multigrid smooths by relaxation
  auto& o = s.options;
  v(Choice{s.method, kDrapeMethodNames},
    {.key = "method", .label = "drape method",
     .tip = "Feynman's minimisers (point relaxation in three orders, multigrid V / W cycles) and "
            "Newton's method, on the same energy; geometric: Weil's catenaries from the pinned "
            "border vertices with the interior averaged (no physics: a quick starting shape)"});
  v(o.force_tolerance, {.key = "force_tolerance", .unit = "N", .lo = 1e-15, .hi = 1e3, .label = "tolerance",
                        .tip = "Stop when the largest residual force on a free vertex is below this",
                        .log = true, .ui_lo = 1e-9, .ui_hi = 1e-2, .visible = !geometric});
  v(o.max_iterations, {.key = "max_iterations", .lo = 1, .hi = 100000, .label = "max iterations",
                       .tip = "Cap on relaxation sweeps, multigrid cycles or Newton iterations",
                       .log = true, .visible = !geometric});
  v(o.relax.perturbation_deg,
    {.key = "perturbation_deg", .unit = "deg", .lo = 0, .hi = 45, .label = "perturbation",
     .tip = "Feynman 1986, sec. 4.1: mean random turn of each point's force direction in a "
            "relaxation sweep",
     .visible = relaxes});
  v(o.relax.seed, {.key = "seed", .lo = 0, .hi = 2147483647, .label = "perturbation seed",
                   .tip = "Seed of the perturbation's random generator", .ui_lo = 0, .ui_hi = 100,
                   .visible = relaxes});
  v(o.multigrid.k1, {.key = "k1", .lo = 0, .hi = 100000, .label = "multigrid k1",
                     .tip = "Feynman 1986, sec. 6.1: fine sweeps before coarsening", .ui_lo = 0,
                     .ui_hi = 20, .visible = multigrid});
  v(o.multigrid.k2, {.key = "k2", .lo = 0, .hi = 100000, .label = "multigrid k2",
                     .tip = "Sweeps after the (first) refinement", .ui_lo = 0, .ui_hi = 20,
                     .visible = multigrid});
  v(o.multigrid.k3, {.key = "k3", .lo = 0, .hi = 100000, .label = "multigrid k3",
                     .tip = "W cycle: sweeps after the second refinement", .ui_lo = 0, .ui_hi = 20,
                     .visible = method == "multigrid-w"});
  v(o.multigrid.kc, {.key = "kc", .lo = 1, .hi = 100000, .label = "multigrid kc",
                     .tip = "Sweeps on the coarsest grid (the thesis used 10)", .ui_lo = 1, .ui_hi = 100,
                     .visible = multigrid});
  v(o.multigrid.coarsest, {.key = "coarsest", .lo = 3, .hi = 100000, .label = "coarsest side",
                           .tip = "Stop coarsening when a side has at most this many points",
                           .ui_lo = 3, .ui_hi = 65, .visible = multigrid});
  v(o.multigrid.interpolation, {.key = "interpolation", .label = "interpolation",
                                .tip = "Sec. 6.2: of the coarse correction, cubic or bilinear",
                                .visible = multigrid});
  v(o.multigrid.source_term, {.key = "source_term", .label = "FAS source term",
                              .tip = "Brandt's tau: the coarse problem keeps a converged fine grid "
                                     "where it is (false: the thesis's literal scheme)",
                              .visible = multigrid});
  v(o.multigrid.line_search, {.key = "line_search", .label = "line search",
                              .tip = "Scale each interpolated correction by a parabola line search "
                                     "on the fine energy (the safeguard sec. 6.3 lacked)",
                              .visible = multigrid});
}

inline constexpr NamedValue<Interpolation> kInterpolationNames[] = {
    {Interpolation::Bilinear, "bilinear"},
    {Interpolation::Cubic, "cubic"},
};
constexpr std::span<const NamedValue<Interpolation>> value_names(Interpolation) { return kInterpolationNames; }

/// The minimiser's options of `s`: drape_options_from_name(s.method) with the scene's values.
/// Throws InputError for "geometric" (geometric_drape takes no options) or an unknown name.
DrapeOptions drape_options(const DrapeSettings& s);

}  // namespace cloth
