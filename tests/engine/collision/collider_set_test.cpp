// ColliderSet: solids edited while the scene runs are validated, and each change of the set is
// visible to the renderer through its version.
#include <gtest/gtest.h>

#include <cmath>

#include "collision/collider_set.hpp"
#include "core/error.hpp"

namespace cloth {
namespace {

Collider ball(double radius) { return Collider(SphereShape{.center = Vec3::Zero(), .radius = radius}); }

TEST(ColliderSet, RefusesBadSolidsAndKeepsTheSetAsItWas) {
  ColliderSet set;
  Collider thick = ball(0.2);
  thick.thickness = 1.5;
  EXPECT_THROW(set.add(thick), InputError);
  Collider slippery = ball(0.2);
  slippery.kinetic_friction = 11;
  EXPECT_THROW(set.add(slippery), InputError);
  EXPECT_THROW(set.add(ball(std::nan(""))), InputError);
  EXPECT_TRUE(set.empty());
  EXPECT_EQ(set.version(), 0u);
}

TEST(ColliderSet, EveryChangeOfTheSetRaisesItsVersion) {
  ColliderSet set;
  EXPECT_EQ(set.add(ball(0.2)), 0);
  EXPECT_EQ(set.add(ball(0.3)), 1);
  const auto after_adds = set.version();
  set.replace(0, ball(0.4));
  EXPECT_GT(set.version(), after_adds);
  EXPECT_EQ(std::get<SphereShape>(set[0].shape).radius, 0.4);
  const auto after_replace = set.version();
  set.remove(0);
  EXPECT_GT(set.version(), after_replace);
  ASSERT_EQ(set.size(), 1u);
  EXPECT_EQ(std::get<SphereShape>(set[0].shape).radius, 0.3);  // the later one moved down
  EXPECT_THROW(set.remove(1), InputError);
  EXPECT_THROW(set.replace(3, ball(0.1)), InputError);
}

// The renderer re-tessellates a solid only when what it draws changes: a friction, thickness or
// path edit (a panel slider dragged, replace() every frame) keeps the version; a new size, place
// or type raises it.
TEST(ColliderSet, OnlyAChangeOfShapeRaisesTheVersionOnReplace) {
  ColliderSet set;
  set.add(ball(0.2));
  const auto before = set.version();
  Collider edited = ball(0.2);
  edited.friction = 0.9;
  edited.thickness = 0.02;
  edited.motion.kind = MotionPath::Kind::Oscillate;
  set.replace(0, edited);
  EXPECT_EQ(set.version(), before);
  EXPECT_EQ(set[0].friction, 0.9);  // replaced all the same
  edited.shape = SphereShape{.center = Vec3(0, 0.1, 0), .radius = 0.2};
  set.replace(0, edited);
  EXPECT_GT(set.version(), before);
  const auto moved = set.version();
  set.replace(0, Collider(BoxShape{}));
  EXPECT_GT(set.version(), moved);
  const auto box = set.version();
  BoxShape turned;
  turned.rotation_deg = Vec3(0, 30, 0);
  set.replace(0, Collider(turned));
  EXPECT_GT(set.version(), box);
}

TEST(ColliderSet, FrictionIsCheckedAndOffsetsGoBackOnClear) {
  ColliderSet set({ball(0.2)});
  EXPECT_THROW(set.set_friction(0, -0.1, 0.2), InputError);
  EXPECT_THROW(set.set_friction(1, 0.1, 0.2), InputError);
  set.set_friction(0, 0.6, 0.4);
  EXPECT_EQ(set[0].friction, 0.6);
  EXPECT_EQ(set[0].mu_kinetic(), 0.4);
  set.set_offset(0, Vec3(0, 0.5, 0));
  EXPECT_EQ(set[0].displacement(0), Vec3(0, 0.5, 0));
  set.set_offset(0, Vec3(std::nan(""), 0, 0));  // ignored
  EXPECT_EQ(set[0].offset, Vec3(0, 0.5, 0));
  set.clear_offsets();
  EXPECT_EQ(set[0].offset, Vec3::Zero());
}

}  // namespace
}  // namespace cloth
