// OBJ loading through tinyobjloader, including broken and degenerate files.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "mesh/mesh.hpp"
#include "model/model.hpp"
#include "simulation/simulation.hpp"

namespace cloth {
namespace {

std::string data(const char* name) { return std::string(CLOTHSIM_TEST_DATA_DIR) + "/" + name; }

TEST(ObjMesh, TexcoordsBecomeRestUv) {
  const RestMesh mesh = load_obj(data("quad_with_uv.obj"));
  ASSERT_EQ(mesh.vertex_count(), 4);
  ASSERT_EQ(mesh.triangles.size(), 2u);
  EXPECT_FALSE(mesh.is_grid());
  EXPECT_TRUE(mesh.uv[2].isApprox(Vec2(2, 1)));
  SpringMaterial material;
  material.density = 0.2;
  EXPECT_NEAR(build_model(mesh, material).total_mass(), 0.2 * 2.0, 1e-6);  // 2 m x 1 m
}

TEST(ObjMesh, PlanarProjectionPreservesLengthsOfAFlatMesh) {
  // No texcoords, and a quad face that must be triangulated.
  const RestMesh mesh = load_obj(data("tilted_quad_no_uv.obj"));
  ASSERT_EQ(mesh.triangles.size(), 2u);
  for (int a = 0; a < 4; ++a) {
    for (int b = a + 1; b < 4; ++b) {
      const double world = (mesh.positions[a] - mesh.positions[b]).norm();
      const double rest = (mesh.uv[a] - mesh.uv[b]).norm();
      EXPECT_NEAR(world, rest, 1e-6) << "pair " << a << "," << b;
    }
  }
}

TEST(ObjMesh, BadFilesGiveOneLineErrorsNamingTheFile) {
  for (const char* name : {"missing.obj", "broken.obj", "no_faces.obj", "degenerate.obj"}) {
    try {
      load_obj(data(name));
      ADD_FAILURE() << name << " loaded without error";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(name), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << "multi-line error: " << what;
    }
  }
}

TEST(ObjMesh, DegenerateTriangleIsNamed) {
  try {
    load_obj(data("degenerate.obj"));
    FAIL() << "degenerate mesh accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("triangle 1"), std::string::npos) << e.what();
  }
}

// The message of load_obj(path)'s InputError, or "" if it loaded.
std::string obj_error(const std::string& path) {
  try {
    load_obj(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ObjMesh, NonFiniteCoordinatesAreRejectedNotReadAsZero) {
  // tinyobjloader alone reads "nan" as 0 and "1e999" as inf.
  EXPECT_NE(obj_error(data("nan_coordinate.obj")).find("line 1: 'nan' is not a finite number"), std::string::npos)
      << obj_error(data("nan_coordinate.obj"));
  EXPECT_NE(obj_error(data("inf_coordinate.obj")).find("line 2: '1e999'"), std::string::npos)
      << obj_error(data("inf_coordinate.obj"));
}

TEST(ObjMesh, OutOfRangeIndicesAreRejected) {
  EXPECT_NE(obj_error(data("broken.obj")).find("index out of range"), std::string::npos);
  // A quad with a bad index is an error, not dropped silently (tinyobjloader only warns).
  EXPECT_NE(obj_error(data("quad_index_out_of_range.obj")).find("bad face"), std::string::npos)
      << obj_error(data("quad_index_out_of_range.obj"));
  // Texture indices are range-checked too: otherwise a read past the end of the texcoords.
  EXPECT_NE(obj_error(data("texcoord_index_out_of_range.obj")).find("texture coordinate index out of range"),
            std::string::npos)
      << obj_error(data("texcoord_index_out_of_range.obj"));
}

TEST(ObjMesh, ZeroAreaAndDuplicateTrianglesAreRejected) {
  EXPECT_NE(obj_error(data("zero_area.obj")).find("triangle 1 is degenerate"), std::string::npos)
      << obj_error(data("zero_area.obj"));
  EXPECT_NE(obj_error(data("duplicate_triangle.obj")).find("triangle 2 repeats triangle 0"), std::string::npos)
      << obj_error(data("duplicate_triangle.obj"));
}

// Documented acceptance (mesh.hpp): an edge shared by three triangles keeps its spring but gets
// no bend element; the cloth simulates like any other.
TEST(ObjMesh, NonManifoldEdgesAreAcceptedWithoutAHingeAcrossThem) {
  const RestMesh mesh = load_obj(data("non_manifold.obj"));
  ASSERT_EQ(mesh.triangles.size(), 3u);
  for (const ModelType type : {ModelType::Springs, ModelType::BaraffWitkin}) {
    ClothModel model = build_model(mesh, SpringMaterial{}, type);
    int springs_on_fin_edge = 0;
    for (const Spring& s : model.springs) springs_on_fin_edge += (s.i == 0 && s.j == 1) || (s.i == 1 && s.j == 0);
    EXPECT_EQ(springs_on_fin_edge, type == ModelType::Springs ? 1 : 0);
    for (const Spring& s : model.springs) EXPECT_NE(s.type, SpringType::Bend);
    EXPECT_TRUE(model.bw_bends.empty());
    Simulation sim(std::move(model), {}, {0}, SolverSettings{}, Vec3(0, -9.81, 0));
    for (int k = 0; k < 10; ++k) sim.step();
    EXPECT_TRUE(all_finite(sim.state()));
    EXPECT_EQ(sim.statistics().instabilities, 0);
  }
}

// Found by the OBJ fuzzer: two triangles folded flat onto each other put the ends of their bend
// spring at the same rest position, and B / (rest / 2)^2 was an infinite stiffness.
TEST(ObjMesh, FoldedFlatMeshHasFiniteStiffness) {
  const ClothModel model = build_model(load_obj(data("folded_flat.obj")), SpringMaterial{});
  for (const Spring& s : model.springs) {
    EXPECT_TRUE(std::isfinite(s.k) && s.rest > 0) << s.i << "-" << s.j << ": k " << s.k << ", rest " << s.rest;
  }
}

TEST(ObjMesh, DevicesAndHugeFilesAreNotRead) {
  // /dev/zero "exists" and never ends: reading it would hang and exhaust memory.
  EXPECT_NE(obj_error("/dev/zero").find("not a regular file"), std::string::npos) << obj_error("/dev/zero");
  const std::string big = ::testing::TempDir() + "/big.obj";
  std::ofstream{big};
  std::filesystem::resize_file(big, (256u << 20) + 1);  // sparse: no disk space used
  EXPECT_NE(obj_error(big).find("256 MiB limit"), std::string::npos) << obj_error(big);
  std::filesystem::remove(big);
}

TEST(ObjMesh, PolygonsWithTooManyCornersAreRejected) {
  const std::string path = ::testing::TempDir() + "/polygon.obj";
  {
    std::ofstream out(path);
    for (int k = 0; k < 65; ++k) out << "v " << std::cos(k * 0.0966) << " " << std::sin(k * 0.0966) << " 0\n";
    out << "f";
    for (int k = 1; k <= 65; ++k) out << " " << k;
    out << "\n";
  }
  EXPECT_NE(obj_error(path).find("a face with 65 corners (at most 64)"), std::string::npos) << obj_error(path);
}

// Writes `text` to a file in the test's temporary folder and returns its path.
std::string temp_obj(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Found by the OBJ fuzzer (tests/fuzz/corpus/obj/exponent_overflow.obj): tinyobjloader's number
// parser overflows an int on a ten-digit exponent (UBSan), although the value is a plain 0.
TEST(ObjMesh, AbsurdExponentsAreRejectedBeforeTinyobjloaderReadsThem) {
  const std::string tri = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  EXPECT_EQ(obj_error(temp_obj("exp.obj", "v 0e-2147483648 1 0\n" + tri)),
            "mesh " + ::testing::TempDir() + "/exp.obj line 1: a number with an exponent of more than 4 digits");
  // Also where tinyobjloader reads numbers that we do not: behind a '#' inside the line, in a
  // texture coordinate, in a tag; and with CRLF line ends the line number is still the line's.
  EXPECT_NE(obj_error(temp_obj("exp.obj", tri + "v 1 2 3 4#x 0e-2147483648 0\n")).find("line 5: a number with an exponent"),
            std::string::npos);
  EXPECT_NE(obj_error(temp_obj("exp.obj", "v 0 0 0\r\nvt 0 1E99999\r\n")).find("line 2: a number with an exponent"),
            std::string::npos);
  EXPECT_NE(obj_error(temp_obj("exp.obj", tri + "t crease 0/1/0 0e-2147483648\n")).find("line 5: a number with an exponent"),
            std::string::npos);
  // Skin weights convert floats to int unchecked in tinyobjloader: not read at all.
  EXPECT_NE(obj_error(temp_obj("vw.obj", tri + "vw 0 1e30 1\n")).find("line 5: 'vw' (skin weights) is not supported"),
            std::string::npos);
  // Four exponent digits and a trailing comment are fine.
  EXPECT_EQ(obj_error(temp_obj("exp.obj", "v 0 0 0\nv 1e0000 0 0 # 1e9999\nv 0 1.0e-0000 0\nf 1 2 3\n")), "");
}

}  // namespace
}  // namespace cloth
