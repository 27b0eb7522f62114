#version 330 core
// Procedural metre grid: strong lines every 1 m, faint lines every 0.1 m, anti-aliased with
// screen-space derivatives and faded into the background with distance (no texture needed, no
// moire at grazing angles).
in vec3 v_world;

uniform vec3 u_origin;      // grid origin on the plane, m
uniform vec3 u_axis_u;      // unit, in the plane
uniform vec3 u_axis_v;      // unit, in the plane
uniform vec3 u_normal;      // unit, towards the free side
uniform vec3 u_eye;
uniform vec3 u_light_dir;
uniform vec3 u_background;

out vec4 frag_color;

// Coverage (0..1) of grid lines `spacing` metres apart, about `width_px` pixels wide; `w_m` is
// fwidth(p), metres per pixel, taken once for both grids (a software renderer pays per call).
float grid_lines(vec2 p, vec2 w_m, float spacing, float width_px) {
  vec2 c = p / spacing;
  vec2 w = w_m / spacing;
  vec2 dist = abs(fract(c - 0.5) - 0.5) / max(w, vec2(1e-6));
  float line = 1.0 - min(min(dist.x, dist.y) / width_px, 1.0);
  // Lines closer than ~3 px apart turn into grey mush: fade them out.
  float density = max(w.x, w.y);
  return line * (1.0 - smoothstep(0.15, 0.35, density));
}

void main() {
  vec3 d = v_world - u_origin;
  vec2 p = vec2(dot(d, u_axis_u), dot(d, u_axis_v));

  float lit = 0.55 + 0.45 * max(dot(u_normal, u_light_dir), 0.0);
  vec3 color = vec3(0.78, 0.78, 0.76) * lit;
  vec2 w_m = fwidth(p);
  color = mix(color, vec3(0.50, 0.50, 0.52), 0.35 * grid_lines(p, w_m, 0.1, 1.0));
  color = mix(color, vec3(0.22, 0.22, 0.25), 0.85 * grid_lines(p, w_m, 1.0, 1.4));

  float fog = smoothstep(8.0, 45.0, length(v_world - u_eye));
  frag_color = vec4(mix(color, u_background, fog), 1.0);
}
