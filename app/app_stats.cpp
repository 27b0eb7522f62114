#include "app_stats.hpp"

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "core/error.hpp"
#include "io/run_stats.hpp"

namespace app {
namespace {

nlohmann::json vec3_json(const glm::dvec3& v) {
  return nlohmann::json::array({v.x, v.y, v.z});
}

}  // namespace

nlohmann::json make_app_stats(const cloth::Simulation& sim, const OrbitCamera& camera,
                              const AppSnapshot& s, const std::vector<GrabRecord>& grab_log) {
  nlohmann::json j;
  j["window"] = {s.window.width, s.window.height};
  j["window_pos"] = {s.window_pos.x, s.window_pos.y};
  j["paused"] = s.paused;
  j["displayed_frames"] = s.displayed_frames;
  j["scene_path"] = s.scene_path;
  j["scene_error"] = s.scene_error;
  j["message"] = s.message;
  const cloth::SpringMaterial& m = sim.model().material;
  j["material"] = {{"stretch", m.stretch}, {"shear", m.shear}, {"bending", m.bending}, {"density", m.density},
                   {"damping", m.damping}, {"velocity_damping", m.velocity_damping}};
  j["camera"] = {{"target", {camera.target().x, camera.target().y, camera.target().z}},
                 {"distance", camera.distance()},
                 {"yaw_deg", camera.yaw_deg()},
                 {"pitch_deg", camera.pitch_deg()}};

  const cloth::RestMesh& mesh = sim.tearing().intact_mesh();  // a torn cloth's corners keep their indices
  if (mesh.is_grid()) {
    const int nx = mesh.grid_nx, ny = mesh.grid_ny;
    const struct {
      const char* name;
      int i, j;
    } corners[] = {{"min-min", 0, 0},
                   {"max-min", nx - 1, 0},
                   {"min-max", 0, ny - 1},
                   {"max-max", nx - 1, ny - 1}};
    nlohmann::json screen = nlohmann::json::object();
    nlohmann::json vertices = nlohmann::json::object();
    for (const auto& c : corners) {
      const int v = mesh.grid_index(c.i, c.j);
      const cloth::Vec3& x = sim.state().x[size_t(v)];
      vertices[c.name] = v;
      if (const auto px = camera.project(glm::dvec3(x.x(), x.y(), x.z()), int(s.pane.width),
                                         int(s.pane.height)))
        screen[c.name] = {s.window_pos.x + s.pane.left + px->x, s.window_pos.y + s.pane.top + px->y};
      else
        screen[c.name] = nullptr;  // behind the camera
    }
    j["corner_screen_px"] = screen;
    j["corner_vertex"] = vertices;
    j["grid"] = {nx, ny};
  }

  nlohmann::json log = nlohmann::json::array();
  for (const GrabRecord& r : grab_log) {
    log.push_back({{"vertex", r.vertex},
                   {"start", vec3_json(r.start)},
                   {"last_target", vec3_json(r.last_target)},
                   {"position", vec3_json(r.position)},
                   {"active", r.active}});
  }
  j["grab_log"] = log;
  return j;
}

void write_json_atomically(const std::string& path, const nlohmann::json& doc) {
  const std::string tmp = path + ".tmp";
  cloth::write_json(tmp, doc);
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw cloth::InputError("cannot write '" + path + "': " + ec.message());
}

}  // namespace app
