#include "forces/jacobian_target.hpp"

#include "elements/springs.hpp"

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

void JacobianTarget::add_spring(const std::array<int, 4>& slots, int i, int j, const SpringState& spring) {
  const auto stencil = [&slots](BlockSparseMatrix& m, const Eigen::Matrix3d& b) {
    m.value(slots[0]) += b;
    m.value(slots[3]) += b;
    if (m.stores(slots[1])) m.value(slots[1]) -= b;
    if (m.stores(slots[2])) m.value(slots[2]) -= b;
  };
  if (second_) {
    stencil(*first_, spring.dfdx());
    stencil(*second_, spring.dfdv());
    return;
  }
  // Both Jacobians are a dir dir^T + b I: so is their combination, and ∂f/∂x times the spring's
  // difference of d is two terms.
  const Vec3& dir = spring.dir;
  const double axial = x_scale_ * spring.axial_x + v_scale_ * spring.axial_v;
  const double iso = x_scale_ * spring.iso_x + v_scale_ * spring.iso_v;
  stencil(*first_, axial * dir * dir.transpose() + iso * Eigen::Matrix3d::Identity());
  if (d_) {
    const Vec3 d_ij = (*d_)[size_t(i)] - (*d_)[size_t(j)];
    const Vec3 dfdx_d_ij = (spring.axial_x * dir.dot(d_ij)) * dir + spring.iso_x * d_ij;
    (*dfdx_d_)[size_t(i)] += dfdx_d_ij;
    (*dfdx_d_)[size_t(j)] -= dfdx_d_ij;
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
