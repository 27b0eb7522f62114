#include "ui/imgui_session.hpp"

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cmath>

#include "ui/ui_scale.hpp"

namespace app {

ImGuiSession::ImGuiSession(GLFWwindow* window, bool install_callbacks, const std::string& ini_path)
    : ini_path_(ini_path) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = ini_path_.empty() ? nullptr : ini_path_.c_str();
  glfw_backend_ = window != nullptr;
  if (glfw_backend_) ImGui_ImplGlfw_InitForOpenGL(window, install_callbacks);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  set_scale(1.0f);
}

void ImGuiSession::set_scale(float scale) {
  scale_ = scale;
  ImGuiStyle style;
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 4.0f;
  style.Colors[ImGuiCol_WindowBg].w = 0.92f;
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig font;
  font.SizePixels = std::round(kUiFontPx * scale);
  io.Fonts->AddFontDefault(&font);
  ImGui_ImplOpenGL3_DestroyFontsTexture();
  ImGui_ImplOpenGL3_CreateFontsTexture();
}

ImGuiSession::~ImGuiSession() {
  ImGui_ImplOpenGL3_Shutdown();
  if (glfw_backend_) ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

void ImGuiSession::set_display_size(int width, int height) {
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(width), float(height));
  io.DeltaTime = 1.0f / 60.0f;
}

void ImGuiSession::begin_frame() {
  ImGui_ImplOpenGL3_NewFrame();
  if (glfw_backend_) ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
}

void ImGuiSession::render() {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace app
