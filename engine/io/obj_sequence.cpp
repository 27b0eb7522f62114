#include "io/obj_sequence.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "geometry/vertex_normals.hpp"

namespace cloth {

std::vector<Vec2> normalized_uv(const RestMesh& mesh) {
  if (mesh.uv.empty()) return {};
  Vec2 lo = mesh.uv.front(), hi = mesh.uv.front();
  for (const Vec2& p : mesh.uv) {
    lo = lo.cwiseMin(p);
    hi = hi.cwiseMax(p);
  }
  std::vector<Vec2> out;
  out.reserve(mesh.uv.size());
  for (const Vec2& p : mesh.uv) {
    Vec2 t;
    for (int k = 0; k < 2; ++k) t[k] = hi[k] > lo[k] ? (p[k] - lo[k]) / (hi[k] - lo[k]) : 0.0;
    out.push_back(t);
  }
  return out;
}

void write_obj_frame(const std::string& path, const RestMesh& mesh, const ClothState& state) {
  std::ofstream out(path);
  if (!out) throw InputError("cannot write " + path);
  std::vector<Vec3> normals;
  vertex_normals(state.x, mesh.triangles, normals);
  const std::vector<Vec2> uv = normalized_uv(mesh);
  out << "# clothsim frame: " << state.vertex_count() << " vertices, metres\n";
  char line[112];
  for (const Vec3& p : state.x) {
    std::snprintf(line, sizeof line, "v %.9g %.9g %.9g\n", p.x(), p.y(), p.z());
    out << line;
  }
  for (const Vec3& n : normals) {
    std::snprintf(line, sizeof line, "vn %.7g %.7g %.7g\n", n.x(), n.y(), n.z());
    out << line;
  }
  for (const Vec2& t : uv) {
    std::snprintf(line, sizeof line, "vt %.7g %.7g\n", t.x(), t.y());
    out << line;
  }
  for (const auto& t : mesh.triangles) {
    std::snprintf(line, sizeof line, "f %d/%d/%d %d/%d/%d %d/%d/%d\n", t[0] + 1, t[0] + 1, t[0] + 1,
                  t[1] + 1, t[1] + 1, t[1] + 1, t[2] + 1, t[2] + 1, t[2] + 1);
    out << line;
  }
  if (!out) throw InputError("error while writing " + path);
}

ObjSequenceWriter::ObjSequenceWriter(const std::string& dir) : dir_(dir) {
  if (dir.empty()) throw InputError("an OBJ sequence needs a directory");
  std::error_code error;
  if (std::filesystem::exists(dir, error) && !std::filesystem::is_directory(dir, error))
    throw InputError(dir + " exists and is not a directory");
  std::filesystem::create_directories(dir, error);
  if (error) throw InputError("cannot create directory " + dir + ": " + error.message());
}

std::string ObjSequenceWriter::frame_path(int k) const {
  char name[32];
  std::snprintf(name, sizeof name, "frame_%05d.obj", k);
  return (std::filesystem::path(dir_) / name).string();
}

void ObjSequenceWriter::add_frame(const RestMesh& mesh, const ClothState& state) {
  write_obj_frame(frame_path(frames_ + 1), mesh, state);
  ++frames_;
}

}  // namespace cloth
