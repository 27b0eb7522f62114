#pragma once
// Side-by-side comparison: one scene run 2..4 times at once, each copy (a "pane") with its own
// overrides of the scene's fields -- explicit vs implicit at the same time step, a stiffness or a
// damping sweep. It is the classroom form of Baraff & Witkin's claim (1998, section 1): the
// implicit method takes steps at which the explicit one blows up.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cloth {

struct ComparePane {
  std::string label;                   ///< shown over the pane
  std::vector<std::string> overrides;  ///< "key=value" (the --set syntax), applied in order
};

constexpr int kMinComparePanes = 2;
constexpr int kMaxComparePanes = 4;  ///< four viewports still show a cloth large enough to read

/// The scene file's "compare" array: [{"label": "explicit", "set": {"solver.integrator":
/// "explicit"}}, ...]. A pane without a label is named by its overrides. Throws InputError.
std::vector<ComparePane> parse_compare(const nlohmann::json& node);

/// --compare KEY=V1,V2[,V3[,V4]]: one pane per value, labelled "KEY=Vi". Commas inside [] or {}
/// belong to the value, so --compare forces.gravity=[0,-9.81,0],[0,-1.62,0] works. Throws
/// InputError.
std::vector<ComparePane> compare_sweep(const std::string& spec);

}  // namespace cloth
