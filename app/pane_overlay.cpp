#include "pane_overlay.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace app {
namespace {

const ImU32 kLabelBackground = IM_COL32(20, 22, 26, 190);
const ImU32 kLabelText = IM_COL32(240, 240, 240, 255);
const ImU32 kBlowUpText = IM_COL32(255, 110, 90, 255);
const ImU32 kActiveFrame = IM_COL32(255, 200, 60, 255);
constexpr float kPad = 6.0f;

/// "implicit, dt 16.7 ms x 1, 3.2 ms/frame".
std::string describe(const PaneSummary& p) {
  const cloth::SolverSettings& s = p.sim.solver();
  char line[160];
  std::snprintf(line, sizeof line, "%s, dt %.3g ms x %d, %.1f ms/frame", cloth::name_of(s.integrator),
                s.dt * 1e3, s.substeps, p.sim_ms);
  return line;
}

}  // namespace

void draw_pane_labels(const std::vector<PaneSummary>& panes) {
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  for (const PaneSummary& p : panes) {
    const std::string detail = describe(p);
    const int blow_ups = p.sim.instabilities();
    char warning[64] = "";
    if (blow_ups > 0) std::snprintf(warning, sizeof warning, "blew up %d times (recovered)", blow_ups);

    const float line = ImGui::GetTextLineHeight();
    const ImVec2 size = ImGui::CalcTextSize(p.label.c_str());
    float width = std::max(size.x, ImGui::CalcTextSize(detail.c_str()).x);
    if (blow_ups > 0) width = std::max(width, ImGui::CalcTextSize(warning).x);
    const int lines = blow_ups > 0 ? 3 : 2;
    // Top-right of the pane: the control panel covers the first pane's left side.
    const ImVec2 origin(float(p.rect.left + p.rect.width) - kPad - width - 2 * kPad,
                        float(p.rect.top) + kPad);
    draw->AddRectFilled(origin, ImVec2(origin.x + width + 2 * kPad, origin.y + lines * line + 2 * kPad),
                        kLabelBackground, 4.0f);
    ImVec2 text(origin.x + kPad, origin.y + kPad);
    draw->AddText(text, kLabelText, p.label.c_str());
    text.y += line;
    draw->AddText(text, kLabelText, detail.c_str());
    if (blow_ups > 0) draw->AddText(ImVec2(text.x, text.y + line), kBlowUpText, warning);
    if (p.active) {
      draw->AddRect(ImVec2(float(p.rect.left) + 1, float(p.rect.top) + 1),
                    ImVec2(float(p.rect.left + p.rect.width) - 1, float(p.rect.top + p.rect.height) - 1),
                    kActiveFrame, 0.0f, 0, 2.0f);
    }
  }
}

int compare_section(const std::vector<PaneSummary>& panes) {
  int picked = -1;
  ImGui::TextWrapped("The panels edit the framed pane; click a pane (or pick it here) to edit it.");
  for (size_t k = 0; k < panes.size(); ++k) {
    if (ImGui::RadioButton(panes[k].label.c_str(), panes[k].active)) picked = int(k);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Edit this pane with the panels below");
  }
  return picked;
}

}  // namespace app
