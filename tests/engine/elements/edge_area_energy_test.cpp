// Edge-strain + triangle-area membrane of the implicit cloth project: derivatives against central
// differences (random, nearly zero-length and nearly collinear elements), damping (B&W 4.5 on the
// project's strains), rest and rigid-motion invariance, the element arrays, and the moduli: a
// uniform strain of any mesh stores the orthotropic membrane's energy (edge_area_energy.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "elements/edge_area_energy.hpp"
#include "core/error.hpp"
#include "engine/support/kernel_checks.hpp"
#include "engine/support/patterned_grid.hpp"

namespace cloth {
namespace {

constexpr double kYoung = 700.0, kShear = 90.0, kBeta = 300.0, kDamp = 0.8;

// A lone triangle with the rest corners `rest` (uv from the x, z coordinates) as an element.
EdgeAreaTriangle lone_triangle(const std::vector<Vec3>& rest) {
  RestMesh mesh;
  mesh.positions = rest;
  for (const Vec3& p : rest) mesh.uv.emplace_back(p.x(), p.z());
  mesh.triangles = {{0, 1, 2}};
  return build_edge_area_elements(mesh).at(0);
}

TEST(EdgeAreaConditions, DerivativesMatchFiniteDifferences) {
  std::mt19937 rng(4005);
  std::uniform_real_distribution<double> u01(0, 1);
  for (int trial = 0; trial < 60; ++trial) {
    const EdgeAreaTriangle t = lone_triangle({random_vec(rng, 0.1), random_vec(rng, 0.1), random_vec(rng, 0.1)});
    std::vector<Vec3> x = {random_vec(rng, 0.1), random_vec(rng, 0.1), random_vec(rng, 0.1)};
    // Every third triangle nearly collinear: x2 within 1e-3 .. 1e-4 m of the line x0 x1 (sides
    // ~0.1 m); every third another one with a nearly zero-length edge (1e-2 .. 1e-3 of its rest:
    // shorter, and the central differences' own truncation error, (step / length)^2, reaches 1e-6).
    if (trial % 3 == 1) x[2] = 0.3 * x[0] + 0.7 * x[1] + std::pow(10.0, -3.0 - u01(rng)) * random_vec(rng, 1);
    if (trial % 3 == 2) x[1] = x[0] + t.rest_length[0] * std::pow(10.0, -2.0 - u01(rng)) * random_vec(rng, 1).normalized();
    const VecN<9> q = flatten<9>(x);
    const VecN<9> vel = flatten<9>({random_vec(rng, 1), random_vec(rng, 1), random_vec(rng, 1)});
    const std::string what = "trial " + std::to_string(trial);

    const Condition<9, 4> c = edge_area_conditions(t, x);
    const std::function<Eigen::Matrix<double, 4, 1>(const VecN<9>&)> value = [&](const VecN<9>& p) {
      return Eigen::Matrix<double, 4, 1>(edge_area_conditions(t, unflatten(p)).value);
    };
    EXPECT_LT((fd_error<9, 4>(value, q, c.grad.transpose())), 1e-6) << what << ": dC/dx";
    for (int m = 0; m < 4; ++m) {
      const std::function<VecN<9>(const VecN<9>&)> gradient = [&](const VecN<9>& p) {
        return VecN<9>(edge_area_conditions(t, unflatten(p)).grad.col(m));
      };
      if (c.hess[size_t(m)].norm() > 0) {
        EXPECT_LT((fd_error<9, 9>(gradient, q, c.hess[size_t(m)])), 1e-5) << what << ": d2C/dx2 " << m;
      }
    }

    check_elastic<9>([&](const auto& xx, const auto& vv) { return eval_edge_area(t, xx, vv, kYoung, kShear, kBeta, 0.0); },
                     q, what);
    const Kernel<9> damping = [&](const auto& xx, const auto& vv) { return eval_edge_area(t, xx, vv, 0.0, 0.0, 0.0, kDamp); };
    check_damping<9>(damping, q, vel, what);
    // d = -G K_d C_dot with dC_dot/dx = (d2C_m/dx2 v)^T, row m.
    Eigen::Matrix4d k_d = Eigen::Matrix4d::Zero();
    k_d.topLeftCorner<3, 3>() = kDamp * (t.axial_form + t.shear_form);
    k_d(3, 3) = kDamp * t.rest_area;
    Eigen::Matrix<double, 4, 9> dcdot_dx;
    for (int m = 0; m < 4; ++m) dcdot_dx.row(m) = (c.hess[size_t(m)] * vel).transpose();
    check_condition_damping_dfdx<9, 4>(damping, c.grad * k_d, dcdot_dx, 1.0, q, vel, what);
  }
}

// The project's area term, literally: beta (1 - A/A0)^2 A0 with A = 1/2 |(x_i - x_j) x (x_k - x_j)|.
TEST(EdgeAreaEnergy, AreaTermIsTheProjectFormula) {
  std::mt19937 rng(4006);
  for (int trial = 0; trial < 20; ++trial) {
    const EdgeAreaTriangle t = lone_triangle({random_vec(rng, 0.1), random_vec(rng, 0.1), random_vec(rng, 0.1)});
    const std::vector<Vec3> x = {random_vec(rng, 0.1), random_vec(rng, 0.1), random_vec(rng, 0.1)};
    const std::vector<Vec3> v(3, Vec3::Zero());
    const double area = 0.5 * (x[0] - x[1]).cross(x[2] - x[1]).norm();  // j = the middle vertex
    EXPECT_NEAR(eval_edge_area(t, x, v, 0.0, 0.0, kBeta, kDamp).energy,
                kBeta * std::pow(1 - area / t.rest_area, 2) * t.rest_area, 1e-12 * kBeta * t.rest_area);
  }
}

RestMesh grid(int nx, int ny, double width, double height, Diagonals diagonals = Diagonals::Alternating) {
  GridSpec spec;
  spec.nx = nx;
  spec.ny = ny;
  spec.width = width;
  spec.height = height;
  return patterned_grid(spec, diagonals);
}

RestMesh jittered(int n, unsigned seed) {
  GridSpec spec;
  spec.nx = spec.ny = n;
  spec.width = spec.height = 0.5;
  RestMesh mesh = jittered_grid(spec, 0.3, seed);
  mesh.grid_nx = mesh.grid_ny = 0;
  return mesh;
}

struct Totals {
  double energy = 0;
  std::vector<Vec3> force;
};

Totals sum_all(const std::vector<EdgeAreaTriangle>& el, const std::vector<Vec3>& x, const std::vector<Vec3>& v,
               double young, double shear, double beta, double damp) {
  Totals tot;
  tot.force.assign(x.size(), Vec3::Zero());
  for (const auto& t : el) {
    const ElementEval<9> r = eval_edge_area(t, x, v, young, shear, beta, damp);
    tot.energy += r.energy;
    for (int i = 0; i < 3; ++i) tot.force[t.v[i]] += r.force.segment<3>(3 * i);
  }
  return tot;
}

double max_norm(const std::vector<Vec3>& f) {
  double m = 0;
  for (const Vec3& fi : f) m = std::max(m, fi.norm());
  return m;
}

double total_area(const RestMesh& mesh) {
  double area = 0;
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) area += rest_area(mesh, t);
  return area;
}

// A grid rolled onto a cylinder of radius 0.3 m: its rest shape is curved, its (u, v) map flat.
RestMesh curved(int nx, int ny) {
  RestMesh mesh = grid(nx, ny, 0.5, 0.4);
  for (Vec3& p : mesh.positions) p = Vec3(0.3 * std::sin(p.x() / 0.3), 0.3 * (1 - std::cos(p.x() / 0.3)), p.z());
  return mesh;
}

// Rest lengths and areas come from the rest positions, so a curved rest shape (an OBJ cloth
// modelled draped) is stress-free too.
TEST(EdgeAreaRest, ZeroAtRestAndUnderRigidMotion) {
  for (const RestMesh& mesh : {grid(6, 5, 0.5, 0.4), jittered(7, 3), curved(6, 5)}) {
    const auto el = build_edge_area_elements(mesh);
    const std::vector<Vec3> v0(mesh.positions.size(), Vec3::Zero());
    const Totals rest = sum_all(el, mesh.positions, v0, kYoung, kShear, kBeta, kDamp);
    EXPECT_LT(rest.energy, 1e-25);
    EXPECT_LT(max_norm(rest.force), 1e-10);

    std::vector<Vec3> moved = rigid_motion(mesh.positions);
    const Totals after = sum_all(el, moved, v0, kYoung, kShear, kBeta, kDamp);
    EXPECT_LT(after.energy, 1e-20);
    EXPECT_LT(max_norm(after.force), 1e-9);
    // A rigid velocity field (spin + drift) changes no C: no damping force either.
    std::vector<Vec3> v_rigid;
    for (const Vec3& p : moved) v_rigid.push_back(Vec3(0.4, -1.0, 2.0).cross(p) + Vec3(1, 2, 3));
    EXPECT_LT(max_norm(sum_all(el, moved, v_rigid, 0.0, 0.0, 0.0, kDamp).force), 1e-9);
    // The same sums do see a deformation.
    moved[8] += Vec3(1e-3, 2e-3, -1e-3);
    EXPECT_GT(max_norm(sum_all(el, moved, v0, kYoung, kShear, kBeta, kDamp).force), 1e-2);
  }
}

TEST(EdgeAreaBuild, ElementsAndRejection) {
  const RestMesh mesh = grid(4, 3, 0.3, 0.2);
  const auto el = build_edge_area_elements(mesh);
  ASSERT_EQ(el.size(), mesh.triangles.size());
  for (const auto& t : el) {
    EXPECT_NEAR(t.rest_area, 0.5 * 0.1 * 0.1, 1e-15);
    for (int k = 0; k < 3; ++k) {
      EXPECT_DOUBLE_EQ(t.rest_length[size_t(k)], (mesh.positions[t.v[k]] - mesh.positions[t.v[(k + 1) % 3]]).norm());
    }
    // Both forms are symmetric and positive semi-definite (energies of a strain).
    for (const Eigen::Matrix3d& form : {t.axial_form, t.shear_form}) {
      EXPECT_LE((form - form.transpose()).norm(), 1e-12 * form.norm());
      EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(form).eigenvalues().minCoeff(), -1e-12 * form.norm());
    }
  }

  RestMesh bad = mesh;
  bad.positions[mesh.triangles[0][2]] = 0.5 * (bad.positions[mesh.triangles[0][0]] + bad.positions[mesh.triangles[0][1]]);
  EXPECT_THROW(build_edge_area_elements(bad), InputError);
  bad = mesh;
  bad.positions[1].x() = std::nan("");
  EXPECT_THROW(build_edge_area_elements(bad), InputError);
}

// The modulus that gives Young's modulus Y with free sides: c - (2 beta)^2 / c = Y, c = a + 2 beta.
TEST(EdgeAreaModuli, AxialModulusGivesYoungsModulusWithTheAreaTerm) {
  EXPECT_DOUBLE_EQ(edge_term_axial_modulus(kYoung, 0.0), kYoung);
  for (double beta : {1.0, 300.0, 5e4}) {
    const double c = edge_term_axial_modulus(kYoung, beta) + 2 * beta;
    EXPECT_NEAR(c - 4 * beta * beta / c, kYoung, 1e-9 * (kYoung + beta));
    EXPECT_GT(edge_term_axial_modulus(kYoung, beta), 0.0);
  }
}

// Energy per unit area of the small strain e (components along the material u, v) of the sheet:
// 1/2 [c (e_uu^2 + e_vv^2) + 4 beta e_uu e_vv] + 2 G e_uv^2 (edge_area_energy.hpp).
double membrane_energy_density(const Eigen::Matrix2d& e, double young, double shear, double beta) {
  const double c = edge_term_axial_modulus(young, beta) + 2 * beta;
  return 0.5 * (c * (e(0, 0) * e(0, 0) + e(1, 1) * e(1, 1)) + 4 * beta * e(0, 0) * e(1, 1)) +
         2 * shear * e(0, 1) * e(0, 1);
}

// Every mesh below, the same grid with its material axes turned 30 degrees from x, and with its
// u axis mirrored (u = -x: each triangle's (u, v) map reverses its orientation): a small uniform
// strain stores the continuum energy to O(strain) (the measured relative error is the strain's
// own size, 1e-5), whatever the triangles' shapes.
TEST(EdgeAreaContinuum, UniformStrainStoresTheOrthotropicMembraneEnergy) {
  std::vector<RestMesh> meshes = {grid(3, 3, 0.5, 0.5), grid(17, 9, 0.5, 0.25), grid(9, 17, 0.25, 0.5),
                                  grid(11, 11, 0.5, 0.5, Diagonals::AllBC), grid(11, 11, 0.5, 0.5, Diagonals::AllAD),
                                  jittered(9, 1), jittered(21, 2)};
  RestMesh turned = grid(11, 11, 0.5, 0.5);
  const double angle = M_PI / 6;
  const Eigen::Matrix2d rot = Eigen::Rotation2Dd(angle).toRotationMatrix();
  for (Vec2& uv : turned.uv) uv = rot * uv;
  meshes.push_back(turned);
  const size_t turned_index = meshes.size() - 1;
  RestMesh mirrored = grid(11, 11, 0.5, 0.5);
  for (Vec2& uv : mirrored.uv) uv.x() = -uv.x();
  meshes.push_back(mirrored);
  const Eigen::Matrix2d mirror = Eigen::Vector2d(-1, 1).asDiagonal();
  std::mt19937 rng(4007);
  std::uniform_real_distribution<double> u(-1, 1);
  for (size_t n = 0; n < meshes.size(); ++n) {
    const RestMesh& mesh = meshes[n];
    const auto el = build_edge_area_elements(mesh);
    const std::vector<Vec3> v0(mesh.positions.size(), Vec3::Zero());
    for (int trial = 0; trial < 4; ++trial) {
      Eigen::Matrix2d e;  // in (x, z)
      e << u(rng), u(rng), 0, u(rng);
      e(1, 0) = e(0, 1);
      e *= 1e-5;
      std::vector<Vec3> x;
      for (const Vec3& p : mesh.positions) {
        const Eigen::Vector2d d = e * Eigen::Vector2d(p.x(), p.z());
        x.push_back(p + Vec3(d.x(), 0, d.y()));
      }
      // The material frame is (u, v): (u, v) = rot (x, z) on the turned mesh, (-x, z) on the
      // mirrored one.
      Eigen::Matrix2d e_material = e;
      if (n == turned_index) e_material = rot * e * rot.transpose();
      if (n == turned_index + 1) e_material = mirror * e * mirror;
      const double expected = membrane_energy_density(e_material, kYoung, kShear, kBeta) * total_area(mesh);
      EXPECT_NEAR(sum_all(el, x, v0, kYoung, kShear, kBeta, 0.0).energy / expected, 1.0, 1e-4)
          << "mesh " << n << " trial " << trial;
    }
  }
}

// Beyond small strain, exactly: a uniform isotropic stretch s stretches every edge by s - 1, which
// the forms read as the strain (s - 1) I, so any mesh stores a (s - 1)^2 A + beta (s^2 - 1)^2 A.
TEST(EdgeAreaContinuum, IsotropicStretchIsExactOnAnyMesh) {
  for (double s : {0.9, 1.001, 1.2}) {
    for (const RestMesh& mesh : {grid(3, 3, 0.5, 0.5), grid(17, 9, 0.5, 0.25), jittered(9, 1), jittered(21, 2)}) {
      const auto el = build_edge_area_elements(mesh);
      const std::vector<Vec3> v0(mesh.positions.size(), Vec3::Zero());
      std::vector<Vec3> x;
      for (const Vec3& p : mesh.positions) x.push_back(Vec3(s * p.x(), p.y(), s * p.z()));
      const double a = edge_term_axial_modulus(kYoung, kBeta);
      const double expected = (a * (s - 1) * (s - 1) + kBeta * (s * s - 1) * (s * s - 1)) * total_area(mesh);
      EXPECT_NEAR(sum_all(el, x, v0, kYoung, kShear, kBeta, 0.0).energy / expected, 1.0, 1e-9) << s;
    }
  }
}

// Damping scale (header): at rest, a uniform strain rate l (v = l (x - c) in the plane) dissipates
// k_damp (l_uu^2 + l_vv^2 + 4 l_uv^2) per m^2 through the edges and k_damp (tr l)^2 through the area
// term, whatever the mesh.
TEST(EdgeAreaContinuum, DampingDissipatesKDampStrainRateSquaredPerArea) {
  for (const RestMesh& mesh : {grid(5, 5, 0.5, 0.5), grid(31, 17, 0.5, 0.25), jittered(13, 4)}) {
    const auto el = build_edge_area_elements(mesh);
    Eigen::Matrix2d l;
    l << 0.3, -0.2, -0.2, 0.1;
    std::vector<Vec3> v;
    for (const Vec3& p : mesh.positions) {
      const Eigen::Vector2d d = l * Eigen::Vector2d(p.x() - 0.1, p.z() + 0.2);
      v.push_back(Vec3(d.x(), 0, d.y()));
    }
    const Totals d = sum_all(el, mesh.positions, v, 0.0, 0.0, 0.0, kDamp);
    double power = 0;
    for (size_t i = 0; i < v.size(); ++i) power -= v[i].dot(d.force[i]);
    const double per_area = l(0, 0) * l(0, 0) + l(1, 1) * l(1, 1) + 4 * l(0, 1) * l(0, 1) + l.trace() * l.trace();
    EXPECT_NEAR(power / (kDamp * per_area * total_area(mesh)), 1.0, 1e-9);
  }
}

}  // namespace
}  // namespace cloth
