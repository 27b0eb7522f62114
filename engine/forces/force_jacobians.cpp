#include "forces/force_jacobians.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cmath>

#include <Eigen/Dense>

#include "forces/aerodynamics.hpp"
#include "elements/bw_conditions.hpp"
#include "forces/internal_forces.hpp"
#include "core/parallel.hpp"

namespace cloth {

namespace {

// The slots of an element's V x V blocks, entry V a + b for block (v[a], v[b]).
template <size_t V>
std::array<int, V * V> stencil_slots(const BlockSparseMatrix& pattern, const std::array<int, V>& v) {
  std::array<int, V * V> slots{};
  for (size_t a = 0; a < V; ++a) {
    for (size_t b = 0; b < V; ++b) {
      slots[V * a + b] = pattern.slot(v[a], v[b]);
      assert(slots[V * a + b] >= 0 && "element block not in the sparsity pattern");
    }
  }
  return slots;
}

template <typename Element, size_t V>
std::vector<std::array<int, V * V>> element_slots(const BlockSparseMatrix& pattern,
                                                  const std::vector<Element>& elements,
                                                  std::array<int, V> Element::*vertices) {
  std::vector<std::array<int, V * V>> out;
  out.reserve(elements.size());
  for (const Element& e : elements) out.push_back(stencil_slots(pattern, e.*vertices));
  return out;
}

// Adds one element's force and Jacobian blocks at its slots.
template <int N, size_t V>
void scatter_element(const ElementEval<N>& e, const std::array<int, V>& v,
                     const std::array<int, V * V>& slots, std::vector<Vec3>& f, JacobianTarget& jac) {
  static_assert(N == 3 * static_cast<int>(V));
  for (size_t a = 0; a < V; ++a) f[v[a]] += e.force.template segment<3>(3 * a);
  jac.add_element<N, V>(slots, v, e.dfdx, e.dfdv);
}

// Elements per chunk of evaluate_then_add. A chunk's evaluations (about 0.4 ms on one thread)
// outweigh the start of a parallel region; its two buffers take 2.8 MB for the triangles (2.75 KB
// per triangle's stretch and shear) and 5.6 MB for the bend triangles (5.5 KB each). 256 took 4% longer at 100².
constexpr size_t kElementChunk = 512;
// Fewer elements than this are evaluated and added on the calling thread (about 0.1 ms of work,
// a few times what starting a parallel region costs).
constexpr size_t kMinParallelElements = 128;
// Elements a thread takes at a time from its chunk: few enough to balance the threads' shares,
// enough that they seldom contend for the counter.
constexpr size_t kElementBatch = 8;

// add(k, evaluate(k)) for the elements k in [0, count), on up to `threads` threads with the same
// bits as on one. The evaluations (conditions, forces, definite stiffnesses with their
// eigensolves: about four fifths of the work) touch nothing shared and run on every thread, a
// chunk at a time, into one of two buffers; the additions to f and the Jacobians, which share
// rows between elements, run on the first thread alone, in element order, one chunk behind,
// while the other threads evaluate the next chunk (the first thread joins them once it has
// added). Each thread takes the chunk's next element as it goes, so the shares balance. On one
// thread each element is added straight from its evaluation.
template <typename Evaluate, typename Add, typename Eval>
void evaluate_then_add(size_t count, int threads, std::array<std::vector<Eval>, 2>& buffers, Evaluate&& evaluate,
                       Add&& add) {
  if (threads <= 1 || count < kMinParallelElements) {
    for (size_t k = 0; k < count; ++k) add(k, evaluate(k));
    return;
  }
  for (std::vector<Eval>& buffer : buffers) buffer.resize(std::min(kElementChunk, count));
  const size_t chunks = (count + kElementChunk - 1) / kElementChunk;
  const auto chunk_size = [&](size_t c) { return std::min(kElementChunk, count - c * kElementChunk); };
  const auto add_chunk = [&](size_t c) {
    for (size_t b = 0; b < chunk_size(c); ++b) add(c * kElementChunk + b, buffers[c % 2][b]);
  };
  for (size_t c = 0; c < chunks; ++c) {
    std::atomic<size_t> next{0};
    parallel_tasks(threads, threads, true, [&](int part) {
      if (part == 0 && c > 0) add_chunk(c - 1);
      const size_t size = chunk_size(c);
      for (size_t first; (first = next.fetch_add(kElementBatch, std::memory_order_relaxed)) < size;) {
        for (size_t b = first; b < std::min(first + kElementBatch, size); ++b) {
          buffers[c % 2][b] = evaluate(c * kElementChunk + b);
        }
      }
    });
  }
  if (chunks > 0) add_chunk(chunks - 1);
}

// Baraff-Witkin cloth (the implicit integrator's own model): forces and Jacobians in one pass
// over the elements, each kind made definite by a method of its own (eval_stretch_definite: two
// small eigenproblems; eval_shear_definite: closed form; eval_shape_operator_bend_definite:
// Gauss-Newton below 0.2 rad) instead of add_internal_jacobians' generic eigen-projection, added in the same order as
// internal_forces.cpp on every thread count (evaluate_then_add), so f is bit for bit
// compute_forces' sum.
bool only_baraff_witkin_elements(const ClothModel& model) {
  return model.springs.empty() && model.edge_area.empty() &&
         model.feynman.springs.empty() && model.feynman.bends.empty() && model.breen.links.empty() &&
         model.breen.bends.empty() && model.breen.trellis.empty();
}

void add_baraff_witkin(const ClothModel& model, const ClothState& state, bool definite,
                       const ElementSlots& slots, std::vector<Vec3>& f, JacobianTarget& jac, int threads,
                       ElementEvalBuffers& buffers) {
  const SpringMaterial& m = model.material;
  using StretchShear = ElementEvalBuffers::StretchShear;
  evaluate_then_add(
      model.bw_triangles.size(), threads, buffers.triangles,
      [&](size_t k) {
        const StretchShearTriangle& t = model.bw_triangles[k];
        // Stretch and shear project their own stiffnesses by their structure (eval_stretch_definite,
        // eval_shear_definite).
        if (!definite) {
          return StretchShear{
              eval_stretch(t, state.x, state.v, m.stretch, m.rest_stretch_u, m.rest_stretch_v, m.damping),
              eval_shear(t, state.x, state.v, m.shear, m.damping)};
        }
        return StretchShear{eval_stretch_definite(t, state.x, state.v, m.stretch, m.rest_stretch_u,
                                                  m.rest_stretch_v, m.damping),
                            eval_shear_definite(t, state.x, state.v, m.shear, m.damping)};
      },
      [&](size_t k, const StretchShear& e) {
        scatter_element(e.stretch, model.bw_triangles[k].v, slots.bw_triangles[k], f, jac);
        scatter_element(e.shear, model.bw_triangles[k].v, slots.bw_triangles[k], f, jac);
      });
  evaluate_then_add(
      model.bend_triangles.size(), threads, buffers.bends,
      [&](size_t k) {
        const ShapeOperatorTriangle& t = model.bend_triangles[k];
        // Bend makes its own stiffness definite (mostly Gauss-Newton).
        return definite ? eval_shape_operator_bend_definite(t, state.x, state.v, m.bending, m.bending_damping)
                        : eval_shape_operator_bend(t, state.x, state.v, m.bending, m.bending_damping);
      },
      [&](size_t k, const ElementEval<18>& e) {
        scatter_element(e, model.bend_triangles[k].v, slots.bend_triangles[k], f, jac);
      });
}

}  // namespace

std::vector<std::pair<int, int>> coupled_pairs(const ClothModel& model) {
  size_t count = 0;
  for_each_coupled_pair(model, [&](int, int) { ++count; });
  std::vector<std::pair<int, int>> pairs;
  pairs.reserve(count);  // the implicit step keeps the list: no spare capacity
  for_each_coupled_pair(model, [&](int i, int j) { pairs.emplace_back(i, j); });
  return pairs;
}

void weak_bend_springs(const ClothModel& model, double h, std::vector<char>& weak,
                       std::vector<double>& softest) {
  const auto coefficient = [h](const Spring& s) { return h * h * s.k + h * s.kd; };
  // The softest structural or shear spring at each vertex (infinite where there is none).
  softest.assign(size_t(model.vertex_count()), INFINITY);
  for (const Spring& s : model.springs) {
    if (s.type == SpringType::Bend) continue;
    softest[size_t(s.i)] = std::min(softest[size_t(s.i)], coefficient(s));
    softest[size_t(s.j)] = std::min(softest[size_t(s.j)], coefficient(s));
  }
  weak.resize(model.springs.size());
  for (size_t k = 0; k < model.springs.size(); ++k) {
    const Spring& s = model.springs[k];
    const double a = softest[size_t(s.i)], b = softest[size_t(s.j)];
    weak[k] = s.type == SpringType::Bend && std::isfinite(a) && std::isfinite(b) &&
              coefficient(s) < kWeakBendSpring * std::min(a, b);
  }
}

std::vector<char> weak_bend_slots(const ClothModel& model, const BlockSparseMatrix& A,
                                  const std::vector<char>& weak) {
  assert(weak.size() == model.springs.size());
  // A pair is left out when every element that couples it is a weak bend spring: its visits by
  // all elements less its visits by weak bend springs leave none. Both slots of a pair count
  // alike, so the pattern left is symmetric, as the factor needs. (One count per slot: this runs
  // when the weak springs change, and A's slots are many.)
  std::vector<int> other_visits(size_t(A.slots()), 0);
  std::vector<char> left_out(size_t(A.slots()), 0);
  const auto visit = [&](int i, int j, int by) {
    assert(i != j && A.slot(i, j) >= 0 && "A is not of this model's pattern");
    other_visits[size_t(A.slot(i, j))] += by;
    other_visits[size_t(A.slot(j, i))] += by;
  };
  for_each_coupled_pair(model, [&](int i, int j) { visit(i, j, +1); });
  for (size_t k = 0; k < model.springs.size(); ++k) {
    if (!weak[k]) continue;
    const Spring& spring = model.springs[k];
    visit(spring.i, spring.j, -1);
    left_out[size_t(A.slot(spring.i, spring.j))] = left_out[size_t(A.slot(spring.j, spring.i))] = 1;
  }
  for (size_t s = 0; s < left_out.size(); ++s) left_out[s] = left_out[s] && other_visits[s] == 0;
  return left_out;
}

ElementSlots::ElementSlots(const ClothModel& model, const BlockSparseMatrix& pattern)
    : springs(model, pattern),
      bw_triangles(element_slots(pattern, model.bw_triangles, &StretchShearTriangle::v)),
      bend_triangles(element_slots(pattern, model.bend_triangles, &ShapeOperatorTriangle::v)) {
  triangles.reserve(model.mesh.triangles.size());
  for (const auto& tri : model.mesh.triangles) triangles.push_back(stencil_slots(pattern, tri));
}

void compute_force_jacobians(const ClothModel& model, const ClothState& state,
                             const ExternalForces& ext, double t, bool definite,
                             std::vector<Vec3>& f, BlockSparseMatrix& dfdx, BlockSparseMatrix& dfdv,
                             JacobianCorrection* correction) {
  JacobianTarget jac(dfdx, dfdv);
  compute_force_jacobians(model, state, ext, t, definite, ElementSlots(model, dfdx), f, jac, correction);
}

void compute_force_jacobians(const ClothModel& model, const ClothState& state,
                             const ExternalForces& ext, double t, bool definite,
                             const ElementSlots& slots, std::vector<Vec3>& f, JacobianTarget& jac,
                             JacobianCorrection* correction, int threads, ElementEvalBuffers* buffers) {
  assert(slots.springs.slots.size() == model.springs.size() && slots.bw_triangles.size() == model.bw_triangles.size() && slots.bend_triangles.size() == model.bend_triangles.size() &&
         slots.triangles.size() == model.mesh.triangles.size() && "slots of another model");
  if (correction) correction->clear();
  jac.set_zero(threads);
  if (only_baraff_witkin_elements(model)) {
    compute_external_forces(model, state, ext, t, f);
    ElementEvalBuffers own;
    add_baraff_witkin(model, state, definite, slots, f, jac, threads, buffers ? *buffers : own);
  } else {
    // The material's forces in the Jacobians' pass (the springs on `threads`).
    compute_external_forces(model, state, ext, t, f);
    add_internal_jacobians(model, state, definite, jac, &slots.springs, threads, &f, /*step_bend=*/true);
  }
  jac.add_dfdv_diagonal(model.mass, -model.material.velocity_damping);  // -m c I
  const AirDrag drag = air_drag(ext, model.material);
  if (drag.any()) {
    for (size_t n = 0; n < model.mesh.triangles.size(); ++n) {
      const auto& tri = model.mesh.triangles[n];
      const std::array<Vec3, 3> x{state.x[tri[0]], state.x[tri[1]], state.x[tri[2]]};
      const std::array<Vec3, 3> v{state.v[tri[0]], state.v[tri[1]], state.v[tri[2]]};
      Eigen::Matrix3d air_jacobian;
      const Vec3 air = ext.wind.velocity((x[0] + x[1] + x[2]) / 3.0, t, &air_jacobian);
      const AeroTriangle a = aero_triangle(x, v, drag, air, air_jacobian);
      // Block (i, k) is a.dfdx[k] for every i; keep its symmetric part over the 3 x 3 stencil.
      Eigen::Matrix<double, 9, 9> exact;
      for (int i = 0; i < 3; ++i)
        for (int k = 0; k < 3; ++k) exact.block<3, 3>(3 * i, 3 * k) = a.dfdx[k];
      Eigen::Matrix<double, 9, 9> sym = 0.5 * (exact + exact.transpose());
      // The turning of the triangle's normal in the wind can make that part positive (a force
      // growing with the displacement); in the implicit matrix A = M - h df/dv - h^2 df/dx such
      // directions make A indefinite and CG diverge (a curtain in wind blew up in two frames). As
      // for the elastic Hessians, the implicit step keeps only its negative semidefinite part.
      if (definite) sym = -project_psd<9>(-sym);
      if (correction) {
        correction->triangles.push_back(tri);
        correction->blocks.push_back(exact - sym);
      }
      for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) {
          jac.add(slots.triangles[n][size_t(3 * i + k)], tri[i], tri[k], sym.block<3, 3>(3 * i, 3 * k), a.dfdv);
        }
      }
    }
  }
}

void JacobianCorrection::add_times(const std::vector<Vec3>& d, std::vector<Vec3>& out) const {
  for (size_t t = 0; t < triangles.size(); ++t) {
    const auto& tri = triangles[t];
    Eigen::Matrix<double, 9, 1> dt;
    for (int k = 0; k < 3; ++k) dt.segment<3>(3 * k) = d[size_t(tri[k])];
    const Eigen::Matrix<double, 9, 1> change = blocks[t] * dt;
    for (int i = 0; i < 3; ++i) out[size_t(tri[i])] += change.segment<3>(3 * i);
  }
}

void add_grab_spring_force(const Grab* spring, const ClothState& state, std::vector<Vec3>& f) {
  if (!spring) return;
  const int g = spring->vertex;
  f[g] += spring->spring_force(state.x[g], state.v[g]);
}

void add_grab_spring_jacobians(const Grab* spring, JacobianTarget& jac) {
  if (!spring) return;
  const Eigen::Matrix3d identity = Eigen::Matrix3d::Identity();
  const int g = spring->vertex;
  jac.add(jac.pattern().diagonal_slot(g), g, g, -spring->settings.stiffness * identity,
          -spring->settings.damping * identity);
}

}  // namespace cloth
