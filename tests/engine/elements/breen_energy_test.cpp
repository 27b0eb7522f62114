// Breen-House-Wozny energies (Karthikeyan & Ranganathan 1998): the curves against the tutorial's
// formulas and independent
// geometry / quadrature, C^1 joins, kernel derivatives against central differences on random,
// nearly straight, nearly folded and join-straddling stencils, rest and rigid-motion invariance,
// damping, calibration against continuum energies, builders, repel pairs and the presets.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <set>

#include "elements/breen_energy.hpp"
#include "core/error.hpp"
#include "engine/support/finite_difference.hpp"

namespace cloth {
namespace {

constexpr double kDeg = std::numbers::pi / 180;

using Fn = std::function<double(double)>;
double central(const Fn& f, double x, double h) { return (f(x + h) - f(x - h)) / (2 * h); }

// A 1D curve's df and d2f against central differences of f and df.
void check_curve(const std::function<Curve1D(double)>& curve, double x, const std::string& what) {
  const Curve1D c = curve(x);
  const double h = 1e-6 * std::max(1.0, std::abs(x));
  const double fd1 = central([&](double y) { return curve(y).f; }, x, h);
  const double fd2 = central([&](double y) { return curve(y).df; }, x, h);
  EXPECT_NEAR(c.df, fd1, 1e-6 * std::max(std::abs(c.df), 1e-9)) << what << " df at " << x;
  EXPECT_NEAR(c.d2f, fd2, 1e-5 * std::max(std::abs(c.d2f), 1e-9)) << what << " d2f at " << x;
}

// Composite Simpson quadrature, an independent check of closed forms.
double simpson(const Fn& f, double a, double b, int n = 20000) {
  const double h = (b - a) / n;
  double s = f(a) + f(b);
  for (int i = 1; i < n; ++i) s += (i % 2 ? 4 : 2) * f(a + i * h);
  return s * h / 3;
}

TEST(BreenCurves, WellsAreTheTutorialFunctionsAndC4AtTheJoin) {
  const double w = 0.02;
  for (const double r : {0.2 * w, 0.7 * w, 0.999 * w, 1.001 * w, 1.3 * w, 2 * w}) {
    const double seed_r = r <= w ? std::pow(w - r, 5) / r : 0;          // tutorial's R / C
    const double seed_s = r > w ? std::pow((r - w) / w, 5) : 0;         // tutorial's S / C
    EXPECT_NEAR(repel_well(r / w).f * std::pow(w, 4), seed_r, 1e-14 * std::pow(w, 4));
    EXPECT_NEAR(stretch_well(r / w).f, seed_s, 1e-15);
    check_curve(repel_well, r / w, "repel");
    check_curve(stretch_well, r / w, "stretch");
  }
  // Both sides of s = 1 go to zero with their derivatives (C^4): value and slope at 1 +- 1e-3.
  for (const double s : {1 - 1e-3, 1 + 1e-3}) {
    const Curve1D a = repel_well(s), b = stretch_well(s);
    EXPECT_LT(std::abs(a.f + b.f), 1e-14);
    EXPECT_LT(std::abs(a.df + b.df), 1e-11);
    EXPECT_LT(std::abs(a.d2f + b.d2f), 1e-7);
  }
  EXPECT_GT(repel_well(1e-3).f, 900);  // repulsion ~ 1 / r: steep near contact
}

// The linear term that makes C a modulus: 1/2 (s - 1)^2 in tension, nothing in compression; its
// value and slope are continuous at s = 1, where the curvature jumps from 0 to 1 (the rest state
// takes the tension side's, so that a Newton step from rest has a stiffness).
TEST(BreenCurves, LinearStretchIsHalfStrainSquaredInTensionOnly) {
  for (const double s : {0.5, 0.999, 1 - 1e-12}) {
    const Curve1D c = linear_stretch(s);
    EXPECT_EQ(c.f, 0);
    EXPECT_EQ(c.df, 0);
    EXPECT_EQ(c.d2f, 0);
  }
  EXPECT_EQ(linear_stretch(1.0).f, 0);
  EXPECT_EQ(linear_stretch(1.0).df, 0);
  EXPECT_EQ(linear_stretch(1.0).d2f, 1);
  for (const double s : {1.001, 1.05, 1.5}) {
    EXPECT_NEAR(linear_stretch(s).f, 0.5 * (s - 1) * (s - 1), 1e-15);
    EXPECT_EQ(linear_stretch(s).d2f, 1);
    check_curve(linear_stretch, s, "linear");
  }
  EXPECT_LT(linear_stretch(1 + 1e-9).df, 2e-9);
}

TEST(BreenCurves, CurvatureIsTheCircleFitAboveTheJoinAndC1There) {
  const double w = 0.01, join = 45 * kDeg;
  // Independent: circumradius of a, p, b with |pa| = |pb| = w, R = |ab| |pa| |pb| / (4 area).
  for (const double theta : {46 * kDeg, 90 * kDeg, 150 * kDeg, 179.9 * kDeg}) {
    const Vec3 p(0, 0, 0), a(w, 0, 0), b(w * std::cos(theta), w * std::sin(theta), 0);
    const double area = 0.5 * (a - p).cross(b - p).norm();
    const double radius = (a - b).norm() * w * w / (4 * area);
    EXPECT_NEAR(breen_curvature(theta, w, join).f, 1 / radius, 1e-9 / radius) << theta;
    check_curve([&](double t) { return breen_curvature(t, w, join); }, theta, "K");
  }
  for (const double theta : {5 * kDeg, 30 * kDeg, 44 * kDeg}) {
    check_curve([&](double t) { return breen_curvature(t, w, join); }, theta, "K low");
  }
  const Curve1D below = breen_curvature(join - 1e-9, w, join), above = breen_curvature(join + 1e-9, w, join);
  EXPECT_NEAR(below.f, above.f, 1e-6 * above.f);
  EXPECT_NEAR(below.df, above.df, 1e-6 * std::abs(above.df));
  EXPECT_GT(breen_curvature(1e-6, w, join).f, 1e4 / w);  // goes to infinity as the thread folds
}

TEST(BreenCurves, ShearForceIsC1AtTheFitEndAndLocksAt60Degrees) {
  ShearCurve c;
  c.g1 = 50;
  c.g3 = 30;
  for (const double sign : {-1.0, 1.0}) {
    const Curve1D lo = shear_force(c, sign * (c.fit_end - 1e-9)), hi = shear_force(c, sign * (c.fit_end + 1e-9));
    EXPECT_NEAR(lo.f, hi.f, 1e-6 * std::abs(hi.f));
    EXPECT_NEAR(lo.df, hi.df, 1e-6 * std::abs(hi.df));
  }
  for (const double a : {-55 * kDeg, -9 * kDeg, 3 * kDeg, 11 * kDeg, 40 * kDeg, 59.5 * kDeg}) {
    check_curve([&](double x) { return Curve1D{shear_force(c, x).f, shear_force(c, x).df, shear_force(c, x).d2f}; },
                a, "F");
  }
  EXPECT_GT(shear_force(c, c.lock_angle - 1e-6).f, 1e3 * shear_force(c, c.fit_end).f);
}

TEST(BreenCurves, TrellisEnergyIsTheTutorialIntegralOfFCosA) {
  ShearCurve c;
  c.g1 = 56.19;
  c.g3 = 20;
  for (const double a : {1e-3, 5 * kDeg, 10 * kDeg, 10.5 * kDeg, 30 * kDeg, 55 * kDeg, -25 * kDeg}) {
    const double quad = simpson([&](double x) { return shear_force(c, x).f * std::cos(x); }, 0, std::abs(a));
    EXPECT_NEAR(trellis_energy_density(c, a).f, quad, 1e-10 * std::max(quad, 1e-12)) << a;
    check_curve([&](double x) { return trellis_energy_density(c, x); }, a, "I");
  }
  EXPECT_EQ(trellis_energy_density(c, 0).f, 0.0);
}

// ---- Kernel checks ------------------------------------------------------------------------------

Vec3 random_vec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return Vec3(u(rng), u(rng), u(rng));
}

Eigen::Matrix3d random_rotation(std::mt19937& rng) {
  std::normal_distribution<double> g;
  return Eigen::Quaterniond(g(rng), g(rng), g(rng), g(rng)).normalized().toRotationMatrix();
}

template <int N>
using Kernel = std::function<ElementEval<N>(const std::vector<Vec3>&, const std::vector<Vec3>&, double)>;

// eval(x, v, damping): the elastic kernel (damping 0) and the damping alone (damping > 0 with the
// elastic curve switched off by the caller when `damping_only`). Checks force = -dE/dx, dfdx =
// d(force)/dx, symmetry, and for damping dfdv = d(force)/dv, dissipation and the kept
// -k_d C_dot d2C/dx2 term (the force's x-derivative across the condition gradient).
template <int N>
void check_kernel(const Kernel<N>& elastic, const Kernel<N>& damping, const VecN<N>& q, const VecN<N>& vel,
                  const std::string& what) {
  const std::vector<Vec3> v0(N / 3, Vec3::Zero());
  const ElementEval<N> el = elastic(unflatten(q), v0, 0);
  ASSERT_TRUE(std::isfinite(el.energy)) << what;
  const std::function<Eigen::Matrix<double, 1, 1>(const VecN<N>&)> energy = [&](const VecN<N>& p) {
    return Eigen::Matrix<double, 1, 1>(elastic(unflatten(p), v0, 0).energy);
  };
  const std::function<VecN<N>(const VecN<N>&)> force = [&](const VecN<N>& p) {
    return elastic(unflatten(p), v0, 0).force;
  };
  // At an energy minimum (the straight bend) the force is round-off and a relative comparison is
  // meaningless: there it must vanish against the stiffness times the element size instead.
  const double size = (unflatten(q)[0] - unflatten(q)[1]).norm();
  if (el.force.norm() > 1e-9 * el.dfdx.norm() * size) {
    EXPECT_LT((fd_error<N, 1>(energy, q, -el.force.transpose())), 1e-6) << what << ": force vs energy";
  }
  EXPECT_LT((fd_error<N, N>(force, q, el.dfdx)), 1e-5) << what << ": dfdx vs force";
  EXPECT_LE((el.dfdx - el.dfdx.transpose()).norm(), 1e-9 * el.dfdx.norm()) << what;
  EXPECT_TRUE(el.dfdv.isZero(0)) << what;
  if (!damping) return;

  const std::vector<Vec3> x = unflatten(q), v = unflatten(vel);
  const ElementEval<N> dm = damping(x, v, 1);
  EXPECT_EQ(dm.energy, 0.0) << what;
  const std::function<VecN<N>(const VecN<N>&)> damp_v = [&](const VecN<N>& p) { return damping(x, unflatten(p), 1).force; };
  EXPECT_LT((fd_error<N, N>(damp_v, vel, dm.dfdv)), 1e-7) << what << ": dfdv";
  EXPECT_LE(vel.dot(dm.force), 1e-12 * vel.norm() * dm.force.norm()) << what << ": damping adds energy";
  // dfdv = -k_d g g^T: g is the condition gradient. Across it (projector P), the full x-derivative
  // of the damping force is exactly the kept term.
  const Eigen::SelfAdjointEigenSolver<MatN<N>> eig(-dm.dfdv);
  const VecN<N> g = eig.eigenvectors().col(N - 1);
  const MatN<N> proj = MatN<N>::Identity() - g * g.transpose();
  const std::function<VecN<N>(const VecN<N>&)> damp_x = [&](const VecN<N>& p) {
    return VecN<N>(proj * damping(unflatten(p), v, 1).force);
  };
  EXPECT_LT((fd_error<N, N>(damp_x, q, MatN<N>(proj * dm.dfdx))), 1e-5) << what << ": damping dfdx";
  EXPECT_LE((dm.dfdx - dm.dfdx.transpose()).norm(), 1e-9 * dm.dfdx.norm()) << what;
}

// Three points a - p - b with angle theta at p and segment lengths near w, randomly placed.
VecN<9> stencil(std::mt19937& rng, double theta, double w) {
  std::uniform_real_distribution<double> u(0.8, 1.2);
  const Eigen::Matrix3d rot = random_rotation(rng);
  const Vec3 p = random_vec(rng, 0.1);
  return flatten<9>({p + rot * Vec3(w * u(rng), 0, 0), p,
                     p + rot * (w * u(rng) * Vec3(std::cos(theta), std::sin(theta), 0))});
}

TEST(BreenStretch, DerivativesMatchFiniteDifferences) {
  std::mt19937 rng(1994);
  const BreenLink link{{0, 1}, 0.02, 0.02 * 0.025};
  for (int trial = 0; trial < 40; ++trial) {
    // Both sides of the join at r = w, from near it (1e-3) to far (0.3 w and 1.5 w).
    // (Offsets below 3e-3 w would need steps below the helper's 1e-8 m to resolve the quintic.)
    const double s = trial % 2 ? 1 + std::pow(10.0, -2.5 + 2 * (trial % 7) / 6.0) * 0.5
                               : 1 - std::pow(10.0, -2.5 + 2 * (trial % 7) / 6.0) * 0.7;
    const Vec3 a = random_vec(rng, 0.1), dir = random_vec(rng, 1).normalized();
    const VecN<6> q = flatten<6>({a, a + s * link.rest * dir});
    const VecN<6> vel = flatten<6>({random_vec(rng, 1), random_vec(rng, 1)});
    for (const bool stretch : {true, false}) {
      const auto eval = [&](const std::vector<Vec3>& x, const std::vector<Vec3>& v, double C, double kd) {
        return stretch ? eval_breen_stretch(link, x, v, C, kd) : eval_breen_repel(link, x, v, C, kd);
      };
      check_kernel<6>([&](const auto& x, const auto& v, double) { return eval(x, v, 3e6, 0); },
                      [&](const auto& x, const auto& v, double kd) { return eval(x, v, 0, kd); }, q, vel,
                      (stretch ? "stretch s " : "repel s ") + std::to_string(s));
    }
  }
}

TEST(BreenBend, DerivativesMatchFiniteDifferences) {
  std::mt19937 rng(1995);
  BendingCurve linear, cubic;
  linear.b1 = cubic.b1 = 1.5e-5;
  cubic.b3 = 4e-8;
  const BreenBend bend{{0, 1, 2}, 0, 0.01, 1e-4};
  std::vector<double> angles = {std::numbers::pi};  // exactly straight
  for (int k = 1; k <= 6; ++k) angles.push_back(std::numbers::pi - std::pow(10.0, -k));  // nearly straight
  for (const double d : {1e-4, 1e-3, 1e-2, 0.1}) {  // both sides of the 45-degree join
    angles.push_back(45 * kDeg - d);
    angles.push_back(45 * kDeg + d);
  }
  for (const double t : {0.02, 0.05, 0.2, 0.5}) angles.push_back(t);  // nearly folded
  for (int k = 0; k < 10; ++k) angles.push_back(std::uniform_real_distribution<double>(0.1, 3.1)(rng));
  for (const double theta : angles) {
    for (const BendingCurve* curve : {&linear, &cubic}) {
      const VecN<9> q = stencil(rng, theta, bend.spacing);
      const VecN<9> vel = flatten<9>({random_vec(rng, 1), random_vec(rng, 1), random_vec(rng, 1)});
      check_kernel<9>([&](const auto& x, const auto& v, double) { return eval_breen_bend(bend, x, v, *curve); }, {}, q,
                      vel, "bend theta " + std::to_string(theta) + (curve == &cubic ? " cubic" : " linear"));
    }
  }
}

TEST(BreenTrellis, DerivativesMatchFiniteDifferences) {
  std::mt19937 rng(1996);
  ShearCurve curve;
  curve.g1 = 67.4;
  curve.g3 = 25;
  const BreenTrellis tr{{0, 1, 2}, 2.5e-5};
  std::vector<double> shear = {1e-5, -1e-3, 0.05, 59 * kDeg, -59.9 * kDeg};
  for (const double d : {1e-4, 1e-3, 1e-2}) {  // both sides of the fit end, both senses
    for (const double sign : {-1.0, 1.0}) {
      shear.push_back(sign * (curve.fit_end - d));
      shear.push_back(sign * (curve.fit_end + d));
    }
  }
  for (int k = 0; k < 10; ++k) shear.push_back(std::uniform_real_distribution<double>(-1.0, 1.0)(rng));
  for (const double a : shear) {
    const VecN<9> q = stencil(rng, std::numbers::pi / 2 - a, 0.01);
    const VecN<9> vel = flatten<9>({random_vec(rng, 1), random_vec(rng, 1), random_vec(rng, 1)});
    ShearCurve off = curve;
    off.g1 = off.g3 = 0;
    check_kernel<9>([&](const auto& x, const auto& v, double) { return eval_breen_trellis(tr, x, v, curve, 0); },
                    [&](const auto& x, const auto& v, double kd) { return eval_breen_trellis(tr, x, v, off, kd); }, q,
                    vel, "trellis A " + std::to_string(a));
  }
  // Beyond the lock the energy is infinite (the tutorial's force goes to infinity at 60 degrees).
  const std::vector<Vec3> x = unflatten(stencil(rng, std::numbers::pi / 2 - 61 * kDeg, 0.01));
  EXPECT_TRUE(std::isinf(eval_breen_trellis(tr, x, x, curve, 0).energy));
}

// ---- Whole grids --------------------------------------------------------------------------------

RestMesh test_grid() {
  GridSpec spec;
  spec.width = 0.3;
  spec.height = 0.2;
  spec.nx = 7;
  spec.ny = 6;
  return make_grid(spec);
}

struct GridEval {
  double energy = 0;
  std::vector<Vec3> force;
};

// Sum of all element energies and forces on a grid (the scatter the model will do).
GridEval evaluate_grid(const BreenElements& el, const BreenCurves& c, const std::vector<Vec3>& x,
                       const std::vector<Vec3>& v, double k_damp) {
  GridEval out;
  out.force.assign(x.size(), Vec3::Zero());
  const auto scatter = [&](const auto& idx, const auto& r) {
    out.energy += r.energy;
    for (size_t i = 0; i < idx.size(); ++i) out.force[idx[i]] += r.force.template segment<3>(3 * i);
  };
  for (const BreenLink& l : el.links) scatter(l.v, eval_breen_stretch(l, x, v, c.well_scale, k_damp));
  for (const BreenBend& b : el.bends) scatter(b.v, eval_breen_bend(b, x, v, b.thread == 0 ? c.warp : c.weft));
  for (const BreenTrellis& t : el.trellis) scatter(t.v, eval_breen_trellis(t, x, v, c.shear, k_damp));
  return out;
}

TEST(BreenGrid, ZeroAtRestAndUnderRigidMotion) {
  std::mt19937 rng(1997);
  const RestMesh mesh = test_grid();
  const BreenElements el = build_breen_elements(mesh);
  const BreenCurves c = breen_preset("cotton");
  const std::vector<Vec3> v0(mesh.vertex_count(), Vec3::Zero());
  const Eigen::Matrix3d rot = random_rotation(rng);
  const Vec3 t(0.3, -1.2, 2.0), omega(0.7, -2.0, 1.1);
  std::vector<Vec3> moved;
  for (const Vec3& p : mesh.positions) moved.push_back(rot * p + t);
  for (const std::vector<Vec3>* x : {&mesh.positions, static_cast<const std::vector<Vec3>*>(&moved)}) {
    std::vector<Vec3> rigid_v;  // a rigid velocity field: no damping either
    for (const Vec3& p : *x) rigid_v.push_back(omega.cross(p) + Vec3(1, 2, 3));
    const GridEval g = evaluate_grid(el, c, *x, rigid_v, 0.5);
    EXPECT_LT(std::abs(g.energy), 1e-18);
    // Round-off: each link turns an error of a few epsilon |x| in its length into a force of its
    // stiffness C a / w^2 times that error; a vertex has at most four links.
    double stiffest = 0, reach = 0;
    for (const BreenLink& l : el.links) stiffest = std::max(stiffest, c.well_scale * l.area / (l.rest * l.rest));
    for (const Vec3& p : *x) reach = std::max(reach, p.norm());
    const double round_off = 4 * stiffest * 8 * std::numeric_limits<double>::epsilon() * reach;
    for (const Vec3& f : g.force) EXPECT_LT(f.norm(), round_off);
  }

  // A deformed cloth: energy invariant, forces rotate with it, no net force or torque.
  std::vector<Vec3> bent, bent_moved;
  for (const Vec3& p : mesh.positions) {
    bent.push_back(p + Vec3(0, 0.05 * std::sin(9 * p.x()) * std::cos(7 * p.z()), 0) + random_vec(rng, 2e-4));
    bent_moved.push_back(rot * bent.back() + t);
  }
  const GridEval a = evaluate_grid(el, c, bent, v0, 0), b = evaluate_grid(el, c, bent_moved, v0, 0);
  ASSERT_GT(a.energy, 0);
  EXPECT_NEAR(a.energy, b.energy, 1e-10 * a.energy);
  Vec3 net = Vec3::Zero(), torque = Vec3::Zero();
  double scale = 0;
  for (size_t i = 0; i < bent.size(); ++i) {
    EXPECT_LT((rot * a.force[i] - b.force[i]).norm(), 1e-8 * (a.force[i].norm() + 1e-9));
    net += b.force[i];
    torque += bent_moved[i].cross(b.force[i]);
    scale += b.force[i].norm();
  }
  EXPECT_LT(net.norm(), 1e-10 * scale);
  EXPECT_LT(torque.norm(), 1e-9 * scale);
}

TEST(BreenGrid, ElementCountsFollowTheTutorialsStencils) {
  const RestMesh mesh = test_grid();
  const BreenElements el = build_breen_elements(mesh);
  EXPECT_NEAR(el.spacing_u, 0.3 / 6, 1e-12);
  EXPECT_NEAR(el.spacing_v, 0.2 / 5, 1e-12);
  // Tutorial: S over the 4-connected neighbours; bend over the six angles M_i "formed by the
  // segments connecting i to the nearest neighbours along the horizontal and vertical"; trellis
  // over "four trellising angles" per point. Checked at an interior point with two rings of
  // neighbours.
  const int p = mesh.grid_index(3, 3);
  const auto involves = [&](const auto& elems) {
    return std::count_if(elems.begin(), elems.end(),
                         [&](const auto& e) { return std::find(e.v.begin(), e.v.end(), p) != e.v.end(); });
  };
  EXPECT_EQ(involves(el.links), 4);
  EXPECT_EQ(involves(el.bends), 6);
  EXPECT_EQ(std::count_if(el.trellis.begin(), el.trellis.end(), [&](const BreenTrellis& t) { return t.v[1] == p; }), 4);
  // Every trellis corner is a right angle in rest (u, v), every bend is straight.
  for (const BreenTrellis& t : el.trellis) {
    EXPECT_NEAR((mesh.uv[t.v[0]] - mesh.uv[t.v[1]]).dot(mesh.uv[t.v[2]] - mesh.uv[t.v[1]]), 0, 1e-15);
  }
  for (const BreenBend& b : el.bends) {
    const Vec2 d1 = mesh.uv[b.v[1]] - mesh.uv[b.v[0]], d2 = mesh.uv[b.v[2]] - mesh.uv[b.v[1]];
    EXPECT_NEAR((d1 - d2).norm(), 0, 1e-12);
  }
}

TEST(BreenGrid, BuildersRejectNonGridAndDegenerateMeshes) {
  RestMesh mesh = test_grid();
  RestMesh not_grid = mesh;
  not_grid.grid_nx = not_grid.grid_ny = 0;
  EXPECT_THROW(build_breen_elements(not_grid), InputError);
  RestMesh wrong_size = mesh;
  wrong_size.grid_nx += 1;
  EXPECT_THROW(build_breen_elements(wrong_size), InputError);
  RestMesh degenerate = mesh;
  degenerate.uv[mesh.grid_index(2, 2)] = degenerate.uv[mesh.grid_index(3, 2)];
  EXPECT_THROW(build_breen_elements(degenerate), InputError);
  degenerate.uv[mesh.grid_index(2, 2)].x() = std::nan("");
  EXPECT_THROW(build_breen_elements(degenerate), InputError);
}

// Calibration of the tutorial's B = M K w^2 / 2 and T = l integral F cos A dA per w x w patch: a
// strip rolled onto a cylinder stores 1/2 B kappa^2 per unit area in its threads along u, a
// uniformly sheared sheet integral_0^A F cos per unit area.
TEST(BreenGrid, UniformBendAndShearGiveContinuumEnergies) {
  const RestMesh mesh = test_grid();
  const BreenElements el = build_breen_elements(mesh);
  const BreenCurves c = breen_preset("wool");
  const double area = el.spacing_u * el.spacing_v;

  const double radius = 0.4;  // cylinder axis along v: the u threads bend
  std::vector<Vec3> rolled;
  for (const Vec2& uv : mesh.uv) {
    rolled.push_back(Vec3(radius * std::sin(uv.x() / radius), radius * (1 - std::cos(uv.x() / radius)), uv.y()));
  }
  double bend_energy = 0;
  for (const BreenBend& b : el.bends) {
    const double e = eval_breen_bend(b, rolled, rolled, b.thread == 0 ? c.warp : c.weft).energy;
    if (b.thread == 0) {
      bend_energy += e;
    } else {
      EXPECT_LT(e, 1e-20);  // the v threads stay straight
    }
  }
  // The bends centred on columns 1 .. nx - 2 cover nx - 2 cells along u and the sheet's whole
  // width, ny - 1 cells: the boundary threads' half patches make up the sheet's area exactly.
  const double bent_area = (mesh.grid_nx - 2) * (mesh.grid_ny - 1) * area;
  EXPECT_NEAR(bend_energy / bent_area, 0.5 * c.warp.b1 / (radius * radius), 2e-3 * 0.5 * c.warp.b1 / (radius * radius));

  for (const double shear : {4 * kDeg, 25 * kDeg}) {
    std::vector<Vec3> sheared;
    for (const Vec2& uv : mesh.uv) sheared.push_back(Vec3(uv.x() + uv.y() * std::sin(shear), 0, uv.y() * std::cos(shear)));
    double e = 0;
    for (const BreenTrellis& t : el.trellis) e += eval_breen_trellis(t, sheared, sheared, c.shear, 0).energy;
    const double cells = (mesh.grid_nx - 1) * (mesh.grid_ny - 1);
    const double expect = simpson([&](double a) { return shear_force(c.shear, a).f * std::cos(a); }, 0, shear);
    EXPECT_NEAR(e / (cells * area), expect, 1e-9 * expect) << shear;
  }
}

TEST(BreenRepel, PairsAreEveryCloseNonLinkedPair) {
  RestMesh mesh = test_grid();
  const BreenElements el = build_breen_elements(mesh);
  // Fold the sheet over itself along u so that the far half lies 0.6 w above the near half.
  const double w = std::min(el.spacing_u, el.spacing_v), fold = 0.15;
  std::vector<Vec3> x;
  std::mt19937 rng(7);
  for (const Vec2& uv : mesh.uv) {
    const double u = uv.x() - mesh.uv[0].x();
    x.push_back(u <= fold ? Vec3(u, 0, uv.y()) : Vec3(2 * fold - u, 0.6 * w, uv.y()) + random_vec(rng, 0.1 * w));
  }
  const std::vector<BreenLink> pairs = find_repel_pairs(x, el.links, w, 1.0);
  std::set<std::pair<int, int>> linked, found, brute;
  for (const BreenLink& l : el.links) linked.insert({std::min(l.v[0], l.v[1]), std::max(l.v[0], l.v[1])});
  for (const BreenLink& l : pairs) {
    EXPECT_TRUE(found.insert({std::min(l.v[0], l.v[1]), std::max(l.v[0], l.v[1])}).second) << "duplicate";
    EXPECT_EQ(l.rest, w);
  }
  for (int i = 0; i < static_cast<int>(x.size()); ++i) {
    for (int j = i + 1; j < static_cast<int>(x.size()); ++j) {
      if ((x[i] - x[j]).norm() < w && !linked.count({i, j})) brute.insert({i, j});
    }
  }
  EXPECT_GT(brute.size(), 10u);
  EXPECT_EQ(found, brute);
  // They push the layers apart.
  for (const BreenLink& l : pairs) {
    const ElementEval<6> r = eval_breen_repel(l, x, x, 1.0, 0);
    EXPECT_GT(r.energy, 0);
    EXPECT_GT(r.force.segment<3>(0).dot(x[l.v[0]] - x[l.v[1]]), 0);
  }
}

// ---- Presets ------------------------------------------------------------------------------------

TEST(BreenPresets, OrderedAsTheTutorialsDrapesAndKesSurveys) {
  const BreenCurves cotton = breen_preset("cotton"), wool = breen_preset("wool"),
                    polycotton = breen_preset("polyester-cotton");
  std::mt19937 rng(3);
  const BreenBend bend{{0, 1, 2}, 0, 0.01, 1e-4};
  const BreenTrellis tr{{0, 1, 2}, 2.5e-5};
  for (const double theta : {170 * kDeg, 120 * kDeg, 30 * kDeg}) {
    const std::vector<Vec3> x = unflatten(stencil(rng, theta, 0.01));
    const auto e = [&](const BreenCurves& c) { return eval_breen_bend(bend, x, x, c.warp).energy; };
    // Tutorial: "The stiffness of cotton ensured that it would produce a single draping structure".
    EXPECT_GT(e(cotton), e(polycotton)) << theta;
    EXPECT_GT(e(cotton), e(wool)) << theta;
  }
  for (const double a : {3 * kDeg, 20 * kDeg}) {
    const std::vector<Vec3> x = unflatten(stencil(rng, std::numbers::pi / 2 - a, 0.01));
    const auto e = [&](const BreenCurves& c) { return eval_breen_trellis(tr, x, x, c.shear, 0).energy; };
    // KES surveys: polyester/cotton blends have very high shear stiffness; wool suiting is soft.
    EXPECT_GT(e(polycotton), e(cotton)) << a;
    EXPECT_GT(e(cotton), e(wool)) << a;
  }
  // Stretch moduli from KES extensibility (material presets): wool the most extensible.
  EXPECT_GT(polycotton.well_scale, cotton.well_scale);
  EXPECT_GT(cotton.well_scale, wool.well_scale);
}

TEST(BreenPresets, UnknownNameThrowsListingTheValidOnes) {
  for (const std::string& name : breen_preset_names()) EXPECT_EQ(breen_preset(name).name, name);
  try {
    breen_preset("silk");
    FAIL() << "no throw";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("silk"), std::string::npos);
    for (const std::string& name : breen_preset_names()) EXPECT_NE(msg.find(name), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos);
  }
}

}  // namespace
}  // namespace cloth
