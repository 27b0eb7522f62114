#version 330 core
// Lit meshes (cloth, sphere colliders): world-space position and normal for Blinn-Phong.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec3 a_color;  // cloth only: heat-map colour (used when u_vertex_color)
layout(location = 3) in vec2 a_uv;     // cloth only: texture coordinates (used when u_textured)

uniform mat4 u_model;      // uniform scale + translation only, so mat3(u_model) maps normals
uniform mat4 u_view_proj;
uniform float u_uv_scale;  // texture repeats per metre of material coordinate

out vec3 v_world;
out vec3 v_normal;
out vec3 v_color;
out vec2 v_uv;

void main() {
  vec4 world = u_model * vec4(a_position, 1.0);
  v_world = world.xyz;
  v_normal = mat3(u_model) * a_normal;
  v_color = a_color;
  v_uv = a_uv * u_uv_scale;
  gl_Position = u_view_proj * world;
}
