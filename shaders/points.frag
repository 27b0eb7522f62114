#version 330 core
// Round markers with a dark rim so they read on both light and dark backgrounds.
in vec3 v_color;

out vec4 frag_color;

void main() {
  float r = length(gl_PointCoord - vec2(0.5)) * 2.0;  // 0 at the centre, 1 at the edge
  if (r > 1.0) discard;
  vec3 color = r > 0.7 ? vec3(0.05) : v_color;
  frag_color = vec4(color, 1.0);
}
