#include "ui/picture_overlay.hpp"

#include <cfloat>
#include <cstdio>

#include "render/heat_map.hpp"

namespace app {

namespace {

// Text in the picture is larger than the panel's: it is read from the back of a room or in a
// video scaled down.
constexpr float kTextScale = 1.5f;
const ImU32 kBackdrop = IM_COL32(0, 0, 0, 150);
const ImU32 kText = IM_COL32(255, 255, 255, 255);
const ImU32 kStatusText = IM_COL32(255, 120, 100, 255);  // REC red, readable on the backdrop

}  // namespace

void draw_heat_bar(ImDrawList* draw, ImVec2 origin, ImVec2 size) {
  constexpr int kSteps = 48;
  for (int k = 0; k < kSteps; ++k) {
    const glm::vec3 c = heat_color((float(k) + 0.5f) / kSteps);
    draw->AddRectFilled(ImVec2(origin.x + size.x * k / kSteps, origin.y),
                        ImVec2(origin.x + size.x * (k + 1) / kSteps, origin.y + size.y),
                        ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f)));
  }
}

void draw_picture_overlay(const std::string& caption, float heat_map_top, const PaneRect& picture,
                          const std::string& badge, const std::string& status) {
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  ImFont* font = ImGui::GetFont();
  const float text_px = ImGui::GetFontSize() * kTextScale, pad = 0.5f * text_px;
  const float left = float(picture.left), width = float(picture.width);
  const float bottom = float(picture.top + picture.height);
  if (!badge.empty()) {
    const ImVec2 size = font->CalcTextSizeA(text_px, FLT_MAX, 0, badge.c_str());
    const ImVec2 at(left + width - size.x - 2 * pad, float(picture.top) + 2 * pad);
    draw->AddRectFilled(ImVec2(at.x - pad, at.y - pad), ImVec2(at.x + size.x + pad, at.y + size.y + pad), kBackdrop, pad);
    draw->AddText(font, text_px, at, kText, badge.c_str());
  }
  if (!status.empty()) {  // centred above the caption's line: the panes' labels hold the top
    const ImVec2 size = font->CalcTextSizeA(text_px, FLT_MAX, 0, status.c_str());
    const ImVec2 at(left + 0.5f * (width - size.x), bottom - 2 * size.y - 4 * pad);
    draw->AddRectFilled(ImVec2(at.x - pad, at.y - pad), ImVec2(at.x + size.x + pad, at.y + size.y + pad), kBackdrop, pad);
    draw->AddText(font, text_px, at, kStatusText, status.c_str());
  }
  float legend_width = 0;
  if (heat_map_top > 0) {
    legend_width = 12.0f * text_px;
    const ImVec2 bar(left + width - legend_width - pad, bottom - 2.5f * text_px - pad);
    draw->AddRectFilled(ImVec2(bar.x - pad, bar.y - 1.6f * text_px), ImVec2(bar.x + legend_width + pad, bottom),
                        kBackdrop, pad);
    draw->AddText(font, text_px, ImVec2(bar.x, bar.y - 1.3f * text_px), kText, "edge strain");
    draw_heat_bar(draw, bar, ImVec2(legend_width, text_px));
    char label[32];
    draw->AddText(font, text_px, ImVec2(bar.x, bar.y + 1.1f * text_px), kText, "0 %");
    std::snprintf(label, sizeof label, "%.1f %%+", 100.0f * heat_map_top);
    const float w = font->CalcTextSizeA(text_px, FLT_MAX, 0, label).x;
    draw->AddText(font, text_px, ImVec2(bar.x + legend_width - w, bar.y + 1.1f * text_px), kText, label);
  }
  if (caption.empty()) return;
  // Wrapped to the width left of the legend, one backdrop behind all its lines.
  const float wrap = width - legend_width - 4 * pad;
  if (wrap <= text_px) return;
  const ImVec2 size = font->CalcTextSizeA(text_px, FLT_MAX, wrap, caption.c_str());
  const ImVec2 at(left + 2 * pad, bottom - size.y - 2 * pad);
  draw->AddRectFilled(ImVec2(at.x - pad, at.y - pad), ImVec2(at.x + size.x + pad, at.y + size.y + pad), kBackdrop, pad);
  draw->AddText(font, text_px, at, kText, caption.c_str(), nullptr, wrap);
}

}  // namespace app
