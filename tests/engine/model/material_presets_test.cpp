// The Breen fabrics and the material presets name the same cloth classes and must describe one
// fabric each: a Breen preset's C is its membrane's Young's modulus (docs/models.md, "Breen"),
// the stretch of the material preset of its class, and breen_fabric_material gives the material
// whose curves (breen_curves_for) hold the preset's small-strain moduli.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "elements/breen_energy.hpp"
#include "model/material_presets.hpp"
#include "model/model.hpp"

namespace cloth {
namespace {

TEST(MaterialPresets, BreenFabricsHaveTheirClassesStretchModulus) {
  const std::vector<std::pair<std::string, std::string>> same_class = {
      {"cotton", "cotton"}, {"wool", "wool"}, {"polyester-cotton", "polyester"}};
  ASSERT_EQ(breen_preset_names().size(), same_class.size()) << "a new Breen fabric needs its class here";
  for (const auto& [breen, material] : same_class) {
    const BreenCurves preset = breen_preset(breen);
    EXPECT_EQ(preset.well_scale, material_preset(material).stretch) << breen;
    const BreenCurves back = breen_curves_for(breen_fabric_material(breen));
    EXPECT_EQ(back.well_scale, preset.well_scale) << breen;
    EXPECT_EQ(back.shear.g1, preset.shear.g1) << breen;
    EXPECT_DOUBLE_EQ(back.warp.b1, preset.warp.b1) << breen;
    EXPECT_DOUBLE_EQ(back.weft.b1, preset.weft.b1) << breen;
  }
}

}  // namespace
}  // namespace cloth
