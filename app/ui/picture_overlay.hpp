#pragma once
// What a picture carries for a room or a video, drawn into the frame itself (ImGui's background
// draw list, under the panel) so that screenshots and recordings show it: the scene's caption
// (its name, which says what the scene shows) along the bottom, and, with the strain heat map on,
// the heat map's colour legend in the bottom-right corner, a badge in the top-right corner
// (the replay's "replay t = ..."), and the run's state centred above the caption (REC, paused,
// slower than real time, "Esc again to quit"). The window and headless videos draw the same (--view caption).
#include <string>

#include <imgui.h>

#include "run/pane_layout.hpp"

namespace app {

/// The heat map's scale as a bar of small steps of heat_color from `origin` (screen px), `size`
/// wide and high; the panel's legend and the picture's share it.
void draw_heat_bar(ImDrawList* draw, ImVec2 origin, ImVec2 size);

/// The caption, (heat_map_top > 0: the heat map is on) the legend and (non-empty) the badge and
/// the status over `picture`, in window px. `heat_map_top`: the strain shown in red, dimensionless.
void draw_picture_overlay(const std::string& caption, float heat_map_top, const PaneRect& picture,
                          const std::string& badge, const std::string& status = "");

}  // namespace app
