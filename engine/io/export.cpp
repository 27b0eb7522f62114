#include "io/export.hpp"

#include <cstdio>
#include <fstream>

#include "core/error.hpp"

namespace cloth {

void write_obj(const std::string& path, const RestMesh& mesh, const ClothState& state) {
  std::ofstream out(path);
  if (!out) throw InputError("cannot write " + path);
  out << "# clothsim export: " << state.vertex_count() << " vertices, metres\n";
  char line[96];
  for (const Vec3& p : state.x) {
    std::snprintf(line, sizeof line, "v %.9g %.9g %.9g\n", p.x(), p.y(), p.z());
    out << line;
  }
  for (const auto& t : mesh.triangles) out << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << '\n';
  if (!out) throw InputError("error while writing " + path);
}

}  // namespace cloth
