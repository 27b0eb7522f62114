#include "cloth/internal_forces.hpp"

namespace cloth {

namespace {

// Calls visit(eval, vertices) for every Baraff-Witkin element: stretch and shear per triangle
// (N = 9), bend per interior edge (N = 12).
template <typename Visit>
void for_each_bw_element(const ClothModel& model, const ClothState& state, Visit&& visit) {
  const SpringMaterial& m = model.material;
  for (const StretchShearTriangle& t : model.bw_triangles) {
    visit(eval_stretch(t, state.x, state.v, m.stretch, m.rest_stretch_u, m.rest_stretch_v, m.damping), t.v);
    visit(eval_shear(t, state.x, state.v, m.shear, m.damping), t.v);
  }
  for (const BendEdge& e : model.bw_bends) {
    visit(eval_bend(e, state.x, state.v, m.bending, m.bending_damping), e.v);
  }
}

template <int N, size_t V>
void scatter_force(const ElementEval<N>& e, const std::array<int, V>& v, std::vector<Vec3>& f) {
  for (size_t a = 0; a < V; ++a) f[v[a]] += e.force.template segment<3>(3 * a);
}

template <int N, size_t V>
void scatter_jacobians(const ElementEval<N>& e, const std::array<int, V>& v, bool definite,
                       BlockSparseMatrix& dfdx, BlockSparseMatrix& dfdv) {
  const Eigen::Matrix<double, N, N> k = definite ? Eigen::Matrix<double, N, N>(-project_psd<N>(-e.dfdx)) : e.dfdx;
  for (size_t a = 0; a < V; ++a) {
    for (size_t b = 0; b < V; ++b) {
      dfdx.add(v[a], v[b], k.template block<3, 3>(3 * a, 3 * b));
      dfdv.add(v[a], v[b], e.dfdv.template block<3, 3>(3 * a, 3 * b));
    }
  }
}

}  // namespace

void add_internal_forces(const ClothModel& model, const ClothState& state, std::vector<Vec3>& f) {
  for (const Spring& s : model.springs) {
    const Vec3 fi = spring_force_on_i(s, state.x[s.i], state.x[s.j], state.v[s.i], state.v[s.j]);
    f[s.i] += fi;
    f[s.j] -= fi;
  }
  for_each_bw_element(model, state, [&](const auto& eval, const auto& v) { scatter_force(eval, v, f); });
}

double internal_energy(const ClothModel& model, const ClothState& state) {
  double e = 0;
  for (const Spring& s : model.springs) e += spring_energy(s, state.x[s.i], state.x[s.j]);
  for_each_bw_element(model, state, [&](const auto& eval, const auto&) { e += eval.energy; });
  return e;
}

void add_internal_jacobians(const ClothModel& model, const ClothState& state, bool definite,
                            BlockSparseMatrix& dfdx, BlockSparseMatrix& dfdv) {
  for (const Spring& s : model.springs) {
    const SpringJacobian j = spring_jacobian(s, state.x[s.i], state.x[s.j], definite);
    // Two-vertex stencil: blocks (i,i), (j,j) = J and (i,j), (j,i) = -J.
    dfdx.add(s.i, s.i, j.dfdx);
    dfdx.add(s.j, s.j, j.dfdx);
    dfdx.add(s.i, s.j, -j.dfdx);
    dfdx.add(s.j, s.i, -j.dfdx);
    dfdv.add(s.i, s.i, j.dfdv);
    dfdv.add(s.j, s.j, j.dfdv);
    dfdv.add(s.i, s.j, -j.dfdv);
    dfdv.add(s.j, s.i, -j.dfdv);
  }
  for_each_bw_element(model, state, [&](const auto& eval, const auto& v) {
    scatter_jacobians(eval, v, definite, dfdx, dfdv);
  });
}

void append_internal_pairs(const ClothModel& model, std::vector<std::pair<int, int>>& pairs) {
  for (const Spring& s : model.springs) pairs.emplace_back(s.i, s.j);
  // Triangle edges are added for every model by coupled_pairs; a bend element also couples its
  // two opposite vertices.
  for (const BendEdge& e : model.bw_bends) pairs.emplace_back(e.v[2], e.v[3]);
}

}  // namespace cloth
