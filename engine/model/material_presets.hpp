#pragma once
// Named fabrics: areal density, membrane stretch and shear moduli, bending rigidity, damping, in
// SI units. Values are typical magnitudes of each fabric class in Kawabata's KES-F units
// (S. Kawabata, "The Standardization and Analysis of Hand Evaluation", 2nd ed., Textile Machinery
// Society of Japan, 1980), chosen by us (not copied from a published table) and converted to SI as
// documented in docs/models.md ("Material presets"); the non-textile sheets (rubber, paper) come
// from E t and E t^3 / 12 of their bulk material. Not a measurement of one particular fabric.
#include <string>
#include <vector>

#include "elements/material.hpp"

namespace cloth {

struct MaterialPreset {
  const char* name;
  const char* description;  ///< one line for the UI tooltip
  SpringMaterial material;
};

/// Every preset, in the order the UI lists them.
const std::vector<MaterialPreset>& material_presets();

/// The preset's material; throws InputError naming the valid names for an unknown one.
SpringMaterial material_preset(const std::string& name);

/// A Breen fabric (breen_preset: cotton, wool, polyester-cotton) as the material whose
/// breen_curves_for gives it back: stretch = well scale C, bending = warp b1 (bend_k_v = weft / warp),
/// shear = g1. Density and damping are the defaults (the tutorial gives none).
SpringMaterial breen_fabric_material(const std::string& name);

}  // namespace cloth
