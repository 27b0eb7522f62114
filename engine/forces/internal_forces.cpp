#include "forces/internal_forces.hpp"

#include <algorithm>
#include <array>
#include <cassert>

#include "core/parallel.hpp"
#include "forces/element_visit.hpp"

namespace cloth {

namespace {

// Calls visit(eval, vertices, definite) for every element given as an ElementEval kernel
// (element_visit.hpp): Baraff-Witkin stretch and shear per triangle, interleaved; then the
// shape-operator bend (unless `with_bend` is false), edge-area's edges and triangles, Feynman's
// springs and angular bends, Breen links, thread bends and trellis corners. Only the arrays of
// the model's type are non-empty.
template <bool kJacobians, typename Visit>
void for_each_element(const ClothModel& model, const ClothState& state, bool definite_bend, Visit&& visit,
                      bool with_bend = true) {
  for (int t = 0; t < static_cast<int>(model.bw_triangles.size()); ++t) {
    visit_element<kJacobians>(model, state, ElementKind::Stretch, t, definite_bend, visit);
    visit_element<kJacobians>(model, state, ElementKind::Shear, t, definite_bend, visit);
  }
  for (ElementKind kind : kElementKinds) {
    if (kind == ElementKind::Stretch || kind == ElementKind::Shear) continue;
    if (kind == ElementKind::Bend && !with_bend) continue;
    const int count = element_count(model, kind);
    for (int k = 0; k < count; ++k) visit_element<kJacobians>(model, state, kind, k, definite_bend, visit);
  }
}

template <class Element, size_t V>
void scatter_force(const Element& e, const std::array<int, V>& v, std::vector<Vec3>& f) {
  for (size_t a = 0; a < V; ++a) f[v[a]] += e.force.template segment<3>(3 * a);
}

template <int N, size_t V>
void scatter_jacobians(const ElementEval<N>& e, const std::array<int, V>& v, bool definite,
                       JacobianTarget& jac) {
  const Eigen::Matrix<double, N, N> k = definite ? Eigen::Matrix<double, N, N>(-project_psd<N>(-e.dfdx)) : e.dfdx;
  for (size_t a = 0; a < V; ++a) {
    for (size_t b = 0; b < V; ++b) {
      jac.add(v[a], v[b], k.template block<3, 3>(3 * a, 3 * b), e.dfdv.template block<3, 3>(3 * a, 3 * b));
    }
  }
}

}  // namespace

void add_internal_forces(const ClothModel& model, const ClothState& state, std::vector<Vec3>& f,
                         BendForces bend) {
  for (const Spring& s : model.springs) {
    const Vec3 fi = spring_force_on_i(s, state.x[s.i], state.x[s.j], state.v[s.i], state.v[s.j]);
    f[s.i] += fi;
    f[s.j] -= fi;
  }
  for_each_element<false>(model, state, false, [&](const auto& eval, const auto& v, bool) { scatter_force(eval, v, f); },
                          /*with_bend=*/false);
  if (bend == BendForces::Included) add_bend_forces(model, state, f);
}

void add_bend_forces(const ClothModel& model, const ClothState& state, std::vector<Vec3>& f) {
  // By shared hinges: the elements' forces, each hinge's angle computed once.
  thread_local ShapeOperatorScratch scratch;  // one per thread: a free function of every explicit step
  const SpringMaterial& m = model.material;
  add_shape_operator_bend_forces(model.bend_triangles, model.bw_bends, state.x, state.v, m.bending,
                                 m.bending_damping, scratch, f);
}

double internal_energy(const ClothModel& model, const ClothState& state) {
  double e = 0;
  for (const Spring& s : model.springs) e += spring_energy(s, state.x[s.i], state.x[s.j]);
  for_each_element<false>(model, state, false, [&](const auto& eval, const auto&, bool) { e += eval.energy; });
  return e;
}

SpringSlots::SpringSlots(const ClothModel& model, const BlockSparseMatrix& pattern) {
  const auto slot = [&](int i, int j) {
    const int s = pattern.slot(i, j);
    assert(s >= 0 && "spring block not in the sparsity pattern");
    return s;
  };
  slots.reserve(model.springs.size());
  for (const Spring& s : model.springs) slots.push_back({slot(s.i, s.i), slot(s.i, s.j), slot(s.j, s.i), slot(s.j, s.j)});
  tiles = SpringTiles(model.springs, model.vertex_count(), kTileVertices);
}

void add_internal_jacobians(const ClothModel& model, const ClothState& state, bool definite,
                            JacobianTarget& jac, const SpringSlots* springs, int threads,
                            std::vector<Vec3>* f, bool step_bend) {
  const auto evaluate = [&](int k) {
    const Spring& s = model.springs[size_t(k)];
    return evaluate_spring(s, state.x[s.i], state.x[s.j], state.v[s.i], state.v[s.j], definite);
  };
  const auto add_spring = [&](int k, const std::array<int, 4>& slot, const SpringState& spring) {
    const Spring& s = model.springs[size_t(k)];
    jac.add_spring(slot, s.i, s.j, spring);
    if (f) {  // a tile's springs share no vertex with another's of the same phase (SpringTiles)
      (*f)[size_t(s.i)] += spring.force_on_i;
      (*f)[size_t(s.j)] -= spring.force_on_i;
    }
  };
  if (springs) {
    assert(springs->slots.size() == model.springs.size() && "spring slots of another model");
    // A tile's springs in batches: first the batch's states, then their blocks. A state is a
    // chain of a square root and a division that the blocks wait on; evaluated back to back,
    // the batch's chains overlap (BM_Frame's assembly_ms). Same additions, same order.
    constexpr int kBatch = 8;
    const std::vector<int>& order = springs->tiles.order;
    springs->tiles.for_each_tile(threads, [&](int begin, int end) {
      std::array<SpringState, kBatch> batch;
      for (int first = begin; first < end; first += kBatch) {
        const int count = std::min(kBatch, end - first);
        for (int b = 0; b < count; ++b) batch[size_t(b)] = evaluate(order[size_t(first + b)]);
        for (int b = 0; b < count; ++b) {
          const int k = order[size_t(first + b)];
          add_spring(k, springs->slots[size_t(k)], batch[size_t(b)]);
        }
      }
    });
  } else {
    const BlockSparseMatrix& p = jac.pattern();
    for (size_t k = 0; k < model.springs.size(); ++k) {
      const Spring& s = model.springs[k];
      add_spring(static_cast<int>(k), {p.slot(s.i, s.i), p.slot(s.i, s.j), p.slot(s.j, s.i), p.slot(s.j, s.j)},
                 evaluate(static_cast<int>(k)));
    }
  }
  for_each_element<true>(model, state, definite && step_bend, [&](const auto& eval, const auto& v, bool already_definite) {
    if (f) scatter_force(eval, v, *f);
    scatter_jacobians(eval, v, definite && !already_definite, jac);
  });
}

}  // namespace cloth
