// Feynman's energy (Feynman 1986, section 5): buckling springs and angular bending against central
// differences (tension, both sides of the buckling switch, nearly zero length; random, nearly
// straight, nearly folded-back and very uneven lines), the thesis's formulas, rest and rigid-motion
// invariance, the element arrays, and the continuum checks: section 5.4's moduli of the spring
// lattice and section 5.3's bending energy on a cylinder.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <random>

#include "core/error.hpp"
#include "elements/feynman_energy.hpp"
#include "engine/support/kernel_checks.hpp"

namespace cloth {
namespace {

constexpr double kKs = 500.0, kR = 0.25, kDamp = 0.6, kBend = 2e-3, kBendDamp = 1e-4;

// Spring of rest length `rest` along a random direction, at length `len`.
VecN<6> spring_at(std::mt19937& rng, double len) {
  const Vec3 x0 = random_vec(rng, 0.1);
  return flatten<6>({x0, x0 + len * random_vec(rng, 1).normalized()});
}

TEST(FeynmanSpring, DerivativesMatchFiniteDifferences) {
  std::mt19937 rng(1986);
  std::uniform_real_distribution<double> u01(0, 1);
  int linear = 0, quadratic_compressed = 0;
  for (int trial = 0; trial < 72; ++trial) {
    const bool diagonal = trial % 2;
    const FeynmanSpring s{{0, 1}, (diagonal ? std::numbers::sqrt2 : 1.0) * (0.03 + 0.1 * u01(rng)), diagonal};
    const double b = 0.2 * s.rest * s.rest;  // the switch at 20% compression: b / l_i^2
    const double switch_at = b / s.rest;     // compression l_i - l where the branches meet
    double len = 0;
    switch (trial / 2 % 6) {
      case 0: len = s.rest * (1 + 0.3 * u01(rng)); break;                 // tension
      case 1: len = s.rest - 0.8 * switch_at * u01(rng); break;           // compressed, quadratic
      case 2: len = s.rest - switch_at * (1.5 + 2 * u01(rng)); break;     // buckled, linear
      case 3: len = s.rest - 0.97 * switch_at; break;                     // just before the switch
      case 4: len = s.rest - 1.03 * switch_at; break;                     // just after it
      case 5: len = s.rest * std::pow(10.0, -3.0 - u01(rng)); break;      // nearly zero length
    }
    (s.rest - len > switch_at ? linear : quadratic_compressed) += s.rest - len > 0;
    const VecN<6> q = spring_at(rng, len), vel = flatten<6>({random_vec(rng, 1), random_vec(rng, 1)});
    const std::string what = "spring trial " + std::to_string(trial) + " l/l_i " + std::to_string(len / s.rest);
    check_elastic<6>([&](const auto& x, const auto& v) { return eval_feynman_spring(s, x, v, kKs, kR, b, 0.0); }, q, what);
    check_damping<6>([&](const auto& x, const auto& v) { return eval_feynman_spring(s, x, v, 0.0, kR, b, kDamp); },
                     q, vel, what);
  }
  EXPECT_GE(linear, 30);
  EXPECT_GE(quadratic_compressed, 15);
}

// 5.5 as implemented: E = f k_s min((l - l_i)^2, (b / l_i)(l_i - l)) in compression, f k_s (l - l_i)^2
// in tension; continuous at the switch while the force halves there; b = 0 makes a tension-only spring.
TEST(FeynmanSpring, BucklingEnergyOfTheThesis) {
  const std::vector<Vec3> v(2, Vec3::Zero());
  for (int kind = 0; kind < 3; ++kind) {  // axial, diagonal, axial along the sheet's edge (half)
    const bool diagonal = kind == 1;
    const double share = kind == 2 ? 0.5 : 1.0;
    const double rest = diagonal ? 0.02 * std::numbers::sqrt2 : 0.02, f = (diagonal ? kR : 1.0) * share;
    const FeynmanSpring s{{0, 1}, rest, diagonal, share};
    const double b = 1e-4;  // m^2: switch at compression b / l_i
    const auto at = [&](double len) {
      return eval_feynman_spring(s, {Vec3(0, 0, 0), Vec3(len, 0, 0)}, v, kKs, kR, b, 0.0);
    };
    for (double len : {0.2 * rest, 0.6 * rest, 0.9 * rest, 0.99 * rest, rest, 1.1 * rest, 1.5 * rest}) {
      const double expected = len < rest ? f * kKs * std::min(std::pow(len - rest, 2), b / rest * (rest - len))
                                         : f * kKs * std::pow(len - rest, 2);
      EXPECT_NEAR(at(len).energy, expected, 1e-14) << len / rest;
      EXPECT_EQ(feynman_spring_energy(s, {Vec3(0, 0, 0), Vec3(len, 0, 0)}, kKs, kR, b), at(len).energy);
    }
    const double l_switch = rest - b / rest;
    const ElementEval<6> before = at(l_switch * (1 + 1e-12)), after = at(l_switch * (1 - 1e-12));
    EXPECT_NEAR(before.energy, after.energy, 1e-9 * before.energy);
    // Outward push on vertex 0 (at the origin, the other end at +x): -x.
    EXPECT_NEAR(before.force[0] / after.force[0], 2.0, 1e-6);
    EXPECT_LT(after.force[0], 0.0);
    // b = 0: no compressive strength at all.
    const ElementEval<6> slack = eval_feynman_spring(s, {Vec3(0, 0, 0), Vec3(0.5 * rest, 0, 0)}, v, kKs, kR, 0.0, 0.0);
    EXPECT_EQ(slack.energy, 0.0);
    EXPECT_EQ(slack.force.norm(), 0.0);
  }
}

// A line x0 - x1 - x2 turning by theta at x1, with the segments' lengths la, lb.
VecN<9> line_at(std::mt19937& rng, double theta, double la, double lb) {
  const Vec3 x1 = random_vec(rng, 0.1), a_hat = random_vec(rng, 1).normalized();
  const Vec3 axis = a_hat.cross(random_vec(rng, 1)).normalized();
  const Vec3 b_hat = Eigen::AngleAxisd(theta, axis) * a_hat;
  return flatten<9>({x1 - la * a_hat, x1, x1 + lb * b_hat});
}

Eigen::Matrix3d unit_jacobian(const Vec3& a) {  // d(a / |a|)/da
  const Vec3 d = a.normalized();
  return (Eigen::Matrix3d::Identity() - d * d.transpose()) / a.norm();
}

TEST(FeynmanBend, DerivativesMatchFiniteDifferences) {
  std::mt19937 rng(1987);
  std::uniform_real_distribution<double> u01(0, 1);
  for (int trial = 0; trial < 80; ++trial) {
    const FeynmanBend e{{0, 1, 2}, trial % 2 ? 0.5 : 1.0};
    double theta = 0.1 + 2.9 * u01(rng), la = 0.02 + 0.05 * u01(rng), lb = 0.02 + 0.05 * u01(rng);
    switch (trial / 2 % 5) {
      case 1: theta = std::pow(10.0, -6.0 + 3 * u01(rng)); break;                  // nearly straight
      case 2: theta = std::numbers::pi - std::pow(10.0, -2.0 + u01(rng)); break;   // nearly folded back
      case 3: la *= 1e-3; break;                                                   // very uneven
      case 4: theta = 0; break;                                                    // exactly straight
      default: break;
    }
    const VecN<9> q = line_at(rng, theta, la, lb);
    const VecN<9> vel = flatten<9>({random_vec(rng, 1), random_vec(rng, 1), random_vec(rng, 1)});
    const std::string what = "bend trial " + std::to_string(trial) + " theta " + std::to_string(theta);
    check_elastic<9>([&](const auto& x, const auto& v) { return eval_feynman_bend(e, x, v, kBend, 0.0); }, q, what);
    const Kernel<9> damping = [&](const auto& x, const auto& v) { return eval_feynman_bend(e, x, v, 0.0, kBendDamp); };
    check_damping<9>(damping, q, vel, what);
    // C = b_hat - a_hat (a = x1 - x0, b = x2 - x1): G and C_dot written out here.
    // C = b_hat - a_hat (a = x1 - x0, b = x2 - x1): G and C_dot written out here, dC_dot/dx by a
    // central difference with a step 1e-4 of the shorter segment.
    const auto jac = [](const VecN<9>& p) {
      return std::pair{unit_jacobian(p.segment<3>(3) - p.segment<3>(0)), unit_jacobian(p.segment<3>(6) - p.segment<3>(3))};
    };
    const auto c_dot = [&](const VecN<9>& p) {
      const auto [ja, jb] = jac(p);
      return Vec3(jb * (vel.segment<3>(6) - vel.segment<3>(3)) - ja * (vel.segment<3>(3) - vel.segment<3>(0)));
    };
    const auto [ja, jb] = jac(q);
    Eigen::Matrix<double, 9, 3> grad;
    grad << ja, -ja - jb, jb;
    Eigen::Matrix<double, 3, 9> dcdot_dx;
    const double step = 1e-4 * std::min(la, lb);
    for (int k = 0; k < 9; ++k) {
      VecN<9> p = q, m = q;
      p[k] += step;
      m[k] -= step;
      dcdot_dx.col(k) = (c_dot(p) - c_dot(m)) / (2 * step);
    }
    check_condition_damping_dfdx<9, 3>(damping, grad, dcdot_dx, 2.0 / 3.0 * e.weight * kBendDamp, q, vel, what);
  }
}

// 5.3 literally: c_1/3 w (180 deg - angle)^2 with the angle in radians, c_1 = B.
TEST(FeynmanBend, EnergyOfTheThesis) {
  std::mt19937 rng(7);
  const std::vector<Vec3> v(3, Vec3::Zero());
  for (double theta : {0.0, 1e-3, 0.4, 1.5, 3.0}) {
    for (double w : {1.0, 0.75, 0.5}) {
      const std::vector<Vec3> x = unflatten(line_at(rng, theta, 0.03, 0.05));
      const double angle = std::acos(std::clamp((x[0] - x[1]).normalized().dot((x[2] - x[1]).normalized()), -1.0, 1.0));
      const double expected = kBend / 3 * w * std::pow(std::numbers::pi - angle, 2);
      EXPECT_NEAR(eval_feynman_bend({{0, 1, 2}, w}, x, v, kBend, 0.0).energy, expected, 1e-9 * kBend);
      EXPECT_NEAR(feynman_bend_energy({{0, 1, 2}, w}, x, kBend), expected, 1e-9 * kBend);
    }
  }
}

RestMesh grid(int nx, int ny, double width, double height) {
  GridSpec spec;
  spec.nx = nx;
  spec.ny = ny;
  spec.width = width;
  spec.height = height;
  return make_grid(spec);
}

struct Totals {
  double energy = 0;
  std::vector<Vec3> force;
};

Totals sum_all(const FeynmanElements& el, const std::vector<Vec3>& x, const std::vector<Vec3>& v,
               double k_s, double bend, double damp, double bend_damp) {
  Totals tot;
  tot.force.assign(x.size(), Vec3::Zero());
  for (const auto& s : el.springs) {
    const ElementEval<6> r = eval_feynman_spring(s, x, v, k_s, kR, 1e-4, damp);
    tot.energy += r.energy;
    for (int i = 0; i < 2; ++i) tot.force[s.v[i]] += r.force.segment<3>(3 * i);
  }
  for (const auto& e : el.bends) {
    const ElementEval<9> r = eval_feynman_bend(e, x, v, bend, bend_damp);
    tot.energy += r.energy;
    for (int i = 0; i < 3; ++i) tot.force[e.v[i]] += r.force.segment<3>(3 * i);
  }
  return tot;
}

double max_norm(const std::vector<Vec3>& f) {
  double m = 0;
  for (const Vec3& fi : f) m = std::max(m, fi.norm());
  return m;
}

TEST(FeynmanRest, ZeroAtRestAndUnderRigidMotion) {
  const RestMesh mesh = grid(6, 5, 0.5, 0.4);
  const FeynmanElements el = build_feynman_elements(mesh);
  const std::vector<Vec3> v0(mesh.positions.size(), Vec3::Zero());
  const Totals rest = sum_all(el, mesh.positions, v0, kKs, kBend, kDamp, kBendDamp);
  EXPECT_LT(rest.energy, 1e-25);
  EXPECT_LT(max_norm(rest.force), 1e-11);

  std::vector<Vec3> moved = rigid_motion(mesh.positions);
  const Totals after = sum_all(el, moved, v0, kKs, kBend, kDamp, kBendDamp);
  EXPECT_LT(after.energy, 1e-20);
  EXPECT_LT(max_norm(after.force), 1e-9);
  // Spin + drift of the flat sheet: no spring changes length and every line stays straight, so no
  // damping force either. (A bent line's C = b_hat - a_hat does turn with a spin: see the header.)
  std::vector<Vec3> v_rigid;
  for (const Vec3& p : moved) v_rigid.push_back(Vec3(0.4, -1.0, 2.0).cross(p) + Vec3(1, 2, 3));
  EXPECT_LT(max_norm(sum_all(el, moved, v_rigid, 0.0, 0.0, kDamp, kBendDamp).force), 1e-9);
  moved[8] += Vec3(1e-3, 2e-3, -1e-3);
  EXPECT_GT(max_norm(sum_all(el, moved, v0, kKs, kBend, kDamp, kBendDamp).force), 1e-2);
}

TEST(FeynmanBuild, ElementsAndRejection) {
  const int nx = 5, ny = 4;
  const RestMesh mesh = grid(nx, ny, 0.4, 0.3);
  const FeynmanElements el = build_feynman_elements(mesh);
  EXPECT_NEAR(el.spacing, 0.1, 1e-15);
  int axial = 0, diagonal = 0;
  for (const auto& s : el.springs) {
    (s.diagonal ? diagonal : axial)++;
    EXPECT_NEAR(s.rest, s.diagonal ? 0.1 * std::numbers::sqrt2 : 0.1, 1e-15);
    EXPECT_NEAR((mesh.positions[s.v[0]] - mesh.positions[s.v[1]]).norm(), s.rest, 1e-15);
    // Half for an axial spring along the sheet's edge, which borders one cell.
    const int i0 = s.v[0] % nx, j0 = s.v[0] / nx, i1 = s.v[1] % nx, j1 = s.v[1] / nx;
    const bool along_edge = (j0 == j1 && (j0 == 0 || j0 == ny - 1)) || (i0 == i1 && (i0 == 0 || i0 == nx - 1));
    EXPECT_EQ(s.share, along_edge ? 0.5 : 1.0);
  }
  EXPECT_EQ(axial, (nx - 1) * ny + nx * (ny - 1));
  EXPECT_EQ(diagonal, 2 * (nx - 1) * (ny - 1));
  int axial_lines = 0, diagonal_lines = 0;
  for (const auto& b : el.bends) {
    const Vec2 along = mesh.uv[b.v[2]] - mesh.uv[b.v[0]];
    const bool along_thread = along.x() == 0 || along.y() == 0;
    (along_thread ? axial_lines : diagonal_lines)++;
    // 3/4 on a line along the sheet's edge, whose point stands for half a patch.
    const int j = b.v[1] / nx, i = b.v[1] % nx;
    const bool along_edge = (along.y() == 0 && (j == 0 || j == ny - 1)) || (along.x() == 0 && (i == 0 || i == nx - 1));
    EXPECT_EQ(b.weight, along_thread ? (along_edge ? 0.75 : 1.0) : 0.5);
    // v[1] is the midpoint of v[0] and v[2]: three collinear grid points.
    EXPECT_LT((mesh.uv[b.v[0]] + mesh.uv[b.v[2]] - 2 * mesh.uv[b.v[1]]).norm(), 1e-15);
  }
  EXPECT_EQ(axial_lines, (nx - 2) * ny + nx * (ny - 2));
  EXPECT_EQ(diagonal_lines, 2 * (nx - 2) * (ny - 2));

  RestMesh file_mesh = mesh;
  file_mesh.grid_nx = file_mesh.grid_ny = 0;
  EXPECT_THROW(build_feynman_elements(file_mesh), InputError);
  EXPECT_THROW(build_feynman_elements(grid(5, 4, 0.4, 0.45)), InputError);  // rectangular cells
  RestMesh bad = mesh;
  bad.uv[7].x() = std::nan("");
  EXPECT_THROW(build_feynman_elements(bad), InputError);
}

// Per-area energy of an infinite lattice under a homogeneous deformation, the thesis's count (5.4):
// the springs at the centre point of a 5 x 5 patch, each shared by two points, over h^2.
double strain_energy_density(double k_s, double r, const Eigen::Matrix2d& deformation) {
  const RestMesh mesh = grid(5, 5, 0.04, 0.04);
  const FeynmanElements el = build_feynman_elements(mesh);
  const int centre = mesh.grid_index(2, 2);
  std::vector<Vec3> x;
  for (const Vec2& uv : mesh.uv) {
    const Vec2 p = deformation * uv;
    x.push_back(Vec3(p.x(), 0, p.y()));
  }
  const std::vector<Vec3> v(x.size(), Vec3::Zero());
  double energy = 0;
  for (const auto& s : el.springs) {
    if (s.v[0] == centre || s.v[1] == centre) energy += 0.5 * eval_feynman_spring(s, x, v, k_s, r, 1.0, 0.0).energy;
  }
  return energy / (el.spacing * el.spacing);
}

struct Measured {
  double young, poisson;
};

// Uniaxial stress along the unit direction t: stretch eps along t, lateral strain chosen to minimise
// the energy (the free contraction); then W = 1/2 Y eps^2 and nu = -lateral / eps. W is quadratic in
// the lateral strain up to O(eps^3), so a parabola through three samples finds the minimum.
Measured uniaxial(double k_s, double r, const Vec2& t) {
  const double eps = 1e-5;
  const Vec2 n(-t.y(), t.x());
  const auto w = [&](double lateral) {
    return strain_energy_density(k_s, r, Eigen::Matrix2d::Identity() + eps * t * t.transpose() +
                                             lateral * n * n.transpose());
  };
  const double d = eps, wm = w(-d), w0 = w(0), wp = w(d);
  const double lateral = -d * (wp - wm) / (2 * (wp - 2 * w0 + wm));
  return {2 * w(lateral) / (eps * eps), -lateral / eps};
}

TEST(FeynmanContinuum, SpringLatticeModuliOfSection54) {
  const double k_s = 300.0;
  for (double r : {0.1, 0.25, 0.375, 0.5, 1.0}) {
    const Measured axial = uniaxial(k_s, r, Vec2(1, 0)), axial_v = uniaxial(k_s, r, Vec2(0, 1));
    const Measured bias = uniaxial(k_s, r, Vec2(1, 1).normalized());
    // The thesis's bias result (5.4), with its "1 - 4r" read as 1 + 4r.
    EXPECT_NEAR(bias.young / (k_s * (8 * r + 16 * r * r) / (1 + 4 * r)), 1.0, 1e-3) << r;
    EXPECT_NEAR(bias.poisson, 1 / (1 + 4 * r), 1e-3) << r;
    // Along the threads: uniaxial stress of W = k_s [(1 + r)(e_xx^2 + e_yy^2) + 2 r e_xx e_yy].
    EXPECT_NEAR(axial.young / (2 * k_s * (1 + 2 * r) / (1 + r)), 1.0, 1e-3) << r;
    EXPECT_NEAR(axial.poisson, r / (1 + r), 1e-3) << r;
    EXPECT_NEAR(axial_v.young / axial.young, 1.0, 1e-6) << r;
    // feynman_moduli is what the engine uses to map a material onto k_s and r.
    const FeynmanModuli m = feynman_moduli(k_s, r);
    EXPECT_NEAR(m.axial_young / axial.young, 1.0, 1e-3) << r;
    EXPECT_NEAR(m.axial_poisson, axial.poisson, 1e-3) << r;
    EXPECT_NEAR(m.bias_young / bias.young, 1.0, 1e-3) << r;
    EXPECT_NEAR(m.bias_poisson, bias.poisson, 1e-3) << r;
  }
  // r = 1/2 is isotropic: the same modulus and nu = 1/3 along the threads, the bias and in between.
  const Measured a = uniaxial(k_s, 0.5, Vec2(1, 0));
  for (double phi : {0.3, std::numbers::pi / 4, 1.2}) {
    const Measured m = uniaxial(k_s, 0.5, Vec2(std::cos(phi), std::sin(phi)));
    EXPECT_NEAR(m.young / a.young, 1.0, 1e-3) << phi;
    EXPECT_NEAR(m.poisson, 1.0 / 3, 1e-3) << phi;
  }
}

// 5.3 with c_1 = B: a cylinder of curvature kappa stores 1/2 B kappa^2 per unit area at the centre
// point of a patch, whatever the angle between the cylinder's axis and the grid.
TEST(FeynmanContinuum, CylinderBendEnergyIsHalfBKappaSquared) {
  const RestMesh mesh = grid(5, 5, 0.04, 0.04);  // h = 0.01
  const FeynmanElements el = build_feynman_elements(mesh);
  const int centre = mesh.grid_index(2, 2);
  const double radius = 0.5;  // h kappa = 0.02
  for (double phi : {0.0, 0.3, std::numbers::pi / 4, 1.0, std::numbers::pi / 2}) {
    const Vec2 across(std::cos(phi), std::sin(phi)), along(-std::sin(phi), std::cos(phi));
    std::vector<Vec3> x;
    for (const Vec2& uv : mesh.uv) {
      const double s = (uv - mesh.uv[centre]).dot(across) / radius;
      const double a = (uv - mesh.uv[centre]).dot(along);
      x.push_back(radius * std::sin(s) * Vec3(across.x(), 0, across.y()) + radius * (1 - std::cos(s)) * Vec3::UnitY() +
                  a * Vec3(along.x(), 0, along.y()));
    }
    const std::vector<Vec3> v(x.size(), Vec3::Zero());
    double energy = 0;
    for (const auto& b : el.bends) {
      if (b.v[1] == centre) energy += eval_feynman_bend(b, x, v, kBend, 0.0).energy;
    }
    const double expected = 0.5 * kBend / (radius * radius) * el.spacing * el.spacing;
    EXPECT_NEAR(energy / expected, 1.0, 1e-3) << "axis at " << phi;
  }
}

}  // namespace
}  // namespace cloth
