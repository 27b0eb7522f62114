// OBJ loading through tinyobjloader, including broken and degenerate files.
#include <gtest/gtest.h>

#include <string>

#include "cloth/error.hpp"
#include "cloth/mesh.hpp"
#include "cloth/model.hpp"

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

}  // namespace
}  // namespace cloth
