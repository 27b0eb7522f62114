#pragma once
// GoogleTest parameter names for material models and integrators: "baraff-witkin" ->
// "baraffwitkin", "symplectic-euler" -> "symplectic_euler" (test names may hold only letters,
// digits and underscores).
#include <string>

#include <gtest/gtest.h>

#include "integrators/integrator_type.hpp"
#include "model/model.hpp"

namespace cloth {

inline std::string model_test_name(const ::testing::TestParamInfo<ModelType>& info) {
  std::string name;
  for (char c : std::string(name_of(info.param))) {
    if (c != '-') name += c;
  }
  return name;
}

inline std::string integrator_test_name(const ::testing::TestParamInfo<IntegratorType>& info) {
  std::string name = name_of(info.param);
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

}  // namespace cloth
