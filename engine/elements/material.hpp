#pragma once
// Material parameters of the mass-spring model (Yu's report, section 4), in SI units.
//
// Stretch and shear are the sheet's membrane moduli in N/m (a strip of width w pulled by F
// lengthens by F / (stretch * w); shear the in-plane shear modulus): build_springs sizes each grid
// spring by the rest area it stands for and the cell's shape so that the lattice has these moduli
// on any cell aspect and resolution (docs/models.md, mass-spring "Calibration"). Damping: N*s/m.
// Bending rigidity B (N*m) goes to the shape-operator bend element, which feels B exactly, or,
// with bend_element = bend-springs, onto Yu's classic bend springs spanning 2h as k_bend = B / h^2
// (a dimensional mapping only: bend springs resist bending at second order; docs/models.md,
// "Bending").
#include "core/enum_names.hpp"

namespace cloth {

/// The implicit cloth project's test case 3: "a density pattern across the patch (seams, pleats,
/// weaves)". The areal density is SpringMaterial::density times `factor` on the pattern's heavy
/// part, measured in the rest material coordinates (u, v) (density_pattern.hpp).
struct DensityPattern {
  enum class Kind { None, Stripes, Checker } kind = Kind::None;
  /// Stripes: U = bands across u (seams running along v), V = bands across v.
  enum class Axis { U, V } axis = Axis::U;
  double period = 0.1;   ///< pattern repeat, m
  double width = 0.02;   ///< stripes: heavy band per period, m (a checker is half heavy)
  double factor = 3.0;   ///< density multiplier on the heavy part (dimensionless)
};

inline constexpr NamedValue<DensityPattern::Kind> kDensityPatternNames[] = {
    {DensityPattern::Kind::None, "none"},
    {DensityPattern::Kind::Stripes, "stripes"},
    {DensityPattern::Kind::Checker, "checker"},
};
constexpr std::span<const NamedValue<DensityPattern::Kind>> value_names(DensityPattern::Kind) {
  return kDensityPatternNames;
}
inline constexpr NamedValue<DensityPattern::Axis> kPatternAxisNames[] = {
    {DensityPattern::Axis::U, "u"},
    {DensityPattern::Axis::V, "v"},
};
constexpr std::span<const NamedValue<DensityPattern::Axis>> value_names(DensityPattern::Axis) {
  return kPatternAxisNames;
}

/// The springs model's bending element: the shape-operator bend of the Baraff-Witkin and
/// edge-area models (B exact, shape_operator_bend.hpp), or Yu's bend springs (k = B / h^2, which
/// resist a fold only at second order).
enum class BendElement { ShapeOperator, BendSprings };
inline constexpr NamedValue<BendElement> kBendElementNames[] = {
    {BendElement::ShapeOperator, "shape-operator"},
    {BendElement::BendSprings, "bend-springs"},
};
constexpr std::span<const NamedValue<BendElement>> value_names(BendElement) { return kBendElementNames; }

struct SpringMaterial {
  double density = 0.15;           ///< areal density, kg/m^2
  double stretch = 1000.0;         ///< 2D Young's modulus along the grid axes, N/m
  double shear = 100.0;            ///< in-plane shear modulus, N/m
  double bending = 1e-4;           ///< bending rigidity B, N*m
  /// Springs model: how B is applied (docs/models.md, "Bending").
  BendElement bend_element = BendElement::ShapeOperator;
  double damping = 0.02;           ///< spring damping along the spring axis, N*s/m
  double velocity_damping = 0.0;   ///< simple velocity damping a = -c v of Yu, sec. 6, 1/s: a
                                   ///< numerical aid, not air (forces/aerodynamics.hpp is the air)
  // The cloth's quadratic drag coefficients (dimensionless; forces/aerodynamics.hpp):
  double drag_normal = 1.2;        ///< C_n, flow normal to the cloth: a square flat plate's
                                   ///< C_D = 1.17 (Hoerner 1965, ch. 3)
  double drag_tangential = 0.02;   ///< C_t, flow along the cloth: skin friction of both faces of a
                                   ///< rough plate (Hoerner 1965, ch. 2)
  // Baraff-Witkin model only (Baraff & Witkin 1998, section 4):
  double rest_stretch_u = 1.0;     ///< b_u of eq. 10: rest stretch along u (dimensionless)
  double rest_stretch_v = 1.0;     ///< b_v of eq. 10
  double bend_k_u = 1.0;           ///< sec. 4.3 anisotropy: factor on B for creases along u
  double bend_k_v = 1.0;           ///< ... and for creases along v (dimensionless)
  double bending_damping = 0.0;    ///< condition damping of the bend angle, N*m*s
  // Edge-strain + triangle-area model only (CS176 2011; edge_area_energy.hpp).
  double area_stiffness = 200.0;   ///< beta of the triangle-area term, N/m
  // Feynman model only (Feynman 1986, section 5): stretch is the thread Young's modulus Y, N/m.
  double diagonal_ratio = 0.5;     ///< r, diagonal / axial spring constant (0.5: isotropic, nu = 1/3)
  double buckling = 1e-6;          ///< b of the buckling springs (sec. 5.5), m^2
  DensityPattern density_pattern;  ///< heavier seams / weaves (none by default)
};

}  // namespace cloth
