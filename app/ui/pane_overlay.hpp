#pragma once
// The side-by-side panes in the UI: a label over each pane (its overrides, integrator, step,
// cost, blow-ups; the pane the panels edit is framed) and the "Compare" section that picks the
// pane to edit.
#include <string>
#include <vector>

#include "simulation/simulation_view.hpp"
#include "run/pane_layout.hpp"

namespace app {

/// What the UI shows of one pane.
struct PaneSummary {
  std::string label;
  PaneRect rect;  ///< window coordinates
  cloth::SimulationView sim;
  double sim_ms = 0;  ///< wall time of its steps in the last displayed frame, ms
  bool active = false;
};

/// Draws, behind the ImGui windows, a stopped pane's "DIVERGED" banner and, side by side, the
/// labels and the active pane's frame.
void draw_pane_labels(const std::vector<PaneSummary>& panes);

/// The Compare section's body; returns the pane picked to edit, or -1.
int compare_section(const std::vector<PaneSummary>& panes);

}  // namespace app
