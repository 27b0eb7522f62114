#version 330 core
in vec3 g_color;

out vec4 frag_color;

void main() { frag_color = vec4(g_color, 1.0); }
