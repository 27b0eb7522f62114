// Static drape set-up from a running simulation, and the named methods of the CLI and UI.
#include <iterator>
#include <string_view>

#include "core/error.hpp"
#include "mesh/mesh.hpp"
#include "model/model.hpp"
#include "simulation/simulation.hpp"
#include "drape/drape_settings.hpp"
#include "drape/static_drape.hpp"
#include "drape/weil_drape.hpp"

namespace cloth {
namespace {

struct NamedOptions {
  const char* name;
  DrapeMethod method;
  RelaxOrder order;
  bool w_cycle;
};

constexpr NamedOptions kNamed[] = {
    {"newton", DrapeMethod::Newton, RelaxOrder::RedBlack, false},
    {"multigrid-v", DrapeMethod::Multigrid, RelaxOrder::RedBlack, false},
    {"multigrid-w", DrapeMethod::Multigrid, RelaxOrder::RedBlack, true},
    {"relax-red-black", DrapeMethod::Relaxation, RelaxOrder::RedBlack, false},
    {"relax-sequential", DrapeMethod::Relaxation, RelaxOrder::Sequential, false},
    {"relax-jacobi", DrapeMethod::Relaxation, RelaxOrder::Jacobi, false},
};

// kDrapeMethodNames (drape_settings.hpp) lists these names, then "geometric".
constexpr bool names_agree() {
  if (std::size(kDrapeMethodNames) != std::size(kNamed) + 1) return false;
  for (size_t i = 0; i < std::size(kNamed); ++i) {
    if (std::string_view(kNamed[i].name) != kDrapeMethodNames[i]) return false;
  }
  return std::string_view(kDrapeMethodNames[std::size(kNamed)]) == kGeometricDrapeName;
}
static_assert(names_agree());

}  // namespace

DrapeProblem drape_problem_from(const Simulation& sim) {
  std::vector<int> pinned;
  for (int i = 0; i < sim.model().vertex_count(); ++i) {
    if (sim.pins().is_pinned(i)) pinned.push_back(i);
  }
  return make_drape_problem(sim.model(), sim.gravity(), pinned, sim.colliders().all(), sim.state().x);
}

DrapeOptions drape_options_from_name(const std::string& name) {
  for (const NamedOptions& n : kNamed) {
    if (name != n.name) continue;
    DrapeOptions o;
    o.method = n.method;
    o.relax.order = n.order;
    o.multigrid.w_cycle = n.w_cycle;
    return o;
  }
  if (name == kGeometricDrapeName) {
    throw InputError("drape method \"geometric\" is Weil's geometric model, run by geometric_drape, "
                     "not an energy minimiser with options");
  }
  std::string list;
  for (const std::string& n : drape_method_names()) list += (list.empty() ? "" : ", ") + n;
  throw InputError("unknown drape method \"" + name + "\" (" + list + ")");
}

DrapeOptions drape_options(const DrapeSettings& s) {
  const DrapeOptions named = drape_options_from_name(s.method);
  DrapeOptions o = s.options;
  o.method = named.method;
  o.relax.order = named.relax.order;
  o.multigrid.w_cycle = named.multigrid.w_cycle;
  return o;
}

std::vector<std::string> drape_option_names() {
  std::vector<std::string> names;
  for (const NamedOptions& n : kNamed) names.emplace_back(n.name);
  return names;
}

std::vector<std::string> drape_method_names() {
  return {std::begin(kDrapeMethodNames), std::end(kDrapeMethodNames)};
}

SpringMaterial curtain_material() {
  SpringMaterial m;
  m.density = 0.2;   // kg/m^2
  m.stretch = 200;   // N/m
  m.shear = 60;
  m.bending = 1e-4;  // N*m
  m.diagonal_ratio = 0.5;
  m.buckling = 1e-6;  // m^2 (the default)
  return m;
}

DrapeProblem curtain_drape_problem(int n) {
  GridSpec g;
  g.width = g.height = 0.5;
  g.nx = g.ny = n;
  g.plane = GridPlane::XY;
  g.center = Vec3(0, 1, 0);
  std::vector<int> pins;
  for (int i = 0; i < n; ++i) pins.push_back(i);  // row j = 0 is the top edge
  return make_drape_problem(build_model(make_grid(g), curtain_material(), ModelType::Feynman),
                            Vec3(0, -9.81, 0), pins);
}

}  // namespace cloth
