#include "io/compare_panes.hpp"

#include "core/error.hpp"

namespace cloth {
namespace {

void check_count(size_t n, const std::string& where) {
  if (n < size_t(kMinComparePanes) || n > size_t(kMaxComparePanes)) {
    throw InputError(where + " needs " + std::to_string(kMinComparePanes) + " to " +
                     std::to_string(kMaxComparePanes) + " panes, got " + std::to_string(n));
  }
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

/// Splits at the commas that are not inside brackets or braces.
std::vector<std::string> split_top_level(const std::string& text) {
  std::vector<std::string> parts(1);
  int depth = 0;
  for (const char c : text) {
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

}  // namespace

std::vector<ComparePane> parse_compare(const nlohmann::json& node) {
  if (!node.is_array()) throw InputError("compare must be an array of panes");
  check_count(node.size(), "compare");
  std::vector<ComparePane> panes;
  for (size_t k = 0; k < node.size(); ++k) {
    const std::string where = "compare." + std::to_string(k);
    const nlohmann::json& p = node[k];
    if (!p.is_object()) throw InputError(where + " must be an object with 'label' and 'set'");
    for (const auto& [key, value] : p.items()) {
      if (key != "label" && key != "set") {
        throw InputError(where + ": unknown key '" + key + "' (a pane has 'label' and 'set')");
      }
    }
    ComparePane pane;
    if (p.contains("set")) {
      const nlohmann::json& set = p.at("set");
      if (!set.is_object()) throw InputError(where + ".set must be an object of \"key\": value");
      for (const auto& [key, value] : set.items()) pane.overrides.push_back(key + "=" + value.dump());
    }
    if (p.contains("label")) {
      if (!p.at("label").is_string()) throw InputError(where + ".label must be a string");
      pane.label = p.at("label").get<std::string>();
    } else {
      pane.label = pane.overrides.empty() ? "as the scene" : joined(pane.overrides);
    }
    panes.push_back(std::move(pane));
  }
  return panes;
}

std::vector<ComparePane> compare_sweep(const std::string& spec) {
  const size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
    throw InputError("--compare expects KEY=V1,V2[,V3[,V4]], got \"" + spec + "\"");
  }
  const std::string key = spec.substr(0, eq);
  const std::vector<std::string> values = split_top_level(spec.substr(eq + 1));
  check_count(values.size(), "--compare " + key);
  std::vector<ComparePane> panes;
  for (const std::string& v : values) {
    if (v.empty()) throw InputError("--compare " + key + ": an empty value");
    panes.push_back(ComparePane{key + "=" + v, {key + "=" + v}});
  }
  return panes;
}

}  // namespace cloth
