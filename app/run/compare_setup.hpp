#pragma once
// The panel's side-by-side setup: a parameter to vary and 2..4 values for it, turned into the
// --compare spec (KEY=V1,V2[,..]) that the app loads the running scene with. Each key comes with
// values that show its effect on any shipped scene; the user edits them before starting.
#include <array>
#include <string>
#include <vector>

#include "io/compare_panes.hpp"

namespace app {

struct ComparePreset {
  std::string key;                  ///< a scene parameter, as in --set
  std::vector<std::string> values;  ///< suggested values, 2..4
};

/// The keys the panel offers, each with its suggested values.
const std::vector<ComparePreset>& compare_presets();

/// What the panel's fields hold: the key and up to four values ("" = unused field).
struct CompareDraft {
  std::string key;
  std::array<std::string, cloth::kMaxComparePanes> values;
};

/// The draft of preset k (its key and suggested values).
CompareDraft compare_draft(int preset);

/// The --compare spec of the draft: its key and non-empty values, trimmed, in order. Throws
/// cloth::InputError (one line) when fewer than two values are given or one has a comma outside
/// brackets (it would split into two panes). Whether the key and values fit the scene is the
/// load's check.
std::string compare_spec(const CompareDraft& draft);

}  // namespace app
