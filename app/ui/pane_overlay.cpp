#include "ui/pane_overlay.hpp"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <string>

namespace app {
namespace {

const ImU32 kLabelBackground = IM_COL32(20, 22, 26, 190);
const ImU32 kLabelText = IM_COL32(240, 240, 240, 255);
const ImU32 kBlowUpText = IM_COL32(255, 110, 90, 255);
const ImU32 kActiveFrame = IM_COL32(255, 200, 60, 255);
constexpr float kPad = 6.0f;

/// "implicit, dt 16.7 ms x 1, 3.2 ms/frame"; "x 40 auto" when the stability bound chose them,
/// "x 128 raised" while a blow-up recovery runs more than the user's.
std::string describe(const PaneSummary& p) {
  const cloth::SolverSettings& s = p.sim.solver();
  const int substeps = p.sim.substeps();
  const char* why = substeps != s.substeps ? (s.substeps == 0 && !p.sim.substeps_raised() ? " auto" : " raised") : "";
  char line[160];
  std::snprintf(line, sizeof line, "%s, dt %.3g ms x %d%s, %.1f ms/frame", cloth::name_of(s.integrator),
                s.dt * 1e3, substeps, why, p.sim_ms);
  return line;
}

/// The red line: where a stopped run diverged, or how often the guard recovered.
std::string warning_of(const PaneSummary& p) {
  if (!p.sim.divergence().empty()) return "DIVERGED: stopped (R restarts)";  // the banner says where
  const int blow_ups = p.sim.instabilities();
  if (blow_ups == 0) return "";
  return "blew up " + std::to_string(blow_ups) + (blow_ups == 1 ? " time" : " times") +
         (p.sim.substeps_raised() ? " (recovered with more substeps)" : " (recovered)");
}

/// A stopped run's "DIVERGED" in large letters across the middle of its pane: the lesson of a
/// classroom scene must be seen from the back of the room, not read in a label.
void draw_stopped_banner(ImDrawList* draw, const PaneSummary& p) {
  const char* title = "DIVERGED";
  const float size = 2.5f * ImGui::GetFontSize();
  ImFont* font = ImGui::GetFont();
  const ImVec2 title_size = font->CalcTextSizeA(size, FLT_MAX, 0.0f, title);
  const std::string& why = p.sim.divergence();
  // The reason wraps to the pane: a narrow pane of a side-by-side set must still hold it.
  const float wrap = std::max(title_size.x, float(p.rect.width) - 8 * kPad);
  const ImVec2 why_size = font->CalcTextSizeA(ImGui::GetFontSize(), FLT_MAX, wrap, why.c_str());
  const float width = std::max(title_size.x, why_size.x) + 4 * kPad;
  const float height = title_size.y + why_size.y + 3 * kPad;
  const ImVec2 centre(float(p.rect.left) + 0.5f * float(p.rect.width), float(p.rect.top) + 0.5f * float(p.rect.height));
  const ImVec2 corner(centre.x - 0.5f * width, centre.y - 0.5f * height);
  draw->AddRectFilled(corner, ImVec2(corner.x + width, corner.y + height), kLabelBackground, 6.0f);
  draw->AddText(font, size, ImVec2(centre.x - 0.5f * title_size.x, corner.y + kPad), kBlowUpText, title);
  draw->AddText(font, ImGui::GetFontSize(), ImVec2(corner.x + 2 * kPad, corner.y + 2 * kPad + title_size.y), kLabelText,
                why.c_str(), nullptr, wrap);
}

}  // namespace

void draw_pane_labels(const std::vector<PaneSummary>& panes) {
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  for (const PaneSummary& p : panes) {
    if (!p.sim.divergence().empty()) draw_stopped_banner(draw, p);
    if (panes.size() < 2) continue;  // a single pane's settings are in the panel
    const std::string detail = describe(p);
    const std::string warning = warning_of(p);

    const float line = ImGui::GetTextLineHeight();
    const ImVec2 size = ImGui::CalcTextSize(p.label.c_str());
    float width = std::max(size.x, ImGui::CalcTextSize(detail.c_str()).x);
    if (!warning.empty()) width = std::max(width, ImGui::CalcTextSize(warning.c_str()).x);
    const int lines = warning.empty() ? 2 : 3;
    // Top-right of the pane: the control panel covers the first pane's left side.
    const ImVec2 origin(std::max(float(p.rect.left) + kPad, float(p.rect.left + p.rect.width) - kPad - width - 2 * kPad),
                        float(p.rect.top) + kPad);
    draw->AddRectFilled(origin, ImVec2(origin.x + width + 2 * kPad, origin.y + lines * line + 2 * kPad),
                        kLabelBackground, 4.0f);
    ImVec2 text(origin.x + kPad, origin.y + kPad);
    draw->AddText(text, kLabelText, p.label.c_str());
    text.y += line;
    draw->AddText(text, kLabelText, detail.c_str());
    if (!warning.empty()) draw->AddText(ImVec2(text.x, text.y + line), kBlowUpText, warning.c_str());
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
