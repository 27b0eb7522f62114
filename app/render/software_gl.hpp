#pragma once
// Whether the GL renderer rasterises on the CPU. Mesa's llvmpipe and softpipe (and Google's
// SwiftShader) do every sample's coverage, depth and blending on the CPU, so 4x multisampling
// about doubles a 1280 x 720 frame there (146 -> 68 ms on a loaded 2-core machine, with the
// panel, ground, shadow and sphere; bench/README.md, "App frame"); the interactive window does
// without it on such a renderer. GL-free: it reads the GL_RENDERER string.
#include <string>

namespace app {

/// True for a GL_RENDERER string of a CPU rasteriser ("llvmpipe (LLVM 15.0.6, 256 bits)",
/// "softpipe", "SwiftShader ..."); case-insensitive.
bool is_software_renderer(const std::string& gl_renderer);

}  // namespace app
