#include "cloth/jacobian_target.hpp"

namespace cloth {

JacobianTarget::JacobianTarget(BlockSparseMatrix& dfdx, BlockSparseMatrix& dfdv) : first_(&dfdx), second_(&dfdv) {
  assert(dfdx.same_pattern(dfdv) && "dfdx and dfdv share the slots");
}

JacobianTarget::JacobianTarget(BlockSparseMatrix& A, double x_scale, double v_scale,
                               const std::vector<Vec3>* d, std::vector<Vec3>* dfdx_d)
    : first_(&A), x_scale_(x_scale), v_scale_(v_scale), d_(d), dfdx_d_(dfdx_d) {
  assert((d == nullptr) == (dfdx_d == nullptr) && "the product needs both d and where it goes");
  assert((!d || d->size() == size_t(A.blocks())) && "d has one entry per vertex");
}

void JacobianTarget::set_zero(int threads) {
  first_->set_zero(threads);
  if (second_) second_->set_zero(threads);
  if (dfdx_d_) dfdx_d_->assign(size_t(first_->blocks()), Vec3::Zero());
}

void JacobianTarget::add_spring(const std::array<int, 4>& slots, int i, int j, const Eigen::Matrix3d& dfdx,
                                const Eigen::Matrix3d& dfdv) {
  const auto stencil = [&slots](BlockSparseMatrix& m, const Eigen::Matrix3d& b) {
    m.value(slots[0]) += b;
    m.value(slots[3]) += b;
    if (m.stores(slots[1])) m.value(slots[1]) -= b;
    if (m.stores(slots[2])) m.value(slots[2]) -= b;
  };
  if (second_) {
    stencil(*first_, dfdx);
    stencil(*second_, dfdv);
    return;
  }
  stencil(*first_, x_scale_ * dfdx + v_scale_ * dfdv);
  if (d_) {
    const Vec3 e = dfdx * ((*d_)[size_t(i)] - (*d_)[size_t(j)]);
    (*dfdx_d_)[size_t(i)] += e;
    (*dfdx_d_)[size_t(j)] -= e;
  }
}

void JacobianTarget::add_dfdv_diagonal(const std::vector<double>& d, double scale) {
  if (second_) {
    second_->add_diagonal(d, scale);
  } else {
    first_->add_diagonal(d, v_scale_ * scale);
  }
}

}  // namespace cloth
