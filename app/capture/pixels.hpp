#pragma once
// Reading rendered pixels back and saving them (screenshots, video frames).
#include <cstdint>
#include <string>
#include <vector>

namespace app {

/// Reads a w x h RGB block at (0, 0) of the bound read framebuffer and returns it top row first
/// (GL returns the bottom row first; PNG and ffmpeg want the top row first).
std::vector<std::uint8_t> read_rgb_top_down(int w, int h);

/// Writes tightly packed top-down RGB as PNG (stb_image_write). Throws std::runtime_error.
void write_png(const std::string& path, int w, int h, const std::vector<std::uint8_t>& rgb);

}  // namespace app
