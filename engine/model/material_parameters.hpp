#pragma once
// The material's scene parameters ("cloth.material" in a scene file, and its "density_pattern"
// object), declared once: key, unit, accepted range, panel label and slider, meaning, and the
// models that use each (core/parameter.hpp says who reads this list).
#include "core/parameter.hpp"
#include "elements/material.hpp"
#include "model/model_type.hpp"

namespace cloth {

/// Calls v(field, ParamInfo) for each material parameter of `m` (SpringMaterial, const or not).
template <class Visitor, class Material>
void visit_material(Visitor&& v, Material& m) {
  using enum ModelType;
  v(m.density, {.key = "density", .unit = "kg/m^2", .lo = 1e-4, .hi = 100,
                .tip = "Areal density (cotton about 0.15)", .log = true, .ui_lo = 0.01, .ui_hi = 5});
  v(m.stretch, {.key = "stretch", .unit = "N/m", .lo = 0, .hi = 1e8,
                .tip = "Membrane stretch modulus: 2D Young's modulus along the material axes u "
                       "and v (Feynman: of the threads; Breen: C, which also scales its energy wells)",
                .log = true, .ui_lo = 1, .ui_hi = 1e5});
  v(m.shear, {.key = "shear", .unit = "N/m", .lo = 0, .hi = 1e8,
              .tip = "In-plane shear modulus (Breen: the trellis stiffness per rad)",
              .log = true, .ui_lo = 0.1, .ui_hi = 1e5, .models = used_by(Springs, BaraffWitkin, EdgeArea, Breen)});
  v(m.bending, {.key = "bending", .unit = "N*m", .lo = 0, .hi = 10, .tip = "Bending rigidity B",
                .log = true, .ui_lo = 1e-7, .ui_hi = 1e-1});
  v(m.bend_element, {.key = "bend_element", .label = "bend element",
                     .tip = "shape-operator: the plate bending energy 1/2 B kappa^2 on any mesh "
                            "(as baraff-witkin and edge-area); bend-springs: Yu's springs two "
                            "cells long, k = B / h^2 (classic, softer)",
                     .models = used_by(Springs)});
  v(m.damping, {.key = "damping", .unit = "N*s/m", .lo = 0, .hi = 1e4, .label = "spring damping",
                .tip = "Damping of each element's strain rate (Baraff & Witkin 1998, eq. 11-12)",
                .log = true, .ui_lo = 0, .ui_hi = 10});
  v(m.velocity_damping, {.key = "velocity_damping", .unit = "1/s", .lo = 0, .hi = 1e3,
                         .label = "velocity damping",
                         .tip = "Drag on every vertex, a = -c v: a numerical aid, not air "
                                "(forces.air_density with drag_normal / drag_tangential is the air)",
                         .log = true, .ui_lo = 0, .ui_hi = 10});
  v(m.drag_normal, {.key = "drag_normal", .lo = 0, .hi = 10, .label = "drag C_n",
                    .tip = "Quadratic air drag coefficient for flow normal to the cloth (a flat "
                           "plate: about 1.2; Hoerner 1965)",
                    .ui_lo = 0, .ui_hi = 3});
  v(m.drag_tangential, {.key = "drag_tangential", .lo = 0, .hi = 10, .label = "drag C_t",
                        .tip = "Quadratic air drag coefficient for flow along the cloth (skin "
                               "friction, about 0.02; Hoerner 1965)",
                        .ui_lo = 0, .ui_hi = 0.5});
  v(m.bending_damping, {.key = "bending_damping", .unit = "N*m*s", .lo = 0, .hi = 10,
                        .label = "bend damping", .tip = "Condition damping of the bend angle",
                        .log = true, .ui_lo = 0, .ui_hi = 1e-2,
                        .models = used_by(Springs, BaraffWitkin, EdgeArea, Feynman)});
  v(m.area_stiffness, {.key = "area_stiffness", .unit = "N/m", .lo = 0, .hi = 1e8,
                       .label = "area stiffness",
                       .tip = "beta of the implicit cloth project's triangle-area term: resists "
                              "area change (Poisson ratio 2 beta / c; stretch stays Young's modulus)",
                       .log = true, .ui_lo = 0, .ui_hi = 1e5, .models = used_by(EdgeArea)});
  v(m.diagonal_ratio, {.key = "diagonal_ratio", .lo = 0, .hi = 10, .label = "diagonal ratio r",
                       .tip = "Feynman 1986, sec. 5.4: diagonal / axial spring constant (0.5 is "
                              "isotropic, Poisson ratio 1/3)",
                       .ui_lo = 0, .ui_hi = 2, .models = used_by(Feynman)});
  v(m.buckling, {.key = "buckling", .unit = "m^2", .lo = 0, .hi = 1, .label = "buckling b",
                 .tip = "Feynman 1986, sec. 5.5: a spring buckles at compressive strain b / l^2 "
                        "(0 = no compressive strength)",
                 .log = true, .ui_lo = 0, .ui_hi = 1e-3, .models = used_by(Feynman)});
  v(Pair{m.rest_stretch_u, m.rest_stretch_v},
    {.key = "rest_stretch", .lo = 0.1, .hi = 10, .label = "rest stretch u, v",
     .tip = "b_u, b_v of Baraff & Witkin 1998, eq. 10: rest stretch along u and v (1 = none)",
     .ui_lo = 0.5, .ui_hi = 1.5, .models = used_by(BaraffWitkin)});
  v(Pair{m.bend_k_u, m.bend_k_v},
    {.key = "bend_anisotropy", .lo = 0, .hi = 1e3, .label = "bend factor u, v",
     .tip = "Factors on the bending rigidity for creases along u and along v (Baraff & Witkin "
            "1998, sec. 4.3; Breen: warp and weft)",
     .log = true, .ui_lo = 0.01, .ui_hi = 100, .models = used_by(Springs, BaraffWitkin, EdgeArea, Breen)});
}

/// Calls v(field, ParamInfo) for each parameter of "cloth.material.density_pattern".
template <class Visitor, class Pattern>
void visit_density_pattern(Visitor&& v, Pattern& p) {
  using Kind = DensityPattern::Kind;
  v(p.kind, {.key = "type", .label = "density pattern",
             .tip = "Heavier seams (stripes) or a weave (checker) across the rest (u, v) "
                    "coordinates: the implicit cloth project's case 3"});
  v(p.axis, {.key = "axis", .label = "stripes across",
             .tip = "Stripes: bands across u (seams along v) or across v",
             .visible = p.kind == Kind::Stripes});
  v(p.period, {.key = "period", .unit = "m", .lo = 1e-4, .hi = 100, .label = "pattern period",
               .tip = "The pattern's repeat (a checker's cell side)", .log = true, .ui_lo = 0.01,
               .ui_hi = 1, .visible = p.kind != Kind::None});
  v(p.width, {.key = "width", .unit = "m", .lo = 0, .hi = 100, .label = "stripe width",
              .tip = "Stripes: the heavy band per period (at most the period)", .ui_lo = 0,
              .ui_hi = 1, .visible = p.kind == Kind::Stripes});
  v(p.factor, {.key = "factor", .lo = 0.01, .hi = 100, .label = "heavy factor",
               .tip = "Density multiplier on the heavy part", .log = true, .ui_lo = 0.1, .ui_hi = 10,
               .visible = p.kind != Kind::None});
}

/// Throws InputError for a stripe wider than its period (the one rule across two fields).
inline void check_density_pattern_width(const DensityPattern& p) {
  if (p.width > p.period) {
    throw InputError("cloth.material.density_pattern.width must be at most its period, got " +
                     format_number(p.width) + " > " + format_number(p.period) + " m");
  }
}

}  // namespace cloth
