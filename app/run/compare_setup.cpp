#include "run/compare_setup.hpp"

#include "core/error.hpp"

namespace app {

const std::vector<ComparePreset>& compare_presets() {
  // The classroom's comparisons: Baraff & Witkin 1998's implicit step beside the local-global
  // (2013), XPBD (2016) and vertex block descent (2024) solvers; the material models; the
  // step size; and the material and air parameters in SI units around the shipped cotton.
  static const std::vector<ComparePreset> presets = {
      {"solver.integrator", {"implicit", "projective", "vbd", "xpbd"}},
      {"cloth.model", {"springs", "baraff-witkin", "edge-area", "feynman"}},
      {"solver.substeps", {"1", "4", "16"}},
      {"solver.dt", {"0.0166667", "0.00833333", "0.00416667"}},
      {"cloth.material.stretch", {"500", "5000", "50000"}},
      {"cloth.material.bending", {"1e-06", "1e-05", "0.0001"}},
      {"cloth.material.damping", {"0", "0.02", "0.2"}},
      {"forces.air_density", {"0", "1.2"}},
  };
  return presets;
}

CompareDraft compare_draft(int preset) {
  const ComparePreset& p = compare_presets().at(size_t(preset));
  CompareDraft draft{.key = p.key, .values = {}};
  for (size_t i = 0; i < p.values.size() && i < draft.values.size(); ++i)
    draft.values[i] = p.values[i];
  return draft;
}

namespace {

std::string trimmed(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

bool has_top_level_comma(const std::string& value) {
  int depth = 0;
  for (char c : value) {
    if (c == '[' || c == '{') ++depth;
    if ((c == ']' || c == '}') && depth > 0) --depth;
    if (c == ',' && depth == 0) return true;
  }
  return false;
}

}  // namespace

std::string compare_spec(const CompareDraft& draft) {
  const std::string key = trimmed(draft.key);
  if (key.empty()) throw cloth::InputError("side by side: choose the parameter to compare");
  std::string spec = key + "=";
  int count = 0;
  for (const std::string& raw : draft.values) {
    const std::string value = trimmed(raw);
    if (value.empty()) continue;
    if (has_top_level_comma(value))
      throw cloth::InputError("side by side: one value per field ('" + value + "' has a comma)");
    spec += (count++ ? "," : "") + value;
  }
  if (count < cloth::kMinComparePanes)
    throw cloth::InputError("side by side: give " + key + " at least two values");
  return spec;
}

}  // namespace app
