// Per-vertex element stencils for point relaxation (Feynman 1986, 4.1: "the change in the energy
// of a point when moved depends only on the old and new positions of the point and the positions
// of its neighbors"). The dispatch below passes each kernel the same parameters as
// internal_forces.cpp's for_each_element; DrapeStencil.IsTheWholeModelSeenFromOneVertex checks,
// for every model type, that a stencil's force is add_internal_forces' at its vertex and that
// moving the vertex changes its energy as it changes internal_energy.
#include <array>
#include <cmath>

#include "drape/static_drape_internal.hpp"

#include "elements/springs.hpp"

namespace cloth::drape {

namespace {

enum Kind : std::uint8_t {
  kSpring, kBwStretchShear, kBend, kEdgeArea, kFeynmanSpring, kFeynmanBend,
  kBreenLink, kBreenBend, kBreenTrellis,
};

// Calls visit(kind, index, vertices) for every element of the model.
template <typename Visit>
void for_each_element_ref(const ClothModel& m, Visit&& visit) {
  for (size_t e = 0; e < m.springs.size(); ++e) {
    visit(kSpring, e, std::array<int, 2>{m.springs[e].i, m.springs[e].j});
  }
  for (size_t e = 0; e < m.bw_triangles.size(); ++e) visit(kBwStretchShear, e, m.bw_triangles[e].v);
  for (size_t e = 0; e < m.bend_triangles.size(); ++e) visit(kBend, e, m.bend_triangles[e].v);
  for (size_t e = 0; e < m.edge_area.size(); ++e) visit(kEdgeArea, e, m.edge_area[e].v);
  for (size_t e = 0; e < m.feynman.springs.size(); ++e) visit(kFeynmanSpring, e, m.feynman.springs[e].v);
  for (size_t e = 0; e < m.feynman.bends.size(); ++e) visit(kFeynmanBend, e, m.feynman.bends[e].v);
  for (size_t e = 0; e < m.breen.links.size(); ++e) visit(kBreenLink, e, m.breen.links[e].v);
  for (size_t e = 0; e < m.breen.bends.size(); ++e) visit(kBreenBend, e, m.breen.bends[e].v);
  for (size_t e = 0; e < m.breen.trellis.size(); ++e) visit(kBreenTrellis, e, m.breen.trellis[e].v);
}

// Energy of one element, and its force on vertex i (when force != nullptr); `e` is an
// ElementEval<N> or an ElementForce<N>.
template <typename Element, size_t V>
double take(const Element& e, const std::array<int, V>& v, int i, Vec3* force) {
  if (force) {
    for (size_t a = 0; a < V; ++a) {
      if (v[a] == i) *force += e.force.template segment<3>(3 * a);
    }
  }
  return e.energy;
}

double element(const ClothModel& model, ElementRef r, int i, const std::vector<Vec3>& x,
               const std::vector<Vec3>& v, Vec3* force) {
  const SpringMaterial& m = model.material;
  switch (r.kind) {
    case kSpring: {
      const Spring& s = model.springs[r.index];
      if (force) {
        const Vec3 fi = spring_force_on_i(s, x[s.i], x[s.j], v[s.i], v[s.j]);
        *force += (i == s.i) ? fi : Vec3(-fi);
      }
      return spring_energy(s, x[s.i], x[s.j]);
    }
    case kBwStretchShear: {
      const StretchShearTriangle& t = model.bw_triangles[r.index];
      return take(eval_stretch(t, x, v, m.stretch, m.rest_stretch_u, m.rest_stretch_v, m.damping), t.v, i, force) +
             take(eval_shear(t, x, v, m.shear, m.damping), t.v, i, force);
    }
    case kBend: {
      const ShapeOperatorTriangle& t = model.bend_triangles[r.index];
      return take(shape_operator_bend_force(t, x, v, m.bending, m.bending_damping), t.v, i, force);
    }
    case kEdgeArea: {
      const EdgeAreaTriangle& t = model.edge_area[r.index];
      return take(eval_edge_area(t, x, v, m.stretch, m.shear, m.area_stiffness, m.damping), t.v, i, force);
    }
    case kFeynmanSpring: {
      const FeynmanSpring& s = model.feynman.springs[r.index];
      if (!force) return feynman_spring_energy(s, x, model.feynman_spring_k, m.diagonal_ratio, m.buckling);
      return take(eval_feynman_spring(s, x, v, model.feynman_spring_k, m.diagonal_ratio, m.buckling, m.damping),
                  s.v, i, force);
    }
    case kFeynmanBend: {
      const FeynmanBend& b = model.feynman.bends[r.index];
      if (!force) return feynman_bend_energy(b, x, m.bending);
      return take(eval_feynman_bend(b, x, v, m.bending, m.bending_damping), b.v, i, force);
    }
    case kBreenLink: {
      const BreenLink& l = model.breen.links[r.index];
      return take(eval_breen_stretch(l, x, v, model.breen_curves.well_scale, m.damping), l.v, i, force);
    }
    case kBreenBend: {
      const BreenBend& b = model.breen.bends[r.index];
      const BreenCurves& c = model.breen_curves;
      return take(eval_breen_bend(b, x, v, b.thread == 0 ? c.warp : c.weft), b.v, i, force);
    }
    case kBreenTrellis: {
      const BreenTrellis& t = model.breen.trellis[r.index];
      return take(eval_breen_trellis(t, x, v, model.breen_curves.shear, m.damping), t.v, i, force);
    }
    default: return 0;
  }
}

}  // namespace

VertexStencils build_stencils(const ClothModel& model) {
  const int n = model.vertex_count();
  VertexStencils s;
  s.start.assign(n + 1, 0);
  const auto count = [&](std::uint8_t, size_t, const auto& v) {
    for (size_t a = 0; a < v.size(); ++a) {
      bool dup = false;
      for (size_t b = 0; b < a; ++b) dup = dup || v[b] == v[a];
      if (!dup) ++s.start[v[a] + 1];
    }
  };
  for_each_element_ref(model, count);
  for (int i = 0; i < n; ++i) s.start[i + 1] += s.start[i];
  s.refs.resize(s.start[n]);
  std::vector<int> fill(s.start.begin(), s.start.end() - 1);
  for_each_element_ref(model, [&](std::uint8_t kind, size_t e, const auto& v) {
    for (size_t a = 0; a < v.size(); ++a) {
      bool dup = false;
      for (size_t b = 0; b < a; ++b) dup = dup || v[b] == v[a];
      if (!dup) s.refs[fill[v[a]]++] = ElementRef{kind, static_cast<int>(e)};
    }
  });
  return s;
}

double stencil_energy(const ClothModel& model, const VertexStencils& s, int i,
                      const std::vector<Vec3>& x, const std::vector<Vec3>& v) {
  double e = 0;
  for (int k = s.start[i]; k < s.start[i + 1]; ++k) e += element(model, s.refs[k], i, x, v, nullptr);
  return e;
}

Vec3 stencil_force(const ClothModel& model, const VertexStencils& s, int i,
                   const std::vector<Vec3>& x, const std::vector<Vec3>& v) {
  Vec3 f = Vec3::Zero();
  for (int k = s.start[i]; k < s.start[i + 1]; ++k) element(model, s.refs[k], i, x, v, &f);
  return f;
}

}  // namespace cloth::drape
