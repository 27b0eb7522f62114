// The key-binding table drives the handler, the help and the README: the README's "Using the app"
// table is the table, and every key the handler takes has exactly one command.
#include <gtest/gtest.h>

#include <GLFW/glfw3.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "input/key_bindings.hpp"

namespace app {
namespace {

TEST(KeyBindings, TheReadmeTableIsTheTable) {
  std::ifstream in(CLOTHSIM_README);
  ASSERT_TRUE(in) << CLOTHSIM_README;
  std::stringstream text;
  text << in.rdbuf();
  const std::string expected = bindings_markdown();
  EXPECT_NE(text.str().find(expected), std::string::npos)
      << "README.md's table of inputs differs from app/input/key_bindings.cpp; it should read:\n" << expected;
}

TEST(KeyBindings, EachKeyDoesOneThingAndCtrlMatters) {
  std::set<std::pair<int, bool>> seen;
  for (const KeyBinding& b : kKeyBindings) {
    for (int key : b.keys) {
      if (key == 0) continue;
      EXPECT_TRUE(seen.insert({key, b.ctrl}).second) << b.label << " is bound twice";
      EXPECT_EQ(command_for(key, b.ctrl ? GLFW_MOD_CONTROL : 0), b.command) << b.label;
      EXPECT_EQ(command_for(key, (b.ctrl ? GLFW_MOD_CONTROL : 0) | GLFW_MOD_SHIFT), b.command)
          << b.label << " with Shift (Ctrl + Shift + = is Ctrl + + on most layouts)";
    }
  }
  EXPECT_EQ(command_for(GLFW_KEY_S, 0), std::nullopt) << "S alone saves nothing";
  EXPECT_EQ(command_for(GLFW_KEY_Q, 0), std::nullopt) << "Q alone does not quit";
  EXPECT_EQ(command_for(GLFW_KEY_R, GLFW_MOD_CONTROL), std::nullopt);
  EXPECT_EQ(command_for(GLFW_KEY_KP_ADD, GLFW_MOD_CONTROL), Command::Larger);
}

}  // namespace
}  // namespace app
