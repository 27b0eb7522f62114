#pragma once
// The one place that includes the GL loader and GLFW, in the order they need: glad first, then
// GLFW told not to pull in a system GL header of its own (it would clash with glad's).
#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
