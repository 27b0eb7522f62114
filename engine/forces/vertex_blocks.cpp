#include "forces/vertex_blocks.hpp"

#include <algorithm>
#include <array>


namespace cloth {

namespace {

// visit(code, vertices) for every spring (code -1) and element (code: its ElementKind) of the
// model, in the order VertexElements lists them.
template <typename Visit>
void for_each_element_of(const ClothModel& model, Visit&& visit) {
  for (const Spring& s : model.springs) visit(-1, std::array<int, 2>{s.i, s.j});
  for (ElementKind kind : kElementKinds) {
    const int count = element_count(model, kind);
    for (int k = 0; k < count; ++k) {
      visit_element_vertices(model, kind, k, [&](const auto& v) { visit(int(kind), v); });
    }
  }
}

}  // namespace

VertexElements::VertexElements(const ClothModel& model) {
  const int n = model.vertex_count();
  std::vector<std::vector<Entry>> lists(static_cast<size_t>(n));
  std::vector<std::vector<int>> neighbours(static_cast<size_t>(n));
  int springs = 0;
  std::array<int, kElementKindCount> index{};
  for_each_element_of(model, [&](int code, const auto& v) {
    signature_.push_back(code);
    signature_.insert(signature_.end(), v.begin(), v.end());
    const Entry entry = code < 0 ? Entry{springs++, ElementKind::Stretch, true}
                                 : Entry{index[size_t(code)]++, ElementKind(code), false};
    for (size_t a = 0; a < v.size(); ++a) {
      if (std::find(v.begin(), v.begin() + a, v[a]) != v.begin() + a) continue;  // a repeated vertex once
      lists[size_t(v[a])].push_back(entry);
      for (size_t b = 0; b < v.size(); ++b) {
        if (v[b] != v[a]) neighbours[size_t(v[a])].push_back(v[b]);
      }
    }
  });
  begin_.assign(size_t(n) + 1, 0);
  for (int i = 0; i < n; ++i) {
    begin_[size_t(i) + 1] = begin_[size_t(i)] + static_cast<int>(lists[size_t(i)].size());
    entries_.insert(entries_.end(), lists[size_t(i)].begin(), lists[size_t(i)].end());
  }

  // Greedy colouring of the graph joining the vertices of each element.
  std::vector<int> colour(size_t(n), -1);
  std::vector<char> taken;
  for (int i = 0; i < n; ++i) {
    taken.assign(taken.size(), 0);
    for (int j : neighbours[size_t(i)]) {
      const int c = colour[size_t(j)];
      if (c < 0) continue;
      if (size_t(c) >= taken.size()) taken.resize(size_t(c) + 1, 0);
      taken[size_t(c)] = 1;
    }
    const int c = static_cast<int>(std::find(taken.begin(), taken.end(), 0) - taken.begin());
    colour[size_t(i)] = c;
    if (size_t(c) >= colours_.size()) colours_.resize(size_t(c) + 1);
    colours_[size_t(c)].push_back(i);
  }

  std::vector<std::vector<int>> hinges(static_cast<size_t>(n));
  if (!model.bend_triangles.empty()) {
    for (size_t h = 0; h < model.bw_bends.size(); ++h) {
      for (int vertex : model.bw_bends[h].v) hinges[size_t(vertex)].push_back(static_cast<int>(h));
    }
  }
  hinge_begin_.assign(size_t(n) + 1, 0);
  for (int i = 0; i < n; ++i) {
    hinge_begin_[size_t(i) + 1] = hinge_begin_[size_t(i)] + static_cast<int>(hinges[size_t(i)].size());
    hinge_list_.insert(hinge_list_.end(), hinges[size_t(i)].begin(), hinges[size_t(i)].end());
  }
}

bool VertexElements::same_topology(const ClothModel& model) const {
  if (begin_.size() != size_t(model.vertex_count()) + 1) return false;
  size_t k = 0;
  bool same = true;
  for_each_element_of(model, [&](int code, const auto& v) {
    same = same && k + v.size() < signature_.size() && signature_[k] == code &&
           std::equal(v.begin(), v.end(), signature_.begin() + std::ptrdiff_t(k + 1));
    k += 1 + v.size();
  });
  return same && k == signature_.size();
}

void add_vertex_block(const ClothModel& model, const ClothState& state, const ShapeOperatorScratch& hinge_cache,
                      int i, const VertexElements::Entry& e, VertexBlock& block) {
  if (e.spring) {
    const Spring& s = model.springs[size_t(e.index)];
    const SpringState spring = evaluate_spring(s, state.x[size_t(s.i)], state.x[size_t(s.j)], state.v[size_t(s.i)],
                                               state.v[size_t(s.j)], /*clamp_compression=*/true);
    // ∂f_j/∂x_j = ∂f_i/∂x_i: the force depends on x_i - x_j alone.
    block.force += i == s.i ? spring.force_on_i : Vec3(-spring.force_on_i);
    block.stiffness -= spring.dfdx();
    block.damping -= spring.dfdv();
    return;
  }
  if (e.kind == ElementKind::Bend) {
    const ShapeOperatorVertexShare share = shape_operator_bend_vertex(model, state, hinge_cache, e.index, i);
    block.force += share.force;
    block.stiffness += share.stiffness;
    block.damping += share.damping;
    return;
  }
  // definite_bend concerns the Bend kind alone, which returned above.
  visit_element<true>(model, state, e.kind, e.index, /*definite_bend=*/false,
                      [&](const auto& eval, const auto& v, bool) {
                        Eigen::Matrix3d k = Eigen::Matrix3d::Zero();
                        for (size_t a = 0; a < v.size(); ++a) {
                          if (v[a] != i) continue;
                          block.force += eval.force.template segment<3>(3 * a);
                          for (size_t b = 0; b < v.size(); ++b) {
                            if (v[b] != i) continue;
                            k -= eval.dfdx.template block<3, 3>(3 * a, 3 * b);
                            block.damping -= eval.dfdv.template block<3, 3>(3 * a, 3 * b);
                          }
                        }
                        block.stiffness += project_psd<3>(k);
                      });
}

}  // namespace cloth
