// Edge-length + triangle-area energy of the implicit cloth project: derivatives against central
// differences (random, nearly zero-length and nearly collinear elements), damping (B&W 4.5 on the
// project's C), rest and
// rigid-motion invariance, the element arrays, and the SI scaling against the membrane energy of
// uniform stretches on meshes of different resolution.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "elements/edge_area_energy.hpp"
#include "core/error.hpp"
#include "engine/support/kernel_checks.hpp"

namespace cloth {
namespace {

constexpr double kAlpha = 700.0, kBeta = 300.0, kDamp = 0.8;

// Every kernel check for one element: elastic derivatives, damping dfdv, the damping x-Jacobian
// against eq. 12 minus its dropped term, with G and C_dot from the (FD-checked) condition.
template <int N>
void check_all(const std::function<ElementEval<N>(const std::vector<Vec3>&, const std::vector<Vec3>&, double, double)>& eval,
               const std::function<Condition<N, 1>(const std::vector<Vec3>&)>& cond, double k_d_elem,
               const VecN<N>& q, const VecN<N>& vel, const std::string& what) {
  // The condition's own gradient against its value (its Hessian is checked through dfdx).
  const Condition<N, 1> c = cond(unflatten(q));
  const std::function<Eigen::Matrix<double, 1, 1>(const VecN<N>&)> value = [&](const VecN<N>& p) {
    return Eigen::Matrix<double, 1, 1>(cond(unflatten(p)).value);
  };
  EXPECT_LT((fd_error<N, 1>(value, q, c.grad.transpose())), 1e-6) << what << ": dC/dx";

  check_elastic<N>([&](const auto& x, const auto& v) { return eval(x, v, 1.0, 0.0); }, q, what);
  const Kernel<N> damping = [&](const auto& x, const auto& v) { return eval(x, v, 0.0, kDamp); };
  check_damping<N>(damping, q, vel, what);
  // dC_dot/dx = (d2C/dx2 v)^T, exact from the condition's FD-checked Hessian.
  check_condition_damping_dfdx<N, 1>(damping, c.grad, (c.hess[0] * vel).transpose(), k_d_elem, q, vel, what);
}

TEST(EdgeAreaEdge, DerivativesMatchFiniteDifferences) {
  std::mt19937 rng(4004);
  std::uniform_real_distribution<double> u01(0, 1);
  for (int trial = 0; trial < 60; ++trial) {
    const EdgeLengthElement e{{0, 1}, 0.05 + 0.15 * u01(rng), 0.001 + 0.01 * u01(rng)};
    std::vector<Vec3> x = {random_vec(rng, 0.1), random_vec(rng, 0.1)};
    // Every third edge nearly zero-length: 1e-3 .. 1e-4 of its rest length.
    if (trial % 3 == 1) x[1] = x[0] + e.rest_length * std::pow(10.0, -3.0 - u01(rng)) * random_vec(rng, 1).normalized();
    const VecN<6> q = flatten<6>(x), vel = flatten<6>({random_vec(rng, 1), random_vec(rng, 1)});
    check_all<6>([&](const auto& xx, const auto& vv, double a, double kd) { return eval_edge_length(e, xx, vv, a, kd); },
                 [&](const auto& xx) { return edge_strain_condition(e, xx); }, kDamp * e.area, q, vel,
                 "edge trial " + std::to_string(trial));
  }
}

TEST(EdgeAreaTriangle, DerivativesMatchFiniteDifferences) {
  std::mt19937 rng(4005);
  std::uniform_real_distribution<double> u01(0, 1);
  for (int trial = 0; trial < 60; ++trial) {
    const TriangleAreaElement t{{0, 1, 2}, 0.001 + 0.01 * u01(rng)};
    std::vector<Vec3> x = {random_vec(rng, 0.1), random_vec(rng, 0.1), random_vec(rng, 0.1)};
    // Every third triangle nearly collinear: x2 within 1e-3 .. 1e-4 m of the line x0 x1 (sides ~0.1 m).
    if (trial % 3 == 1) x[2] = 0.3 * x[0] + 0.7 * x[1] + std::pow(10.0, -3.0 - u01(rng)) * random_vec(rng, 1);
    const VecN<9> q = flatten<9>(x);
    const VecN<9> vel = flatten<9>({random_vec(rng, 1), random_vec(rng, 1), random_vec(rng, 1)});
    check_all<9>([&](const auto& xx, const auto& vv, double b, double kd) { return eval_triangle_area(t, xx, vv, b, kd); },
                 [&](const auto& xx) { return area_strain_condition(t, xx); }, kDamp * t.rest_area, q, vel,
                 "triangle trial " + std::to_string(trial));
  }
}

// The project's formulas, literally, for one element: alpha_seed (1 - |e|/|e0|)^2 |e0| with
// alpha_seed = alpha a_e / |e0|, and beta (1 - A/A0)^2 A0 with A = 1/2 |(x_i - x_j) x (x_k - x_j)|.
TEST(EdgeAreaEnergy, MatchesTheProjectFormulas) {
  std::mt19937 rng(4006);
  for (int trial = 0; trial < 20; ++trial) {
    const std::vector<Vec3> x = {random_vec(rng, 0.1), random_vec(rng, 0.1), random_vec(rng, 0.1)};
    const std::vector<Vec3> v(3, Vec3::Zero());
    const EdgeLengthElement e{{2, 0}, 0.07, 0.003};
    const double len = (x[2] - x[0]).norm(), alpha_seed = kAlpha * e.area / e.rest_length;
    EXPECT_NEAR(eval_edge_length(e, x, v, kAlpha, kDamp).energy,
                alpha_seed * std::pow(1 - len / e.rest_length, 2) * e.rest_length, 1e-12);
    const TriangleAreaElement t{{1, 2, 0}, 0.004};
    const double area = 0.5 * (x[1] - x[2]).cross(x[0] - x[2]).norm();  // j = the middle vertex
    EXPECT_NEAR(eval_triangle_area(t, x, v, kBeta, kDamp).energy,
                kBeta * std::pow(1 - area / t.rest_area, 2) * t.rest_area, 1e-12);
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

// A grid with its interior vertices jittered in the plane: not a grid any more, uneven triangles.
RestMesh jittered(int n, unsigned seed) {
  RestMesh mesh = grid(n, n, 0.5, 0.5);
  mesh.grid_nx = mesh.grid_ny = 0;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-0.3, 0.3);
  const double h = 0.5 / (n - 1);
  for (int j = 1; j + 1 < n; ++j) {
    for (int i = 1; i + 1 < n; ++i) {
      Vec3& p = mesh.positions[j * n + i];
      p += h * Vec3(u(rng), 0, u(rng));
    }
  }
  return mesh;
}

struct Totals {
  double edge = 0, area = 0;
  std::vector<Vec3> force;
};

Totals sum_all(const EdgeAreaElements& el, const std::vector<Vec3>& x, const std::vector<Vec3>& v,
               double alpha, double beta, double damp) {
  Totals tot;
  tot.force.assign(x.size(), Vec3::Zero());
  for (const auto& e : el.edges) {
    const ElementEval<6> r = eval_edge_length(e, x, v, alpha, damp);
    tot.edge += r.energy;
    for (int i = 0; i < 2; ++i) tot.force[e.v[i]] += r.force.segment<3>(3 * i);
  }
  for (const auto& t : el.triangles) {
    const ElementEval<9> r = eval_triangle_area(t, x, v, beta, damp);
    tot.area += r.energy;
    for (int i = 0; i < 3; ++i) tot.force[t.v[i]] += r.force.segment<3>(3 * i);
  }
  return tot;
}

double max_norm(const std::vector<Vec3>& f) {
  double m = 0;
  for (const Vec3& fi : f) m = std::max(m, fi.norm());
  return m;
}

TEST(EdgeAreaRest, ZeroAtRestAndUnderRigidMotion) {
  for (const RestMesh& mesh : {grid(6, 5, 0.5, 0.4), jittered(7, 3)}) {
    const EdgeAreaElements el = build_edge_area_elements(mesh);
    const std::vector<Vec3> v0(mesh.positions.size(), Vec3::Zero());
    const Totals rest = sum_all(el, mesh.positions, v0, kAlpha, kBeta, kDamp);
    EXPECT_LT(rest.edge + rest.area, 1e-25);
    EXPECT_LT(max_norm(rest.force), 1e-11);

    std::vector<Vec3> moved = rigid_motion(mesh.positions);
    const Totals after = sum_all(el, moved, v0, kAlpha, kBeta, kDamp);
    EXPECT_LT(after.edge + after.area, 1e-20);
    EXPECT_LT(max_norm(after.force), 1e-9);
    // A rigid velocity field (spin + drift) changes no C: no damping force either.
    std::vector<Vec3> v_rigid;
    for (const Vec3& p : moved) v_rigid.push_back(Vec3(0.4, -1.0, 2.0).cross(p) + Vec3(1, 2, 3));
    EXPECT_LT(max_norm(sum_all(el, moved, v_rigid, 0.0, 0.0, kDamp).force), 1e-9);
    // The same sums do see a deformation.
    moved[8] += Vec3(1e-3, 2e-3, -1e-3);
    EXPECT_GT(max_norm(sum_all(el, moved, v0, kAlpha, kBeta, kDamp).force), 1e-2);
  }
}

TEST(EdgeAreaBuild, ElementsAndRejection) {
  const RestMesh mesh = grid(4, 3, 0.3, 0.2);
  const EdgeAreaElements el = build_edge_area_elements(mesh);
  ASSERT_EQ(el.triangles.size(), mesh.triangles.size());
  // Edges of a w x h grid with one diagonal per cell: (w-1) h + w (h-1) + (w-1)(h-1).
  EXPECT_EQ(el.edges.size(), 3u * 3 + 4 * 2 + 3 * 2);
  double edge_area = 0;
  for (const auto& e : el.edges) {
    edge_area += e.area;
    const double len = (mesh.positions[e.v[0]] - mesh.positions[e.v[1]]).norm();
    EXPECT_DOUBLE_EQ(e.rest_length, len);
  }
  EXPECT_NEAR(edge_area, 0.3 * 0.2, 1e-15);  // a third of every triangle to each of its edges
  for (const auto& t : el.triangles) EXPECT_NEAR(t.rest_area, 0.5 * 0.1 * 0.1, 1e-15);

  RestMesh bad = mesh;
  bad.positions[mesh.triangles[0][2]] = 0.5 * (bad.positions[mesh.triangles[0][0]] + bad.positions[mesh.triangles[0][1]]);
  EXPECT_THROW(build_edge_area_elements(bad), InputError);
  bad = mesh;
  bad.positions[1].x() = std::nan("");
  EXPECT_THROW(build_edge_area_elements(bad), InputError);
}

// SI scaling (header): a uniform isotropic stretch s stores alpha (s-1)^2 A + beta (s^2-1)^2 A on
// any mesh, and a uniaxial stretch s along u of a make_grid patch stores, per unit area,
// alpha/3 [(s-1)^2 + (sqrt((s^2+1)/2) - 1)^2] + beta (s-1)^2 (each right triangle has one edge along u,
// one along v, one diagonal). Checked on several resolutions and a jittered (non-grid) mesh.
TEST(EdgeAreaContinuum, UniformStretchGivesTheMembraneEnergy) {
  const auto stretched = [](const RestMesh& mesh, double sx, double sz) {
    std::vector<Vec3> x;
    for (const Vec3& p : mesh.positions) x.push_back(Vec3(sx * p.x(), p.y(), sz * p.z()));
    return x;
  };
  for (double s : {0.9, 1.001, 1.2}) {
    for (const RestMesh& mesh : {grid(3, 3, 0.5, 0.5), grid(17, 9, 0.5, 0.25), grid(41, 41, 0.5, 0.5),
                                 jittered(9, 1), jittered(21, 2)}) {
      double area = 0;
      for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) area += rest_area(mesh, t);
      const EdgeAreaElements el = build_edge_area_elements(mesh);
      const std::vector<Vec3> v0(mesh.positions.size(), Vec3::Zero());
      const Totals iso = sum_all(el, stretched(mesh, s, s), v0, kAlpha, kBeta, 0.0);
      EXPECT_NEAR(iso.edge / (kAlpha * (s - 1) * (s - 1) * area), 1.0, 1e-9) << s;
      EXPECT_NEAR(iso.area / (kBeta * (s * s - 1) * (s * s - 1) * area), 1.0, 1e-9) << s;
      if (!mesh.is_grid()) continue;
      const Totals uni = sum_all(el, stretched(mesh, s, 1.0), v0, kAlpha, kBeta, 0.0);
      const double diag = std::sqrt((s * s + 1) / 2) - 1;
      EXPECT_NEAR(uni.edge / (kAlpha / 3 * ((s - 1) * (s - 1) + diag * diag) * area), 1.0, 1e-9) << s;
      EXPECT_NEAR(uni.area / (kBeta * (s - 1) * (s - 1) * area), 1.0, 1e-9) << s;
    }
  }
  // Small strain: (5/12 alpha + beta) eps^2 per unit area along u, (alpha + 4 beta) eps^2 isotropic.
  const RestMesh mesh = grid(11, 11, 0.5, 0.5);
  const EdgeAreaElements el = build_edge_area_elements(mesh);
  const std::vector<Vec3> v0(mesh.positions.size(), Vec3::Zero());
  const double eps = 1e-5, area = 0.25;
  const Totals uni = sum_all(el, stretched(mesh, 1 + eps, 1.0), v0, kAlpha, kBeta, 0.0);
  EXPECT_NEAR((uni.edge + uni.area) / (eps * eps * area), 5.0 / 12 * kAlpha + kBeta, 1e-3 * kAlpha);
  const Totals iso = sum_all(el, stretched(mesh, 1 + eps, 1 + eps), v0, kAlpha, kBeta, 0.0);
  EXPECT_NEAR((iso.edge + iso.area) / (eps * eps * area), kAlpha + 4 * kBeta, 1e-3 * kAlpha);
}

// Damping scale (header): a uniform isotropic strain rate eps_dot (v = eps_dot (x - c)) dissipates
// k_damp eps_dot^2 per m^2 through the edges at rest, whatever the mesh.
TEST(EdgeAreaContinuum, DampingDissipatesKDampStrainRateSquaredPerArea) {
  for (const RestMesh& mesh : {grid(5, 5, 0.5, 0.5), grid(31, 17, 0.5, 0.25), jittered(13, 4)}) {
    double area = 0;
    for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) area += rest_area(mesh, t);
    const EdgeAreaElements el = build_edge_area_elements(mesh);
    const double rate = 0.3;
    std::vector<Vec3> v;
    for (const Vec3& p : mesh.positions) v.push_back(rate * (p - Vec3(0.1, 1, -0.2)));
    EdgeAreaElements edges_only = el;
    edges_only.triangles.clear();
    const Totals d = sum_all(edges_only, mesh.positions, v, 0.0, 0.0, kDamp);
    double power = 0;
    for (size_t i = 0; i < v.size(); ++i) power -= v[i].dot(d.force[i]);
    EXPECT_NEAR(power / (kDamp * rate * rate * area), 1.0, 1e-9);
  }
}

}  // namespace
}  // namespace cloth
