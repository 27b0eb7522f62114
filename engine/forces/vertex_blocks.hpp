#pragma once
// The material seen from one vertex, for solvers that move one vertex at a time (Vertex Block
// Descent: Chen, Liu, Yang & Yuksel 2024): which elements touch each vertex, the force they put
// on it and the 3x3 diagonal blocks of their Jacobians there, and a colouring of the vertices in
// which no element has two vertices of one colour.
#include <utility>
#include <vector>

#include "core/vec.hpp"
#include "forces/element_visit.hpp"
#include "model/model.hpp"
#include "model/state.hpp"

namespace cloth {

/// One vertex's share of its elements (vertex_block), in the sign convention of a Hessian.
struct VertexBlock {
  Vec3 force = Vec3::Zero();                                ///< f_i, elastic + damping, N
  Eigen::Matrix3d stiffness = Eigen::Matrix3d::Zero();      ///< -∂f_i/∂x_i, made definite, N/m
  Eigen::Matrix3d damping = Eigen::Matrix3d::Zero();        ///< -∂f_i/∂v_i, N*s/m
};

/// Each vertex's elements, in a fixed order (so a sum over them has the same bits on any
/// thread), and the vertices in colours: two vertices of one element never share a colour, so
/// the vertices of a colour can move at the same time, each seeing its neighbours unchanged.
class VertexElements {
 public:
  struct Entry {
    int index;         ///< into model.springs (spring) or the array of `kind`
    ElementKind kind;  ///< ignored for a spring
    bool spring;       ///< a Hooke spring (evaluate_spring)
  };

  VertexElements() = default;
  explicit VertexElements(const ClothModel& model);

  /// Whether `model` has the same springs and elements on the same vertices as the model this was
  /// built for (false after tearing or a new model type): O(elements), no allocation.
  bool same_topology(const ClothModel& model) const;
  /// The elements of vertex i.
  std::pair<const Entry*, const Entry*> of(int i) const {
    return {entries_.data() + begin_[size_t(i)], entries_.data() + begin_[size_t(i) + 1]};
  }
  /// Greedy colouring in vertex order: each vertex takes the lowest colour no earlier neighbour
  /// (a vertex of one of its elements) has; a springs grid with bend springs takes 7.
  const std::vector<std::vector<int>>& colours() const { return colours_; }
  /// The shared hinges (model.bw_bends, when the model has shape-operator bend elements) that
  /// hold vertex i: those whose cached angle goes stale when it moves. A hinge's four vertices lie
  /// in one element's stencil, so they have four colours: while one colour moves, each hinge has
  /// at most one vertex moving, and no other vertex of that colour reads it.
  std::pair<const int*, const int*> hinges_of(int i) const {
    return {hinge_list_.data() + hinge_begin_[size_t(i)], hinge_list_.data() + hinge_begin_[size_t(i) + 1]};
  }

 private:
  std::vector<int> signature_;  ///< per spring / element: its kind (-1: spring), then its vertices
  std::vector<int> begin_;                  ///< per vertex, into entries_ (n + 1)
  std::vector<Entry> entries_;
  std::vector<std::vector<int>> colours_;
  std::vector<int> hinge_begin_;  ///< per vertex, into hinge_list_ (n + 1)
  std::vector<int> hinge_list_;
};

/// Adds what element `e` puts on vertex i (one of its vertices) to `block`: its force on i and the
/// diagonal blocks ∂f_i/∂x_i, ∂f_i/∂v_i (a vertex listed twice in an element, as on a boundary
/// bend, takes both slots). The stiffness is definite: springs clamp compression, the
/// shape-operator bend gives its vertex rows alone (shape_operator_bend_vertex: Gauss-Newton, each
/// large hinge's block projected), other elements' 3x3 blocks are projected onto the positive
/// semidefinite cone (project_psd). `hinge_cache`: the shape-operator bend's hinge angles at the
/// state (update_bend_hinges), read for the Bend kind.
void add_vertex_block(const ClothModel& model, const ClothState& state, const ShapeOperatorScratch& hinge_cache,
                      int i, const VertexElements::Entry& e, VertexBlock& block);

}  // namespace cloth
