#version 330 core
// Each line segment as a screen-aligned quad u_line_width_px wide: core-profile GL draws lines
// one pixel wide at most (wider ones are deprecated), too thin to read from the back of a room,
// so the arrows follow the presentation scale here (Renderer::set_marker_scale).
layout(lines) in;
layout(triangle_strip, max_vertices = 4) out;

uniform vec2 u_viewport_px;     // the pane's size, px
uniform float u_line_width_px;  // px

in vec3 v_color[];
out vec3 g_color;

// Clip-space w below which a point counts as behind the eye.
const float kNearW = 1e-4;

void main() {
  vec4 a = gl_in[0].gl_Position;
  vec4 b = gl_in[1].gl_Position;
  if (a.w < kNearW && b.w < kNearW) return;  // wholly behind the eye
  // A segment through the eye's plane is cut there, so it cannot flip across the screen.
  if (a.w < kNearW) a = mix(a, b, (kNearW - a.w) / (b.w - a.w));
  if (b.w < kNearW) b = mix(b, a, (kNearW - b.w) / (a.w - b.w));
  vec2 dir = (b.xy / b.w - a.xy / a.w) * u_viewport_px;  // px
  float len = length(dir);
  dir = len > 1e-6 ? dir / len : vec2(1.0, 0.0);
  // Half the width each side, from px back to normalised device units (times w for clip space).
  vec2 offset = vec2(-dir.y, dir.x) * u_line_width_px / u_viewport_px;
  g_color = v_color[0];
  gl_Position = vec4(a.xy + offset * a.w, a.zw);
  EmitVertex();
  gl_Position = vec4(a.xy - offset * a.w, a.zw);
  EmitVertex();
  g_color = v_color[1];
  gl_Position = vec4(b.xy + offset * b.w, b.zw);
  EmitVertex();
  gl_Position = vec4(b.xy - offset * b.w, b.zw);
  EmitVertex();
  EndPrimitive();
}
