#pragma once
// Where the force Jacobians' 3x3 blocks go (Baraff-Witkin section 2.3 and eq. 15-16). Either into
// ∂f/∂x and ∂f/∂v, each its own matrix (the static drape's Newton, tests), or, for the implicit
// step, straight into its system matrix
//   A += x_scale ∂f/∂x + v_scale ∂f/∂v      (eq. 16 with x_scale = -h², v_scale = -h; M added after)
// with the product ∂f/∂x d summed on the way for the right side of eq. 18 (d = h v0 + y). Then
// neither Jacobian is ever stored: one matrix of about 13 blocks per vertex (0.9 KiB) less, and no
// pass over three matrices to combine them.
#include <array>
#include <cassert>
#include <vector>

#include "linalg/block_sparse.hpp"

namespace cloth {

struct SpringState;  // springs.hpp

class JacobianTarget {
 public:
  /// ∂f/∂x into `dfdx`, ∂f/∂v into `dfdv` (one pattern).
  JacobianTarget(BlockSparseMatrix& dfdx, BlockSparseMatrix& dfdv);
  /// Both into A: A += x_scale ∂f/∂x + v_scale ∂f/∂v; with `d`, also dfdx_d += ∂f/∂x d.
  JacobianTarget(BlockSparseMatrix& A, double x_scale, double v_scale,
                 const std::vector<Vec3>* d = nullptr, std::vector<Vec3>* dfdx_d = nullptr);

  /// The pattern of the matrices (slot lookups).
  const BlockSparseMatrix& pattern() const { return *first_; }
  /// Zeroes the matrices, and dfdx_d (sized to the vertex count).
  void set_zero(int threads = 1);

  /// Block (row, col), which lives at `slot` of the pattern.
  void add(int slot, int row, int col, const Eigen::Matrix3d& dfdx, const Eigen::Matrix3d& dfdv) {
    if (second_) {
      first_->value(slot) += dfdx;
      second_->value(slot) += dfdv;
      return;
    }
    // A symmetric A keeps the upper blocks only; the elements' blocks are symmetric ((b, a) is
    // (a, b)^T: ModelAssembly.CombinedTarget... checks it for every model, with drag, wind and a
    // mouse spring), so the lower one adds nothing new. The product needs every block.
    if (first_->stores(slot)) first_->value(slot) += x_scale_ * dfdx + v_scale_ * dfdv;
    if (d_) (*dfdx_d_)[size_t(row)] += dfdx * (*d_)[size_t(col)];
  }
  /// An element's N x N Jacobians over its V = N / 3 vertices `v`, block (a, b) at slots[V a + b]:
  /// add() for each block, with ∂f/∂x d as one product per element (the BW elements' scatter was
  /// a tenth of their frame block by block).
  template <int N, size_t V>
  void add_element(const std::array<int, V * V>& slots, const std::array<int, V>& v,
                   const Eigen::Matrix<double, N, N>& dfdx, const Eigen::Matrix<double, N, N>& dfdv) {
    static_assert(N == 3 * static_cast<int>(V));
    if (second_) {
      for (size_t a = 0; a < V; ++a) {
        for (size_t b = 0; b < V; ++b) {
          add(slots[V * a + b], v[a], v[b], dfdx.template block<3, 3>(3 * a, 3 * b),
              dfdv.template block<3, 3>(3 * a, 3 * b));
        }
      }
      return;
    }
    // Only the blocks A stores are formed (when A is symmetric, (V + 1) / 2V of them: 6 of a
    // triangle's 9, 10 of a hinge's 16).
    for (size_t a = 0; a < V; ++a) {
      for (size_t b = 0; b < V; ++b) {
        const int slot = slots[V * a + b];
        if (!first_->stores(slot)) continue;
        first_->value(slot) += x_scale_ * dfdx.template block<3, 3>(3 * a, 3 * b) +
                               v_scale_ * dfdv.template block<3, 3>(3 * a, 3 * b);
      }
    }
    if (!d_) return;
    Eigen::Matrix<double, N, 1> d;
    for (size_t a = 0; a < V; ++a) d.template segment<3>(3 * a) = (*d_)[size_t(v[a])];
    const Eigen::Matrix<double, N, 1> product = dfdx.lazyProduct(d);
    for (size_t a = 0; a < V; ++a) (*dfdx_d_)[size_t(v[a])] += product.template segment<3>(3 * a);
  }
  /// Block (row, col), looked up in the pattern (elements without precomputed slots).
  void add(int row, int col, const Eigen::Matrix3d& dfdx, const Eigen::Matrix3d& dfdv) {
    const int slot = first_->slot(row, col);
    assert(slot >= 0 && "block not in the sparsity pattern");
    add(slot, row, col, dfdx, dfdv);
  }
  /// A spring between i and j: its Jacobians J on (i, i) and (j, j), -J on (i, j) and (j, i), at
  /// `slots` in that order (only the one of the last two that A stores, when A is symmetric).
  void add_spring(const std::array<int, 4>& slots, int i, int j, const SpringState& spring);
  /// ∂f/∂v += diag(scale d_i I) (velocity damping -m c I).
  void add_dfdv_diagonal(const std::vector<double>& d, double scale);

 private:
  BlockSparseMatrix* first_;             ///< ∂f/∂x, or A
  BlockSparseMatrix* second_ = nullptr;  ///< ∂f/∂v; null when combined into A
  double x_scale_ = 1, v_scale_ = 1;
  const std::vector<Vec3>* d_ = nullptr;
  std::vector<Vec3>* dfdx_d_ = nullptr;
};

}  // namespace cloth
