#pragma once
// The panel's scale for a projector (presentation mode): text and widgets drawn at 13 px times
// the scale, in steps of a quarter, Ctrl + / Ctrl - / Ctrl 0 (app.cpp), kept in settings.json.
namespace app {

inline constexpr float kUiScaleMin = 0.75f;
inline constexpr float kUiScaleMax = 3.0f;
inline constexpr float kUiScaleStep = 0.25f;
inline constexpr float kUiFontPx = 13.0f;  ///< ImGui's built-in font at scale 1

/// `scale` moved by `steps` quarter steps (negative: smaller), on the quarter grid and clamped to
/// [kUiScaleMin, kUiScaleMax]; a value that is not a finite number gives 1.
float stepped_ui_scale(float scale, int steps);

}  // namespace app
