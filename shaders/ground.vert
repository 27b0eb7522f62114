#version 330 core
// Ground plane: a large quad in world space; the grid is drawn per fragment.
layout(location = 0) in vec3 a_position;

uniform mat4 u_view_proj;

out vec3 v_world;

void main() {
  v_world = a_position;
  gl_Position = u_view_proj * vec4(a_position, 1.0);
}
