#include "paths.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <system_error>

#include "core/error.hpp"

namespace app {

std::string default_scene_path() {
  return std::string(CLOTHSIM_ASSET_DIR) + "/scenes/default.json";
}

std::string texture_dir() {
  return std::string(CLOTHSIM_ASSET_DIR) + "/textures";
}

std::string default_shader_dir() {
  return CLOTHSIM_SHADER_DIR;
}

std::vector<std::string> builtin_scene_paths() {
  std::vector<std::string> paths;
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::path(default_scene_path()).parent_path();
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

void ensure_parent_dir(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) return;
  std::error_code ignored;
  std::filesystem::create_directories(parent, ignored);
}

void check_output_path(const std::string& option, const std::string& path) {
  if (path.empty()) return;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw cloth::InputError(option + " '" + path + "' is a directory, expected a file name");
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    throw cloth::InputError(option + " '" + path + "': directory '" + parent.string() +
                            "' does not exist");
}

std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &local);
  return buf;
}

std::string default_save_path(const std::string& scene_path) {
  const std::string stem = std::filesystem::path(scene_path).stem().string();
  return "out/" + (stem.empty() ? std::string("scene") : stem) + "-saved.json";
}

}  // namespace app
