// Ui::build_stepping: the window while steps slower than PaneRunner::kStepWait run on the step worker.
// Nothing here reads a simulation: the worker is writing them.
#include <imgui.h>

#include <cfloat>
#include <cstdio>
#include <string>

#include "ui/parameter_widgets.hpp"
#include "ui/picture_overlay.hpp"
#include "ui/ui.hpp"

namespace app {

SteppingActions Ui::build_stepping(StepProgress& progress, double now, UiState& state, const UiStats& stats) {
  SteppingActions actions;
  const double running = now - progress.started_at;
  char line[200];
  std::snprintf(line, sizeof line, "computing a step: %.1f s so far (%s)", running, progress.what.c_str());
  std::string status = stats.quit_asked ? std::string("Esc again to quit (after the step)   ") + line : line;
  if (stats.recording) status = "REC   " + status;
  {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    const float left = panel_docked_ ? panel_rect_.left + panel_rect_.width : 0.0f;
    const PaneRect picture{vp->Pos.x + left, vp->Pos.y, vp->Size.x - left, vp->Size.y};
    draw_picture_overlay(state.view.caption ? stats.caption : "", 0.0f, picture, "", status);
  }
  // In the panel's place and at its width (steps start once it has one: panel_laid_out), never
  // wider for its own content, so that the panes beside it keep their place.
  ImGui::SetNextWindowPos(ImVec2(panel_rect_.left, panel_rect_.top), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(panel_rect_.width, 0), ImVec2(panel_rect_.width, FLT_MAX));
  ImGui::Begin("clothsim (computing a step)", nullptr,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_AlwaysAutoResize);
  const ImVec2 size = ImGui::GetWindowSize();
  panel_rect_.height = size.y;  // covers() keeps clicks on this window away from the cloth
  // The controls first, where they stay whatever the lines below say.
  if (ImGui::Button(state.paused ? "Play (Space)" : "Pause (Space)")) state.paused = !state.paused;
  ImGui::SameLine();
  actions.reset = ImGui::Button("Reset after this step (R)");
  // The Simulation section's own widgets, on the settings the steps began with: a change
  // applies when the step ends, as the panel's would between steps.
  ParameterWidgets widgets(progress.model, progress.solver.integrator);
  cloth::visit_solver(widgets, progress.solver);
  if (widgets.changed()) actions.solver = progress.solver;
  ImGui::Spacing();
  error_line(stats.scene_error);
  ImGui::TextWrapped("%s: this step has run %.1f s.", progress.what.c_str(), running);
  if (progress.last_seconds > kSlowStepNote)
    ImGui::TextWrapped("The last one took %.1f s.", progress.last_seconds);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(state.paused ? "Paused: the whole panel comes back when this step ends."
                                  : "These settings apply when this step ends; the whole panel comes back "
                                    "when the steps are faster or paused. Keys and clicks on the cloth "
                                    "wait for the step too.");
  ImGui::PopStyleColor();
  ImGui::End();
  return actions;
}

}  // namespace app
