// The replay's ImGui controls (replay_timeline.hpp).
#include "ui/replay_timeline.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

namespace app {

void replay_timeline_window(ReplayPlayer& player, const cloth::ReplayBuffer& timeline, const PaneRect& picture) {
  if (!player.active() || timeline.empty()) return;
  const float pad = ImGui::GetStyle().WindowPadding.x;
  // Across the picture, right-aligned; wide enough for its controls even beside a wide panel.
  const float width = std::max(float(picture.width) - 4 * pad, 36 * ImGui::GetFontSize());
  ImGui::SetNextWindowPos(ImVec2(float(picture.left + picture.width) - 2 * pad, float(picture.top + picture.height) - pad),
                          ImGuiCond_Always, ImVec2(1, 1));
  ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Always);
  ImGui::Begin("Replay", nullptr,
               ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                   ImGuiWindowFlags_NoSavedSettings);
  if (ImGui::Button(player.playing() ? "Pause" : "Play")) player.toggle_play(timeline);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play / pause the replay (Space); Home plays from the start");
  ImGui::SameLine();
  if (ImGui::Button("Live")) player.leave();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Back to the running simulation, where it was (End)");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(10 * ImGui::GetFontSize());
  ImGui::SliderFloat("speed##replay", &player.speed, 0.05f, 1.0f, "%.2f x", ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Replayed seconds per real second; a video recorded now plays at this speed");
  ImGui::SameLine();
  ImGui::TextDisabled("%d frames, %.1f s held; Left / Right: one frame", timeline.size(), timeline.seconds_held());

  float t = float(player.time());
  ImGui::SetNextItemWidth(-1);
  if (ImGui::SliderFloat("##replay time", &t, float(timeline.oldest_time()), float(timeline.newest_time()),
                         "t = %.2f s"))
    player.show(timeline, t);
  ImGui::End();
}

std::string replay_badge(const ReplayPlayer& player) {
  if (!player.active()) return "";
  char text[64];
  std::snprintf(text, sizeof text, "replay  t = %.2f s  %.2fx", player.time(), player.speed);
  return text;
}

}  // namespace app
