// Signed distances of every solid shape: the sign agrees with an independent inside test, the
// point p - d n lies on the surface, the normal is the distance's gradient (finite differences),
// and the distance is the nearest one (dense sampling of the surface for the curved shapes; the
// closed-mesh collider reproduces the box exactly).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "collision/collider.hpp"
#include "core/error.hpp"
#include "collision/mesh_collider.hpp"
#include "io/scene.hpp"

namespace cloth {
namespace {

constexpr double kPi = 3.14159265358979323846;

Eigen::Matrix3d some_rotation() {
  return (Eigen::AngleAxisd(0.4, Vec3::UnitZ()) * Eigen::AngleAxisd(-0.7, Vec3::UnitY()) *
          Eigen::AngleAxisd(0.3, Vec3::UnitX()))
      .toRotationMatrix();
}

struct ShapeCase {
  const char* name;
  Shape shape;
  std::function<bool(const Vec3&)> inside;  ///< an independent containment test
};

std::vector<ShapeCase> shape_cases() {
  const Eigen::Matrix3d R = some_rotation();
  const Vec3 c(0.1, 0.2, -0.1);
  std::vector<ShapeCase> cases;
  cases.push_back({"sphere", SphereShape{c, 0.3}, [=](const Vec3& p) { return (p - c).norm() < 0.3; }});
  cases.push_back({"capsule", CapsuleShape{Vec3(-0.3, 0, 0), Vec3(0.2, 0.2, 0.1), 0.15},
                   [](const Vec3& p) {
                     const Vec3 a(-0.3, 0, 0), ab = Vec3(0.2, 0.2, 0.1) - a;
                     const double t = std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0);
                     return (p - a - t * ab).norm() < 0.15;
                   }});
  cases.push_back({"cylinder", CylinderShape{Vec3(-0.3, 0, 0), Vec3(0.2, 0.2, 0.1), 0.15},
                   [](const Vec3& p) {
                     const Vec3 a(-0.3, 0, 0), ab = Vec3(0.2, 0.2, 0.1) - a;
                     const double t = (p - a).dot(ab) / ab.squaredNorm();
                     return t > 0 && t < 1 && (p - a - t * ab).norm() < 0.15;
                   }});
  cases.push_back({"box", BoxShape{c, Vec3(0.3, 0.1, 0.2), R}, [=](const Vec3& p) {
                     const Vec3 l = R.transpose() * (p - c);
                     return std::abs(l.x()) < 0.3 && std::abs(l.y()) < 0.1 && std::abs(l.z()) < 0.2;
                   }});
  cases.push_back({"ellipsoid", EllipsoidShape{c, Vec3(0.4, 0.15, 0.25), R}, [=](const Vec3& p) {
                     return (R.transpose() * (p - c)).cwiseQuotient(Vec3(0.4, 0.15, 0.25)).squaredNorm() < 1;
                   }});
  return cases;
}

TEST(ColliderShapes, SignSurfacePointAndGradientAgree) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> coord(-0.6, 0.6);
  for (const ShapeCase& sc : shape_cases()) {
    int checked_gradients = 0;
    for (int k = 0; k < 2000; ++k) {
      const Vec3 p(coord(rng), coord(rng), coord(rng));
      Vec3 n;
      const double d = shape_signed_distance(sc.shape, p, &n);
      if (std::abs(d) < 1e-6) continue;  // on the surface: the inside test is ambiguous
      ASSERT_EQ(d < 0, sc.inside(p)) << sc.name << " at " << p.transpose() << " d=" << d;
      ASSERT_NEAR(n.norm(), 1.0, 1e-9) << sc.name;
      Vec3 unused;
      ASSERT_NEAR(shape_signed_distance(sc.shape, p - d * n, &unused), 0.0, 1e-9)
          << sc.name << ": p - d n is not on the surface, p=" << p.transpose();
      // Central differences of d; skipped where the distance has a kink within the stencil
      // (the medial axis, where two surface points are equally near).
      const double eps = 1e-6;
      Vec3 grad;
      for (int a = 0; a < 3; ++a) {
        Vec3 e = Vec3::Zero();
        e[a] = eps;
        grad[a] = (shape_signed_distance(sc.shape, p + e, &unused) -
                   shape_signed_distance(sc.shape, p - e, &unused)) / (2 * eps);
      }
      if (std::abs(grad.norm() - 1.0) > 1e-4) continue;
      ++checked_gradients;
      ASSERT_LT((grad - n).norm(), 1e-4) << sc.name << " at " << p.transpose();
    }
    EXPECT_GT(checked_gradients, 1500) << sc.name;
  }
}

// Distances are the nearest ones: no sampled surface point is nearer than |d|, and one is close.
TEST(ColliderShapes, EllipsoidDistanceIsTheNearestSurfacePoint) {
  const Vec3 r(0.4, 0.15, 0.25);
  const EllipsoidShape e{Vec3::Zero(), r, Eigen::Matrix3d::Identity()};
  std::vector<Vec3> surface;
  const int nt = 400, np = 800;
  for (int i = 0; i <= nt; ++i) {
    for (int j = 0; j < np; ++j) {
      const double th = kPi * i / nt, ph = 2 * kPi * j / np;
      surface.emplace_back(r.x() * std::sin(th) * std::cos(ph), r.y() * std::sin(th) * std::sin(ph),
                           r.z() * std::cos(th));
    }
  }
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> coord(-0.5, 0.5);
  for (int k = 0; k < 40; ++k) {
    const Vec3 p(coord(rng), coord(rng), coord(rng));
    Vec3 n;
    const double d = std::abs(shape_signed_distance(e, p, &n));
    double nearest = 1e9;
    for (const Vec3& s : surface) nearest = std::min(nearest, (p - s).norm());
    EXPECT_LE(d, nearest + 1e-12) << p.transpose();
    EXPECT_GE(d, nearest - 2e-3) << p.transpose();  // the sampling's spacing is ~1.5 mm
  }
}

TEST(ColliderShapes, EllipsoidWithEqualShortestAxesHasFiniteDistances) {
  // Points on the medial set of spheroids and a sphere-shaped ellipsoid, where the general
  // formula divides 0 by 0.
  struct Case { Vec3 radii, p; };
  const Case cases[] = {
      {Vec3(0.3, 0.2, 0.2), Vec3(0.05, 0, 0)},
      {Vec3(0.2, 0.2, 0.2), Vec3(0, 0, 0)},
      {Vec3(0.2, 0.2, 0.3), Vec3(0, 0, 0.02)},
      {Vec3(0.3, 0.3, 0.1), Vec3(0.01, 0.02, 0)},
  };
  for (const Case& c : cases) {
    Vec3 n;
    const double d = shape_signed_distance(EllipsoidShape{Vec3::Zero(), c.radii, Eigen::Matrix3d::Identity()}, c.p, &n);
    ASSERT_TRUE(std::isfinite(d)) << c.radii.transpose() << " at " << c.p.transpose();
    ASSERT_TRUE(n.allFinite());
    EXPECT_NEAR(n.norm(), 1.0, 1e-12);
    EXPECT_LT(d, 0) << "inside";
    // Nearest surface points: checked against dense sampling as in the general test.
    double nearest = 1e9;
    for (int i = 0; i <= 300; ++i) {
      for (int j = 0; j < 600; ++j) {
        const double th = kPi * i / 300, ph = 2 * kPi * j / 600;
        const Vec3 s(c.radii.x() * std::sin(th) * std::cos(ph), c.radii.y() * std::sin(th) * std::sin(ph),
                     c.radii.z() * std::cos(th));
        nearest = std::min(nearest, (c.p - s).norm());
      }
    }
    EXPECT_NEAR(-d, nearest, 3e-3) << c.radii.transpose() << " at " << c.p.transpose();
  }
}

TEST(ColliderShapes, MovingColliderIsWhereItsPathPutsIt) {
  Collider c{SphereShape{Vec3::Zero(), 0.2}};
  c.motion.kind = MotionPath::Kind::Linear;
  c.motion.velocity = Vec3(1, 0, 0);
  Vec3 n;
  EXPECT_NEAR(signed_distance(c, Vec3(0.5, 0, 0), &n, 0.0), 0.3, 1e-12);
  EXPECT_NEAR(signed_distance(c, Vec3(0.5, 0, 0), &n, 0.5), -0.2, 1e-12);
}

/// The 12 triangles of a box, outward-facing (counter-clockwise seen from outside).
TriangleMeshSdf box_mesh(const Vec3& h) {
  std::vector<Vec3> p;
  for (int k = 0; k < 8; ++k) p.emplace_back(k & 1 ? h.x() : -h.x(), k & 2 ? h.y() : -h.y(), k & 4 ? h.z() : -h.z());
  std::vector<std::array<int, 3>> t = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                                       {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  return TriangleMeshSdf(p, t, "test box");
}

TEST(MeshCollider, ClosedBoxMeshMatchesTheAnalyticBox) {
  const Vec3 h(0.3, 0.1, 0.2);
  const TriangleMeshSdf mesh = box_mesh(h);
  const BoxShape box{Vec3::Zero(), h, Eigen::Matrix3d::Identity()};
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> coord(-0.6, 0.6);
  for (int k = 0; k < 3000; ++k) {
    const Vec3 p(coord(rng), coord(rng), coord(rng));
    Vec3 n_mesh, n_box;
    const double d_mesh = mesh.signed_distance(p, &n_mesh);
    const double d_box = shape_signed_distance(box, p, &n_box);
    ASSERT_NEAR(d_mesh, d_box, 1e-12) << p.transpose();
    if (d_box > 1e-9) {
      ASSERT_LT((n_mesh - n_box).norm(), 1e-9) << p.transpose();  // outside: unique nearest point
    }
  }
}

TEST(MeshCollider, OpenOrBadlyOrientedMeshesAreRejected) {
  std::vector<Vec3> p = {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)};
  std::vector<std::array<int, 3>> tetra = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  EXPECT_NO_THROW(TriangleMeshSdf(p, tetra, "tetra"));
  auto open = tetra;
  open.pop_back();
  EXPECT_THROW(TriangleMeshSdf(p, open, "open"), InputError);
  auto flipped = tetra;
  std::swap(flipped[3][0], flipped[3][1]);
  EXPECT_THROW(TriangleMeshSdf(p, flipped, "flipped"), InputError);
  auto inside_out = tetra;
  for (auto& t : inside_out) std::swap(t[0], t[1]);  // every face flipped: edges still pair up
  try {
    TriangleMeshSdf(p, inside_out, "inside-out");
    ADD_FAILURE() << "an inside-out mesh was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("inside out"), std::string::npos) << e.what();
  }
  std::vector<Vec3> flat = p;
  flat[3] = Vec3(0.5, 0.5, 0);  // on the edge 1-2: triangle {1, 2, 3} has zero area
  EXPECT_THROW(TriangleMeshSdf(flat, tetra, "degenerate"), InputError);
  EXPECT_THROW(TriangleMeshSdf(p, {}, "empty"), InputError);
}

TEST(MeshCollider, LoadsFromTheSceneAndRejectsBadFiles) {
  std::vector<std::string> warnings;
  const Scene scene =
      load_scene(std::string(CLOTHSIM_ASSET_DIR) + "/scenes/tablecloth_table.json", {}, warnings);
  ASSERT_TRUE(std::holds_alternative<MeshShape>(scene.colliders[0].shape));
  Vec3 n;
  // The table top spans y 0.66..0.76 m: a point just above its middle is 1 cm out, facing up.
  // (tinyobjloader reads single-precision coordinates.)
  EXPECT_NEAR(signed_distance(scene.colliders[0], Vec3(0, 0.77, 0), &n), 0.01, 1e-6);
  EXPECT_LT((n - Vec3::UnitY()).norm(), 1e-9);
  EXPECT_LT(signed_distance(scene.colliders[0], Vec3(0.4, 0.3, 0.25), &n), 0) << "inside a leg";

  auto error_for = [&](const std::string& path) {
    nlohmann::json doc = {{"cloth", {{"mesh", {{"grid", {{"resolution", {4, 4}}}}}}}},
                          {"colliders", {{{"type", "mesh"}, {"path", path}}}}};
    try {
      parse_scene(doc, CLOTHSIM_TEST_DATA_DIR, warnings);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_for("open_box.obj").find("not closed"), std::string::npos) << error_for("open_box.obj");
  EXPECT_NE(error_for("missing.obj").find("not found"), std::string::npos) << error_for("missing.obj");
  EXPECT_NE(error_for("zero_area.obj").find("degenerate"), std::string::npos) << error_for("zero_area.obj");
  EXPECT_NE(error_for("").find("required"), std::string::npos);
}

}  // namespace
}  // namespace cloth
