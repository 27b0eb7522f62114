// PinSet: the scene's pins, the user's changes to them, and their fate when the mesh is cut.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "kinematics/grab.hpp"
#include "kinematics/pin_set.hpp"

namespace cloth {
namespace {

std::vector<Vec3> four_points() {
  return {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(1, 1, 0)};
}

TEST(PinSet, RejectsAPinOutsideTheMesh) {
  EXPECT_THROW(PinSet(4, {4}), InputError);
  EXPECT_THROW(PinSet(4, {-1}), InputError);
}

TEST(PinSet, RestartHoldsTheScenePinsAndTheMovingPinVertices) {
  PinSet pins(4, {0});
  MovingPin moving;
  moving.vertex = 3;
  moving.anchor = Vec3(1, 1, 0);
  pins.set_paths({moving}, {}, four_points());
  pins.restart(four_points());
  EXPECT_TRUE(pins.is_pinned(0));
  EXPECT_TRUE(pins.is_pinned(3));
  EXPECT_FALSE(pins.is_pinned(1));
  EXPECT_EQ(pins.pinned_count(), 2);
  ASSERT_EQ(pins.moving_pins().size(), 1u);
  const Kinematics k = pins.for_step(std::nullopt);
  EXPECT_EQ((*k.pin_positions)[3], Vec3(1, 1, 0));
}

TEST(PinSet, ReleasingAMovingPinStopsItsPathAndRestartBringsItBack) {
  PinSet pins(4, {});
  MovingPin moving;
  moving.vertex = 2;
  pins.set_paths({moving}, {}, four_points());
  pins.restart(four_points());
  pins.set_pinned(2, false, Vec3(5, 5, 5));
  EXPECT_FALSE(pins.is_pinned(2));
  EXPECT_TRUE(pins.moving_pins().empty());
  pins.restart(four_points());
  EXPECT_TRUE(pins.is_pinned(2));
  EXPECT_EQ(pins.moving_pins().size(), 1u);
}

TEST(PinSet, RejectsTwoConstraintsOnOneVertexAndASlideOffItsLine) {
  PinSet pins(4, {});
  MovingPin moving;
  moving.vertex = 1;
  SlideConstraint slide;
  slide.vertex = 1;
  slide.point = Vec3(1, 0, 0);
  EXPECT_THROW(pins.set_paths({moving}, {slide}, four_points()), InputError);
  SlideConstraint off;
  off.vertex = 2;                 // at (0, 1, 0)
  off.point = Vec3(0, 0.01, 0);   // a line along x, 1 cm away
  EXPECT_THROW(pins.set_paths({}, {off}, four_points()), InputError);
  off.point = Vec3(3, 1, 0);      // the same line through the vertex
  off.direction = Vec3(2, 0, 0);  // normalised on the way in
  pins.set_paths({}, {off}, four_points());
  ASSERT_EQ(pins.slides().size(), 1u);
  EXPECT_NEAR(pins.slides()[0].direction.norm(), 1.0, 1e-15);
}

TEST(PinSet, HoldAtMovesOnlyPinnedVertices) {
  PinSet pins(4, {1});
  pins.restart(four_points());
  std::vector<Vec3> moved = four_points();
  for (Vec3& p : moved) p += Vec3(0, 0, 2);
  pins.hold_at(moved);
  const Kinematics k = pins.for_step(std::nullopt);
  EXPECT_EQ((*k.pin_positions)[1], Vec3(1, 0, 2));
  EXPECT_EQ((*k.pin_positions)[0], Vec3(0, 0, 0));
}

TEST(PinSet, ACutLeavesThePinWithTheOriginalVertexOnly) {
  PinSet pins(4, {1});
  pins.restart(four_points());
  pins.remap({0, 1, 2, 3, 1});  // vertex 4 is a copy of vertex 1
  EXPECT_TRUE(pins.is_pinned(1));
  EXPECT_FALSE(pins.is_pinned(4));
  EXPECT_EQ((*pins.for_step(std::nullopt).pin_positions)[4], Vec3(1, 0, 0));
}

TEST(MouseGrab, IgnoresVerticesOutsideTheClothAndDropsAGrabWhoseVertexIsGone) {
  MouseGrab mouse;
  mouse.set_vertex_count(4);
  mouse.grab(4, Vec3::Zero());
  EXPECT_FALSE(mouse.current());
  mouse.grab(3, Vec3(0, 1, 0));
  ASSERT_TRUE(mouse.current());
  mouse.move(Vec3(std::nan(""), 0, 0));
  EXPECT_EQ(mouse.current()->target, Vec3(0, 1, 0));
  mouse.set_vertex_count(3);
  EXPECT_FALSE(mouse.current());
}

TEST(MouseGrab, NewSettingsReachAGrabInProgressAndBadOnesAreRefused) {
  MouseGrab mouse;
  mouse.set_vertex_count(4);
  mouse.grab(0, Vec3::Zero());
  GrabSettings spring{.mode = GrabMode::Spring, .stiffness = 250, .damping = 0.1};
  mouse.set_settings(spring);
  EXPECT_EQ(mouse.current()->settings.stiffness, 250);
  spring.stiffness = 0;
  EXPECT_THROW(mouse.set_settings(spring), InputError);
  spring.stiffness = 10;
  spring.damping = std::nan("");
  EXPECT_THROW(mouse.set_settings(spring), InputError);
  EXPECT_EQ(mouse.settings().stiffness, 250);
}

}  // namespace
}  // namespace cloth
