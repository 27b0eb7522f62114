#version 330 core
// Marker points (pinned vertices, the grabbed vertex and its target), a fixed size in pixels.
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_color;

uniform mat4 u_view_proj;
uniform float u_point_size;  // px

out vec3 v_color;

void main() {
  v_color = a_color;
  gl_Position = u_view_proj * vec4(a_position, 1.0);
  gl_PointSize = u_point_size;
}
