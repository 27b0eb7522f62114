#include "model/material_presets.hpp"

#include "elements/breen_energy.hpp"
#include "core/error.hpp"

namespace cloth {

namespace {

// density kg/m^2, stretch N/m, shear N/m, bending N*m, spring damping N*s/m (see the header and
// docs/models.md for the conversions from KES units).
SpringMaterial fabric(double density, double stretch, double shear, double bending, double damping) {
  SpringMaterial m;
  m.density = density;
  m.stretch = stretch;
  m.shear = shear;
  m.bending = bending;
  m.damping = damping;
  m.bending_damping = 0.1 * bending;  // bend relaxes over ~0.1 s
  return m;
}

}  // namespace

const std::vector<MaterialPreset>& material_presets() {
  static const std::vector<MaterialPreset> presets = {
      {"cotton", "plain-weave cotton shirting, 150 g/m^2", fabric(0.15, 1.0e4, 56, 1.0e-5, 0.05)},
      {"silk", "silk crepe de chine, 60 g/m^2: soft in bending and shear", fabric(0.06, 5.0e3, 17, 2.0e-6, 0.02)},
      {"denim", "14 oz denim, 400 g/m^2: stiff in bending and shear", fabric(0.40, 4.0e4, 170, 1.0e-4, 0.2)},
      {"wool", "wool suiting, 250 g/m^2", fabric(0.25, 6.0e3, 34, 1.2e-5, 0.05)},
      {"polyester", "polyester/cotton blend shirting, 120 g/m^2", fabric(0.12, 1.2e4, 40, 8.0e-6, 0.05)},
      {"rubber", "natural rubber sheet, 1 mm (E = 2 MPa): very stretchy", fabric(1.1, 2.0e3, 670, 1.7e-4, 0.05)},
      {"paper", "office paper, 80 g/m^2 (E = 4 GPa, 0.1 mm): almost inextensible", fabric(0.08, 4.0e5, 1.5e5, 3.3e-4, 1.0)},
  };
  return presets;
}

SpringMaterial material_preset(const std::string& name) {
  std::string names;
  for (const MaterialPreset& p : material_presets()) {
    if (name == p.name) return p.material;
    names += names.empty() ? p.name : std::string(", ") + p.name;
  }
  throw InputError("cloth.material.preset: unknown preset \"" + name + "\" (" + names + ")");
}

SpringMaterial breen_fabric_material(const std::string& name) {
  const BreenCurves c = breen_preset(name);
  SpringMaterial m;
  m.stretch = c.well_scale;
  m.shear = c.shear.g1;
  m.bending = c.warp.b1;
  m.bend_k_u = 1.0;
  m.bend_k_v = c.warp.b1 > 0 ? c.weft.b1 / c.warp.b1 : 1.0;
  return m;
}

}  // namespace cloth
