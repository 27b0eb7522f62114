#pragma once
// GoogleTest parameter names for the material models: "baraff-witkin" -> "baraffwitkin" (test
// names may hold only letters, digits and underscores).
#include <string>

#include <gtest/gtest.h>

#include "cloth/model.hpp"

namespace cloth {

inline std::string model_test_name(const ::testing::TestParamInfo<ModelType>& info) {
  std::string name;
  for (char c : std::string(model_type_name(info.param))) {
    if (c != '-') name += c;
  }
  return name;
}

}  // namespace cloth
