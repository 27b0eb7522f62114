// OBJ sequences (obj_sequence.hpp): N frames of a simulated run give N files, one per frame, each
// with one v, vn and vt per vertex and one f a/a/a per triangle; the positions are that frame's,
// the normals unit length and those of a flat sheet along its plane's normal, the texture
// coordinates the grid's (i / (nx - 1), j / (ny - 1)).
#include "io/obj_sequence.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "mesh/mesh.hpp"
#include "simulation/simulation.hpp"

namespace cloth {
namespace {

std::filesystem::path temp_dir(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("clothsim_" + std::to_string(::getpid()) + "_" + name);
}

struct ParsedObj {
  std::vector<Vec3> v, vn;
  std::vector<Vec2> vt;
  std::vector<std::array<int, 9>> f;  ///< v/vt/vn of three corners, 1-based
};

ParsedObj parse_obj(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  ParsedObj obj;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string tag;
    s >> tag;
    if (tag == "v" || tag == "vn") {
      Vec3 p;
      s >> p.x() >> p.y() >> p.z();
      (tag == "v" ? obj.v : obj.vn).push_back(p);
    } else if (tag == "vt") {
      Vec2 t;
      s >> t.x() >> t.y();
      obj.vt.push_back(t);
    } else if (tag == "f") {
      std::array<int, 9> c{};
      char slash = 0;
      for (int k = 0; k < 3; ++k) s >> c[3 * k] >> slash >> c[3 * k + 1] >> slash >> c[3 * k + 2];
      obj.f.push_back(c);
    } else {
      EXPECT_TRUE(tag.empty() || tag[0] == '#') << "unexpected line: " << line;
    }
    EXPECT_FALSE(s.fail()) << "unparsed line: " << line;
  }
  return obj;
}

Simulation falling_grid(const GridSpec& spec) {
  SolverSettings solver;
  solver.integrator = IntegratorType::SymplecticEuler;
  solver.dt = 1.0 / 600;
  return Simulation(build_model(make_grid(spec), SpringMaterial{}), {}, {}, solver,
                    Vec3(0, -9.81, 0));
}

TEST(ObjSequence, EachFrameIsOneParsableFile) {
  GridSpec spec;
  spec.nx = 7;
  spec.ny = 4;
  Simulation sim = falling_grid(spec);
  const std::filesystem::path dir = temp_dir("sequence") / "nested";  // created, parents too
  std::filesystem::remove_all(dir.parent_path());
  const int frames = 4;
  ObjSequenceWriter writer(dir.string());
  std::vector<std::vector<Vec3>> states;
  for (int f = 0; f < frames; ++f) {
    sim.step();
    writer.add_frame(sim.model().mesh, sim.state());
    states.push_back(sim.state().x);
  }
  EXPECT_EQ(writer.frames(), frames);
  int files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, frames);

  const RestMesh& mesh = sim.model().mesh;
  const int n = mesh.vertex_count();
  std::vector<ParsedObj> parsed;
  for (int f = 1; f <= frames; ++f) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%05d.obj", f);
    ASSERT_EQ(writer.frame_path(f), (dir / name).string());
    const ParsedObj obj = parse_obj((dir / name).string());
    ASSERT_EQ(obj.v.size(), size_t(n)) << name;
    ASSERT_EQ(obj.vn.size(), size_t(n)) << name;
    ASSERT_EQ(obj.vt.size(), size_t(n)) << name;
    ASSERT_EQ(obj.f.size(), mesh.triangles.size()) << name;
    for (size_t i = 0; i < obj.v.size(); ++i) {
      EXPECT_LE((obj.v[i] - states[size_t(f - 1)][i]).norm(), 1e-8)
          << name << " vertex " << i;  // %.9g
      EXPECT_NEAR(obj.vn[i].norm(), 1.0, 1e-6) << name << " vertex " << i;
    }
    for (size_t t = 0; t < obj.f.size(); ++t) {
      for (int k = 0; k < 3; ++k) {
        const int v = mesh.triangles[t][size_t(k)] + 1;
        EXPECT_EQ(obj.f[t][3 * k], v);
        EXPECT_EQ(obj.f[t][3 * k + 1], v);
        EXPECT_EQ(obj.f[t][3 * k + 2], v);
      }
    }
    // Grid vertex (i, j): texture coordinates (i / 6, j / 3), corners at 0 and 1.
    for (int j = 0; j < spec.ny; ++j) {
      for (int i = 0; i < spec.nx; ++i) {
        const Vec2 t = obj.vt[size_t(mesh.grid_index(i, j))];
        EXPECT_NEAR(t.x(), i / 6.0, 1e-7);
        EXPECT_NEAR(t.y(), j / 3.0, 1e-7);
      }
    }
    parsed.push_back(obj);
  }
  // The cloth falls: every frame lower than the one before.
  for (int f = 1; f < frames; ++f)
    EXPECT_LT(parsed[size_t(f)].v[0].y(), parsed[size_t(f - 1)].v[0].y());
  std::filesystem::remove_all(dir.parent_path());
}

// A flat sheet's normals are its plane's normal: exactly +y for the horizontal grid (triangles
// counter-clockwise seen from above), along z for an upright one (the sign is its winding's).
TEST(ObjSequence, FlatSheetNormalsAreThePlaneNormal) {
  for (const GridPlane plane : {GridPlane::XZ, GridPlane::XY}) {
    GridSpec spec;
    spec.nx = 5;
    spec.ny = 3;
    spec.plane = plane;
    const RestMesh mesh = make_grid(spec);
    ClothState state;
    state.x = mesh.positions;
    state.v.assign(mesh.positions.size(), Vec3::Zero());
    const std::filesystem::path path = temp_dir("flat.obj");
    write_obj_frame(path.string(), mesh, state);
    const ParsedObj obj = parse_obj(path.string());
    const Vec3 axis = plane == GridPlane::XZ ? Vec3::UnitY() : Vec3::UnitZ();
    ASSERT_EQ(obj.vn.size(), mesh.positions.size());
    for (const Vec3& n : obj.vn) EXPECT_NEAR(std::abs(n.dot(axis)), 1.0, 1e-7);
    if (plane == GridPlane::XZ) {
      for (const Vec3& n : obj.vn) EXPECT_EQ(n, Vec3::UnitY());
    }
    std::filesystem::remove(path);
  }
}

// A directory that cannot be made (an existing file in its place, or under /proc) and a file
// that cannot be written are InputErrors.
TEST(ObjSequence, UnwritableDirectoryIsAnInputError) {
  const std::filesystem::path file = temp_dir("not_a_dir");
  std::ofstream(file) << "x";
  EXPECT_THROW(ObjSequenceWriter(file.string()), InputError);
  EXPECT_THROW(ObjSequenceWriter((file / "below").string()), InputError);
  EXPECT_THROW(ObjSequenceWriter(""), InputError);
  GridSpec spec;
  spec.nx = spec.ny = 2;
  const RestMesh mesh = make_grid(spec);
  ClothState state;
  state.x = mesh.positions;
  EXPECT_THROW(write_obj_frame((file / "frame.obj").string(), mesh, state), InputError);
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace cloth
