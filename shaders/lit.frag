#version 330 core
// Two-sided Blinn-Phong. Cloth is seen from both sides: a back face gets the flipped normal (so
// it is lit like a surface facing the viewer) and its own colour (so folds read at a glance).
in vec3 v_world;
in vec3 v_normal;
in vec3 v_color;
in vec2 v_uv;

uniform vec3 u_eye;
uniform vec3 u_light_dir;     // towards the key light, unit
uniform vec3 u_front_color;
uniform vec3 u_back_color;
uniform float u_shininess;
uniform float u_specular;
uniform int u_flat;           // 1: wireframe pass, plain u_flat_color
uniform vec4 u_flat_color;
uniform int u_vertex_color;   // 1: both sides take the per-vertex colour (strain heat map)
uniform int u_textured;       // 1: the front shows u_texture, the back it tinted by u_back_color
uniform sampler2D u_texture;

out vec4 frag_color;

void main() {
  if (u_flat != 0) {
    frag_color = u_flat_color;
    return;
  }
  vec3 n = normalize(v_normal);
  vec3 base = u_front_color;
  if (!gl_FrontFacing) {
    n = -n;
    base = u_back_color;
  }
  if (u_textured != 0) {
    vec3 t = texture(u_texture, v_uv).rgb;
    base = gl_FrontFacing ? t : 0.5 * (t + u_back_color);
  }
  if (u_vertex_color != 0) base = v_color;
  vec3 l = normalize(u_light_dir);
  vec3 v = normalize(u_eye - v_world);
  vec3 h = normalize(l + v);
  float diffuse = max(dot(n, l), 0.0);
  float specular = diffuse > 0.0 ? pow(max(dot(n, h), 0.0), u_shininess) : 0.0;
  // A back light from the opposite side and a weak headlight, so a side turned away from the
  // key light (often the back of the cloth) still shows its shape and colour instead of black.
  vec3 l_back = normalize(vec3(-u_light_dir.x, 0.5 * abs(u_light_dir.y), -u_light_dir.z));
  float back = 0.35 * max(dot(n, l_back), 0.0);
  float fill = 0.20 * max(dot(n, v), 0.0);
  vec3 color = base * (0.18 + 0.70 * diffuse + back + fill) + u_specular * specular * vec3(1.0);
  frag_color = vec4(color, 1.0);
}
