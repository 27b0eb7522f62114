// Two-level preconditioner's coarse level: aggregates, A_c = T^T S A S T, its sparse Cholesky
// factor and the additive correction (coarse_correction.hpp).
#include "linalg/coarse_correction.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <utility>

#include <Eigen/Eigenvalues>
#include <Eigen/OrderingMethods>

#include "geometry/element_geometry.hpp"
#include "core/parallel.hpp"

namespace cloth {

namespace {

/// One row of A's blocks (h_ij, on and above the diagonal) summed per block of H they add to,
/// before T_i^T is applied (CoarseCorrection::assemble: A_c = H + H^T).
class RowSums {
 public:
  using Sum = Eigen::Matrix<double, 3, CoarseCorrection::kModes>;
  using Block = Eigen::Matrix<double, CoarseCorrection::kModes, CoarseCorrection::kModes>;

  /// The running sum for H's slot `slot` (when every place is taken, the sums so far are
  /// flushed first; the order of the terms still depends only on the data).
  Sum& of(int slot, std::vector<Block>& half, const Vec3& arm_i) {
    for (int k = 0; k < used_; ++k) {
      if (slot_[size_t(k)] == slot) return sum_[size_t(k)];
    }
    if (used_ == kCapacity) flush(half, arm_i);
    slot_[size_t(used_)] = slot;
    sum_[size_t(used_)].setZero();
    return sum_[size_t(used_++)];
  }
  /// Adds T_i^T sum = [sum; R_i sum] to each block of H summed into, and starts over.
  void flush(std::vector<Block>& half, const Vec3& arm_i) {
    const Eigen::Matrix3d r_i = cross_matrix(arm_i);
    for (int k = 0; k < used_; ++k) {
      Block& block = half[size_t(slot_[size_t(k)])];
      block.topRows<3>() += sum_[size_t(k)];
      block.bottomRows<3>().noalias() += r_i * sum_[size_t(k)];
    }
    used_ = 0;
  }

 private:
  static constexpr int kCapacity = 8;
  std::array<int, kCapacity> slot_{};
  std::array<Sum, kCapacity> sum_;
  int used_ = 0;
};

}  // namespace

void CoarseCorrection::analyze(const BlockSparseMatrix& A) {
  analysed_ = A.pattern();
  const int n = A.blocks();
  aggregate_of_.assign(size_t(n), -1);
  int count = 0;
  // Phase 1 (greedy aggregation, Vaněk et al.): a vertex whose neighbours are all free seeds an
  // aggregate of the free vertices within kAggregateRadius steps.
  std::vector<int> frontier, next;
  for (int seed = 0; seed < n; ++seed) {
    if (aggregate_of_[size_t(seed)] >= 0) continue;
    bool neighbours_free = true;
    for (int s = A.row_begin(seed); s < A.row_end(seed); ++s) neighbours_free &= aggregate_of_[size_t(A.col(s))] < 0;
    if (!neighbours_free) continue;
    aggregate_of_[size_t(seed)] = count;
    frontier.assign(1, seed);
    for (int step = 0; step < kAggregateRadius; ++step) {
      next.clear();
      for (int v : frontier) {
        for (int s = A.row_begin(v); s < A.row_end(v); ++s) {
          const int u = A.col(s);
          if (aggregate_of_[size_t(u)] < 0) {
            aggregate_of_[size_t(u)] = count;
            next.push_back(u);
          }
        }
      }
      std::swap(frontier, next);
    }
    ++count;
  }
  // Phase 2: the rest join a neighbouring aggregate; phase 3: what has none becomes its own.
  const std::vector<int> after_phase_one = aggregate_of_;
  for (int v = 0; v < n; ++v) {
    if (aggregate_of_[size_t(v)] >= 0) continue;
    for (int s = A.row_begin(v); s < A.row_end(v) && aggregate_of_[size_t(v)] < 0; ++s) {
      aggregate_of_[size_t(v)] = after_phase_one[size_t(A.col(s))];
    }
    if (aggregate_of_[size_t(v)] < 0) aggregate_of_[size_t(v)] = count++;
  }
  members_start_.assign(size_t(count) + 1, 0);
  for (int v = 0; v < n; ++v) ++members_start_[size_t(aggregate_of_[size_t(v)]) + 1];
  for (int a = 0; a < count; ++a) members_start_[size_t(a) + 1] += members_start_[size_t(a)];
  members_.resize(size_t(n));
  std::vector<int> fill(members_start_.begin(), members_start_.end() - 1);
  for (int v = 0; v < n; ++v) members_[size_t(fill[size_t(aggregate_of_[size_t(v)])]++)] = v;

  // A_c's pattern: aggregates coupled by a block of A.
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < n; ++i) {
    for (int s = A.row_begin(i); s < A.row_end(i); ++s) {
      const int a = aggregate_of_[size_t(i)], b = aggregate_of_[size_t(A.col(s))];
      if (a < b) pairs.emplace_back(a, b);
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  coarse_pattern_ = BlockSparseMatrix(count, pairs);
  const BlockSparseMatrix& coarse = coarse_pattern_;
  coarse_.assign(size_t(coarse.slots()), Block::Zero());
  half_.assign(size_t(coarse.slots()), Block::Zero());
  mirror_.resize(size_t(coarse.slots()));
  for (int a = 0; a < count; ++a) {
    for (int s = coarse.row_begin(a); s < coarse.row_end(a); ++s) mirror_[size_t(s)] = coarse.slot(coarse.col(s), a);
  }
  coarse_slot_.resize(size_t(A.slots()));
  for (int i = 0; i < n; ++i) {
    for (int s = A.row_begin(i); s < A.row_end(i); ++s) {
      coarse_slot_[size_t(s)] = coarse.slot(aggregate_of_[size_t(i)], aggregate_of_[size_t(A.col(s))]);
    }
  }
  // The coarse unknowns in the factor's elimination order, numbered so by this class itself: the
  // block factor then needs no permutation of its own, and neither a factorisation nor a solve
  // (every CG iteration) allocates. A fill-reducing order (AMD on the aggregates' graph),
  // rearranged into two domains and a separator without changing the factor
  // (SparseBlockCholesky::domain_order), so that the solves run on two threads.
  std::vector<Eigen::Triplet<double>> graph;
  for (int a = 0; a < count; ++a) {
    for (int s = coarse.row_begin(a); s < coarse.row_end(a); ++s) graph.emplace_back(a, coarse.col(s), 1.0);
  }
  Eigen::SparseMatrix<double> pattern(count, count);
  pattern.setFromTriplets(graph.begin(), graph.end());
  Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int> inverse_order;
  Eigen::AMDOrdering<int>()(pattern, inverse_order);
  // upper_rows(at): the analysis' input for the order that eliminates aggregate at[p] at place p.
  const auto upper_rows = [&](const std::vector<int>& at) {
    std::vector<int> place(static_cast<size_t>(count));
    for (int p = 0; p < count; ++p) place[size_t(at[size_t(p)])] = p;
    std::vector<std::vector<int>> upper(static_cast<size_t>(count));
    for (int a = 0; a < count; ++a) {
      for (int s = coarse.row_begin(a); s < coarse.row_end(a); ++s) {
        const int p = place[size_t(a)], q = place[size_t(coarse.col(s))];
        if (q < p) upper[size_t(p)].push_back(q);
      }
    }
    return upper;
  };
  // inverse_order's indices: the aggregate AMD eliminates at each place.
  const std::vector<int> amd(inverse_order.indices().data(), inverse_order.indices().data() + count);
  const auto domains = SparseBlockCholesky<kModes>::domain_order(upper_rows(amd));
  aggregate_at_.resize(size_t(count));
  for (int p = 0; p < count; ++p) aggregate_at_[size_t(p)] = amd[size_t(domains.row_at[size_t(p)])];
  position_.resize(size_t(count));
  for (int p = 0; p < count; ++p) position_[size_t(aggregate_at_[size_t(p)])] = p;
  const std::vector<std::vector<int>> upper = upper_rows(aggregate_at_);
  cholesky_.analyze(upper, domains.second_domain, domains.separator);
  // The slot of A_c each of the factor's entries reads (its order: row p's upper[p], then the
  // diagonal).
  entry_slot_.clear();
  for (int p = 0; p < count; ++p) {
    for (int q : upper[size_t(p)]) entry_slot_.push_back(coarse.slot(aggregate_at_[size_t(q)], aggregate_at_[size_t(p)]));
    entry_slot_.push_back(coarse.diagonal_slot(aggregate_at_[size_t(p)]));
  }
}

bool CoarseCorrection::rotations_free(int a, const VertexConstraints& c) const {
  Eigen::Matrix3d inertia = Eigen::Matrix3d::Zero();
  for (int m = members_start_[size_t(a)]; m < members_start_[size_t(a) + 1]; ++m) {
    const int i = members_[size_t(m)];
    if (!c.is_free[size_t(i)]) return false;
    const Vec3& r = arm_[size_t(i)];
    inertia.diagonal().array() += r.squaredNorm();
    inertia.noalias() -= r * r.transpose();
  }
  Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig;
  eig.computeDirect(inertia, Eigen::EigenvaluesOnly);
  return eig.eigenvalues()(0) >= kConstrainedDirection;
}

CoarseCorrection::Modes CoarseCorrection::modes(int i) const {
  // t + w x r = t - [r]x w.
  Modes t;
  t << Eigen::Matrix3d::Identity(), -cross_matrix(arm_[size_t(i)]);
  return t;
}

bool CoarseCorrection::factor(const BlockSparseMatrix& A, const VertexConstraints& c,
                              const std::vector<Vec3>* positions, int threads) {
  assemble(A, c, positions, threads);
  return factor_assembled(threads);
}

bool CoarseCorrection::factor_assembled(int threads) {
  assert(analysed_ && "assemble() first");
  return cholesky_.factor([&](int e) -> const Block& { return coarse_[size_t(entry_slot_[size_t(e)])]; },
                          threads, parallel_);
}

void CoarseCorrection::assemble(const BlockSparseMatrix& A, const VertexConstraints& c,
                                const std::vector<Vec3>* positions, int threads) {
  if (A.pattern() != analysed_) analyze(A);
  const BlockSparseMatrix& coarse = coarse_pattern_;
  const bool worth_it = A.blocks() >= kMinParallelLength;
  // The arms: each member's offset from its aggregate's centroid over the aggregate's rms radius
  // (zero without positions, which leaves the rotations to the null-space rule below).
  arm_.assign(size_t(A.blocks()), Vec3::Zero());
  assert(!positions || positions->size() == size_t(A.blocks()));
  if (positions) {
    parallel_tasks(aggregates(), threads, worth_it, [&](int a) {
      const int begin = members_start_[size_t(a)], end = members_start_[size_t(a) + 1];
      Vec3 centroid = Vec3::Zero();
      for (int k = begin; k < end; ++k) centroid += (*positions)[size_t(members_[size_t(k)])];
      centroid /= end - begin;
      double squares = 0;
      for (int k = begin; k < end; ++k) squares += ((*positions)[size_t(members_[size_t(k)])] - centroid).squaredNorm();
      const double radius = std::sqrt(squares / (end - begin));
      if (!(radius > 0) || !std::isfinite(radius)) return;  // one point: no rotation to speak of
      for (int k = begin; k < end; ++k) {
        const int i = members_[size_t(k)];
        arm_[size_t(i)] = ((*positions)[size_t(i)] - centroid) / radius;
      }
    });
  }
  // A_c(a, b) = Σ (S_i T_i)^T A_ij (S_j T_j) over i in a, j in b, with a_ij = S_i A_ij S_j (A_ij
  // itself between free vertices, most of them). A is symmetric, so A_c = H + H^T with
  // H(a, b) = Σ T_i^T h_ij T_j over A's blocks on and above the diagonal (j > i, and a_ii / 2 for
  // j = i): each block of A is read once, from its stored half (BlockSparseMatrix::Storage::
  // symmetric), and half the products of summing over whole rows are left out.
  // Coarse row a of H gathers the upper rows of its members (one writer per block: any thread
  // count adds the same terms in the same order). With T = [I | -[r]x] (R = [r]x), each row i
  // first sums h_ij T_j = [h_ij | -h_ij R_j] over the j of one aggregate b, and multiplies by
  // T_i^T once per aggregate it reaches: [sum; R_i sum].
  parallel_tasks(aggregates(), threads, worth_it, [&](int a) {
    for (int s = coarse.row_begin(a); s < coarse.row_end(a); ++s) half_[size_t(s)].setZero();
    RowSums sums;
    for (int m = members_start_[size_t(a)]; m < members_start_[size_t(a) + 1]; ++m) {
      const int i = members_[size_t(m)];
      const Eigen::Matrix3d& s_i = c.S[size_t(i)];
      const bool free_i = c.is_free[size_t(i)];
      for (int s = A.diagonal_slot(i); s < A.row_end(i); ++s) {
        const int j = A.col(s);
        const Eigen::Matrix3d& s_j = c.S[size_t(j)];
        const Eigen::Matrix3d& a_ij = A.value(s);
        Eigen::Matrix3d h_ij = free_i && c.is_free[size_t(j)] ? a_ij : Eigen::Matrix3d(s_i * a_ij * s_j);
        if (j == i) h_ij *= 0.5;  // exact: H + H^T counts it twice
        Eigen::Matrix<double, 3, kModes>& sum = sums.of(coarse_slot_[size_t(s)], half_, arm_[size_t(i)]);
        sum.leftCols<3>() += h_ij;
        // -h_ij [r_j]x, column by column (column k of [r]x is r x e_k): 18 products, not 27.
        const Vec3& r = arm_[size_t(j)];
        sum.col(3) -= r.z() * h_ij.col(1) - r.y() * h_ij.col(2);
        sum.col(4) -= r.x() * h_ij.col(2) - r.z() * h_ij.col(0);
        sum.col(5) -= r.y() * h_ij.col(0) - r.x() * h_ij.col(1);
      }
      sums.flush(half_, arm_[size_t(i)]);
    }
  });
  parallel_tasks(aggregates(), threads, worth_it, [&](int a) {
    for (int s = coarse.row_begin(a); s < coarse.row_end(a); ++s) {
      coarse_[size_t(s)] = half_[size_t(s)] + half_[size_t(mirror_[size_t(s)])].transpose();
    }
  });
  // A patch motion that every member has constrained (a zero column of P, or one of rounding
  // size when they all slide on the same tilted plane, or a rotation of a one-vertex patch) would
  // leave A_c singular: on the null space of N_a = Σ T_i^T S_i T_i the block gets the identity,
  // scaled like the block (the correction there is multiplied by S_i T_i and vanishes anyway).
  // Most aggregates have no constrained member (S_i = I). Their N_a = Σ T_i^T T_i is
  // [m I, -[Σ r_i]x; [Σ r_i]x, J] with Σ r_i = 0 (arms about the centroid, up to rounding) and
  // J = Σ (|r_i|² I - r_i r_i^T), the patch's inertia: only a rotation can be null (arms zero,
  // or members on one line), and J's closed-form 3 x 3 eigenvalues tell without the 6 x 6
  // products and eigen-decomposition (BM_SolvePart/coarse-factor).
  parallel_tasks(aggregates(), threads, worth_it, [&](int a) {
    if (rotations_free(a, c)) return;
    Block free_directions = Block::Zero();
    for (int m = members_start_[size_t(a)]; m < members_start_[size_t(a) + 1]; ++m) {
      const int i = members_[size_t(m)];
      const Modes p_i = c.S[size_t(i)] * modes(i);
      free_directions.noalias() += p_i.transpose() * p_i;
    }
    const Eigen::SelfAdjointEigenSolver<Block> eig(free_directions);
    Block& block = coarse_[size_t(coarse.diagonal_slot(a))];
    const double scale = block.trace() > 0 ? block.trace() / kModes : 1.0;
    for (int k = 0; k < kModes; ++k) {
      if (eig.eigenvalues()(k) < kConstrainedDirection) {
        block += scale * eig.eigenvectors().col(k) * eig.eigenvectors().col(k).transpose();
      }
    }
  });
  parallel_ = worth_it;
}

void CoarseCorrection::add_correction(const std::vector<Vec3>& in, const VertexConstraints& c,
                                      std::vector<Vec3>& out, int threads) const {
  const int count = aggregates();
  rc_.resize(kModes * count);
  parallel_tasks(count, threads, static_cast<int>(in.size()) >= kMinParallelLength, [&](int a) {
    Eigen::Matrix<double, kModes, 1> sum = Eigen::Matrix<double, kModes, 1>::Zero();
    for (int k = members_start_[size_t(a)]; k < members_start_[size_t(a) + 1]; ++k) {
      const int i = members_[size_t(k)];
      const Vec3 s_in = c.filtered(i, in[size_t(i)]);
      sum.head<3>() += s_in;                              // T_i^T: the force's sum ...
      sum.tail<3>() += arm_[size_t(i)].cross(s_in);       // ... and its moment about the centroid
    }
    rc_.segment<kModes>(kModes * position_[size_t(a)]) = sum;
  });
  cholesky_.solve(rc_, threads, static_cast<int>(in.size()) >= kMinParallelLength);
  parallel_for(static_cast<int>(in.size()), threads, [&](int i) {
    const auto e = rc_.segment<kModes>(kModes * position_[size_t(aggregate_of_[size_t(i)])]);
    const Vec3 motion = e.head<3>() + Vec3(e.tail<3>()).cross(arm_[size_t(i)]);
    out[size_t(i)] += c.filtered(i, motion);
  });
}

}  // namespace cloth
