#pragma once
// One element of the cloth's material by its kind and index: the single place that knows which
// evaluation kernel (elements/) and which material constants each of the model's element arrays
// uses. internal_forces.cpp walks all of them; the VBD integrator evaluates a vertex's own.
#include <cstdint>
#include <iterator>

#include "model/model.hpp"
#include "model/state.hpp"

namespace cloth {

/// The model's element arrays evaluated as ElementEval kernels (the Hooke springs, evaluated by
/// evaluate_spring, are not among them).
enum class ElementKind : std::uint8_t {
  Stretch,        ///< model.bw_triangles, Baraff-Witkin stretch (N = 9)
  Shear,          ///< model.bw_triangles, Baraff-Witkin shear (N = 9)
  Bend,           ///< model.bend_triangles, shape-operator bend (N = 18)
  EdgeArea,       ///< model.edge_area, edge-strain + area membrane (N = 9)
  FeynmanSpring,  ///< model.feynman.springs (N = 6)
  FeynmanBend,    ///< model.feynman.bends (N = 9)
  BreenLink,      ///< model.breen.links (N = 6)
  BreenBend,      ///< model.breen.bends (N = 9)
  BreenTrellis,   ///< model.breen.trellis (N = 9)
};

/// Calls visit(eval, vertices, definite) for element `index` of the array of `kind`. With
/// `definite_bend`, the bend elements come with their own definite stiffness (Gauss-Newton at
/// small angles: an 18 x 18 projection per triangle would dominate the step) and `definite` is
/// true in their visit. Without kJacobians the shape-operator bend gives its energy and force
/// alone (ElementForce): its two 18 x 18 matrices dominated the explicit integrators' steps.
template <bool kJacobians, typename Visit>
void visit_element(const ClothModel& model, const ClothState& state, ElementKind kind, int index,
                   bool definite_bend, Visit&& visit) {
  const SpringMaterial& m = model.material;
  const size_t k = size_t(index);
  switch (kind) {
    case ElementKind::Stretch: {
      const StretchShearTriangle& t = model.bw_triangles[k];
      visit(eval_stretch(t, state.x, state.v, m.stretch, m.rest_stretch_u, m.rest_stretch_v, m.damping), t.v, false);
      return;
    }
    case ElementKind::Shear: {
      const StretchShearTriangle& t = model.bw_triangles[k];
      visit(eval_shear(t, state.x, state.v, m.shear, m.damping), t.v, false);
      return;
    }
    case ElementKind::Bend: {
      const ShapeOperatorTriangle& t = model.bend_triangles[k];
      if constexpr (!kJacobians) {
        visit(shape_operator_bend_force(t, state.x, state.v, m.bending, m.bending_damping), t.v, false);
      } else if (definite_bend) {
        visit(eval_shape_operator_bend_definite(t, state.x, state.v, m.bending, m.bending_damping), t.v, true);
      } else {
        visit(eval_shape_operator_bend(t, state.x, state.v, m.bending, m.bending_damping), t.v, false);
      }
      return;
    }
    case ElementKind::EdgeArea: {
      const EdgeAreaTriangle& t = model.edge_area[k];
      visit(eval_edge_area(t, state.x, state.v, m.stretch, m.shear, m.area_stiffness, m.damping), t.v, false);
      return;
    }
    case ElementKind::FeynmanSpring: {
      const FeynmanSpring& s = model.feynman.springs[k];
      visit(eval_feynman_spring(s, state.x, state.v, model.feynman_spring_k, m.diagonal_ratio, m.buckling, m.damping),
            s.v, false);
      return;
    }
    case ElementKind::FeynmanBend: {
      const FeynmanBend& b = model.feynman.bends[k];
      visit(eval_feynman_bend(b, state.x, state.v, m.bending, m.bending_damping), b.v, false);
      return;
    }
    case ElementKind::BreenLink: {
      const BreenLink& l = model.breen.links[k];
      visit(eval_breen_stretch(l, state.x, state.v, model.breen_curves.well_scale, m.damping), l.v, false);
      return;
    }
    case ElementKind::BreenBend: {
      const BreenBend& b = model.breen.bends[k];
      visit(eval_breen_bend(b, state.x, state.v, b.thread == 0 ? model.breen_curves.warp : model.breen_curves.weft),
            b.v, false);
      return;
    }
    case ElementKind::BreenTrellis: {
      const BreenTrellis& t = model.breen.trellis[k];
      visit(eval_breen_trellis(t, state.x, state.v, model.breen_curves.shear, m.damping), t.v, false);
      return;
    }
  }
}

/// The shape-operator bend element `index`'s share at its vertex i alone, with the constants
/// visit_element gives it: what vertex-block solvers read instead of the element's 18 x 18 blocks.
/// `hinge_cache`: update_bend_hinges at the state. The three functions take the model's bend
/// constants alike, so the cache's effective angles and the element's weights agree.
inline ShapeOperatorVertexShare shape_operator_bend_vertex(const ClothModel& model, const ClothState& state,
                                                           const ShapeOperatorScratch& hinge_cache, int index, int i) {
  return shape_operator_bend_vertex(model.bend_triangles[size_t(index)], i, model.bw_bends, hinge_cache, state.x,
                                    model.material.bending, model.material.bending_damping);
}

/// update_hinges of model.bw_bends at the state with the constants of the model's bend elements
/// (nothing for a model without them).
inline void update_bend_hinges(const ClothModel& model, const ClothState& state, ShapeOperatorScratch& hinge_cache) {
  if (model.bend_triangles.empty()) return;
  update_hinges(model.bw_bends, state.x, state.v, model.material.bending, model.material.bending_damping,
                hinge_cache);
}

/// update_hinge of one of model.bw_bends, as update_bend_hinges.
inline void update_bend_hinge(const ClothModel& model, const ClothState& state, int hinge,
                              ShapeOperatorScratch& hinge_cache) {
  update_hinge(model.bw_bends, size_t(hinge), state.x, state.v, model.material.bending, model.material.bending_damping,
               hinge_cache);
}

/// The size of the array of `kind` in the model.
inline int element_count(const ClothModel& model, ElementKind kind) {
  switch (kind) {
    case ElementKind::Stretch:
    case ElementKind::Shear: return static_cast<int>(model.bw_triangles.size());
    case ElementKind::Bend: return static_cast<int>(model.bend_triangles.size());
    case ElementKind::EdgeArea: return static_cast<int>(model.edge_area.size());
    case ElementKind::FeynmanSpring: return static_cast<int>(model.feynman.springs.size());
    case ElementKind::FeynmanBend: return static_cast<int>(model.feynman.bends.size());
    case ElementKind::BreenLink: return static_cast<int>(model.breen.links.size());
    case ElementKind::BreenBend: return static_cast<int>(model.breen.bends.size());
    case ElementKind::BreenTrellis: return static_cast<int>(model.breen.trellis.size());
  }
  return 0;
}

/// Calls visit(vertices) with the vertex array of element `index` of the array of `kind`.
template <typename Visit>
void visit_element_vertices(const ClothModel& model, ElementKind kind, int index, Visit&& visit) {
  const size_t k = size_t(index);
  switch (kind) {
    case ElementKind::Stretch:
    case ElementKind::Shear: visit(model.bw_triangles[k].v); return;
    case ElementKind::Bend: visit(model.bend_triangles[k].v); return;
    case ElementKind::EdgeArea: visit(model.edge_area[k].v); return;
    case ElementKind::FeynmanSpring: visit(model.feynman.springs[k].v); return;
    case ElementKind::FeynmanBend: visit(model.feynman.bends[k].v); return;
    case ElementKind::BreenLink: visit(model.breen.links[k].v); return;
    case ElementKind::BreenBend: visit(model.breen.bends[k].v); return;
    case ElementKind::BreenTrellis: visit(model.breen.trellis[k].v); return;
  }
}

inline constexpr int kElementKindCount = 9;

/// Every kind, in the order for_each_element walks the arrays.
inline constexpr ElementKind kElementKinds[] = {
    ElementKind::Stretch,       ElementKind::Shear,         ElementKind::Bend,
    ElementKind::EdgeArea,      ElementKind::FeynmanSpring, ElementKind::FeynmanBend,
    ElementKind::BreenLink,     ElementKind::BreenBend,     ElementKind::BreenTrellis,
};
static_assert(std::size(kElementKinds) == kElementKindCount);

}  // namespace cloth
