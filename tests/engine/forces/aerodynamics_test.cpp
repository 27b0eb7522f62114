// Wind and air drag: derivatives by finite differences, and physical checks — the terminal
// velocities of a flat falling cloth under the linear and the quadratic drag, an edge-on cloth
// falling faster than a flat one, and a flag blown downwind.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "forces/aerodynamics.hpp"
#include "mesh/mesh.hpp"
#include "simulation/simulation.hpp"
#include "forces/wind.hpp"

namespace cloth {
namespace {

Vec3 rnd(std::mt19937& rng, double s) {
  std::uniform_real_distribution<double> u(-s, s);
  return Vec3(u(rng), u(rng), u(rng));
}

WindField wind_of(WindField::Type type) {
  WindField w;
  w.type = type;
  w.speed = 3;
  w.direction = Vec3(1, 0.2, 0.5).normalized();
  w.frequency = 2;
  w.wavenumber = 3;
  w.gust = 0.6;
  return w;
}

TEST(Wind, JacobianMatchesFiniteDifferences) {
  std::mt19937 rng(1);
  for (auto type : {WindField::Type::Yu, WindField::Type::Gusty, WindField::Type::Constant}) {
    const WindField w = wind_of(type);
    for (int trial = 0; trial < 20; ++trial) {
      const Vec3 x = rnd(rng, 2);
      const double t = 0.37 * trial;
      Eigen::Matrix3d jac;
      w.velocity(x, t, &jac);
      Eigen::Matrix3d fd;
      const double eps = 1e-6;
      for (int k = 0; k < 3; ++k) {
        Vec3 p = x, m = x;
        p[k] += eps;
        m[k] -= eps;
        fd.col(k) = (w.velocity(p, t, nullptr) - w.velocity(m, t, nullptr)) / (2 * eps);
      }
      EXPECT_LT((fd - jac).norm(), 1e-6 * (1 + jac.norm())) << name_of(type) << " trial " << trial;
    }
  }
}

// The linear model alone, the quadratic one alone (normal and tangential) and both together.
TEST(Aero, ForceAndJacobiansMatchFiniteDifferences) {
  const AirDrag models[] = {{.q = 1.7},
                            {.air_density = 1.2, .drag_normal = 1.2, .drag_tangential = 0.02},
                            {.air_density = 1.2, .drag_tangential = 0.5},
                            {.q = 0.8, .air_density = 1.2, .drag_normal = 2.0, .drag_tangential = 0.1}};
  std::mt19937 rng(2);
  const WindField w = wind_of(WindField::Type::Gusty);
  for (const AirDrag& drag : models) {
    auto force = [&](const std::array<Vec3, 3>& x, const std::array<Vec3, 3>& v) {
      const Vec3 c = (x[0] + x[1] + x[2]) / 3.0;
      Eigen::Matrix3d j;
      const Vec3 air = w.velocity(c, 0.3, &j);
      return aero_triangle(x, v, drag, air, j);
    };
    for (int trial = 0; trial < 30; ++trial) {
      std::array<Vec3, 3> x{rnd(rng, 1), rnd(rng, 1), rnd(rng, 1)}, v{rnd(rng, 2), rnd(rng, 2), rnd(rng, 2)};
      if (trial % 5 == 0) x[2] = x[0] + 1e-3 * (x[1] - x[0]) + 1e-3 * rnd(rng, 1);  // sliver triangle
      const AeroTriangle a = force(x, v);
      // The explicit steps' batch gives each vertex the same force, without derivatives.
      const std::vector<Vec3> xs(x.begin(), x.end()), vs(v.begin(), v.end());
      std::vector<Vec3> batch(3, Vec3::Zero());
      AeroScratch scratch;
      add_aero_forces({{0, 1, 2}}, xs, vs, drag, w, 0.3, scratch, batch);
      for (const Vec3& fb : batch) EXPECT_LE((fb - a.force).norm(), 1e-13 * (1 + a.force.norm()));
      for (int k = 0; k < 3; ++k) {
        double best_x = 1e9, best_v = 1e9;
        for (double eps = 1e-4; eps >= 1e-8; eps /= 10) {
          Eigen::Matrix3d fdx, fdv;
          for (int c = 0; c < 3; ++c) {
            auto xp = x, xm = x, vp = v, vm = v;
            xp[k][c] += eps;
            xm[k][c] -= eps;
            vp[k][c] += eps;
            vm[k][c] -= eps;
            fdx.col(c) = (force(xp, v).force - force(xm, v).force) / (2 * eps);
            fdv.col(c) = (force(x, vp).force - force(x, vm).force) / (2 * eps);
          }
          best_x = std::min(best_x, (fdx - a.dfdx[k]).norm() / (a.dfdx[k].norm() + 1e-12));
          best_v = std::min(best_v, (fdv - a.dfdv).norm() / (a.dfdv.norm() + 1e-12));
        }
        EXPECT_LT(best_x, 1e-5) << "q " << drag.q << " C_t " << drag.drag_tangential << " trial " << trial << " vertex " << k;
        EXPECT_LT(best_v, 1e-6) << "q " << drag.q << " C_t " << drag.drag_tangential << " trial " << trial << " vertex " << k;
      }
      Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eig(a.dfdv);
      EXPECT_LE(eig.eigenvalues().maxCoeff(), 1e-12) << "drag never pushes along the motion";
    }
  }
}

// The batch on a mesh (more triangles than a vector's lanes, one collapsed, shared vertices)
// adds to each vertex a third of each of its triangles' forces, as aero_triangle gives them.
TEST(Aero, BatchOnAMeshAddsAThirdOfEachTrianglesForce) {
  std::mt19937 rng(11);
  std::vector<Vec3> x, v;
  for (int i = 0; i < 9; ++i) {
    x.push_back(rnd(rng, 1));
    v.push_back(rnd(rng, 2));
  }
  x[8] = x[7];  // triangle {6, 7, 8} has no area
  const std::vector<std::array<int, 3>> triangles = {{0, 1, 2}, {1, 3, 2}, {2, 3, 4}, {3, 5, 4}, {4, 5, 6},
                                                     {5, 7, 6}, {6, 7, 8}, {0, 2, 4}, {1, 4, 7}};
  const WindField w = wind_of(WindField::Type::Gusty);
  const AirDrag drag{.q = 0.3, .air_density = 1.2, .drag_normal = 1.5, .drag_tangential = 0.05};
  std::vector<Vec3> expected(x.size(), Vec3::Zero());
  for (const auto& t : triangles) {
    const std::array<Vec3, 3> xt{x[size_t(t[0])], x[size_t(t[1])], x[size_t(t[2])]};
    const std::array<Vec3, 3> vt{v[size_t(t[0])], v[size_t(t[1])], v[size_t(t[2])]};
    const Vec3 air = w.velocity((xt[0] + xt[1] + xt[2]) / 3.0, 0.7, nullptr);
    const Vec3 f = aero_triangle(xt, vt, drag, air, Eigen::Matrix3d::Zero()).force;
    for (int i : t) expected[size_t(i)] += f;
  }
  std::vector<Vec3> batch(x.size(), Vec3(1, 2, 3));  // added to what is there
  AeroScratch scratch;
  add_aero_forces(triangles, x, v, drag, w, 0.7, scratch, batch);
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_LE((batch[i] - Vec3(1, 2, 3) - expected[i]).norm(), 1e-13 * (1 + expected[i].norm())) << i;
  }
  EXPECT_GT(expected[0].norm(), 1e-3);  // the forces are not trivially zero
  // No air, no force.
  std::vector<Vec3> none(x.size(), Vec3::Zero());
  add_aero_forces(triangles, x, v, AirDrag{}, w, 0.7, scratch, none);
  for (const Vec3& f : none) EXPECT_EQ(f, Vec3::Zero());
}

TEST(Aero, QuadraticForceIsHalfRhoCAVSquared) {
  // A unit right triangle (A = 1/2 m^2) in the xz plane, moving at 3 m/s through still air, first
  // face-on (along its normal y), then edge-on (along x): F = 1/2 rho C A V^2 against the motion.
  const AirDrag drag{.air_density = 1.2, .drag_normal = 1.5, .drag_tangential = 0.05};
  const std::array<Vec3, 3> x{Vec3(0, 0, 0), Vec3(0, 0, 1), Vec3(1, 0, 0)};
  for (const auto& [velocity, c] : {std::pair{Vec3(0, 3, 0), 1.5}, std::pair{Vec3(3, 0, 0), 0.05}}) {
    const std::array<Vec3, 3> v{velocity, velocity, velocity};
    const Vec3 total = 3.0 * aero_triangle(x, v, drag, Vec3::Zero(), Eigen::Matrix3d::Zero()).force;
    const Vec3 expected = -0.5 * 1.2 * c * 0.5 * 3.0 * velocity;
    EXPECT_LT((total - expected).norm(), 1e-12 * expected.norm()) << total.transpose();
    // Moving with the wind, the cloth feels no air.
    EXPECT_EQ(aero_triangle(x, v, drag, velocity, Eigen::Matrix3d::Zero()).force, Vec3::Zero());
  }
}

/// The vertices' velocities over the last frame, (x_end - x_start) / dt: what a cloth falls at.
/// (Verlet's carried velocity in the air's multiple time stepping is a sawtooth about it within
/// an impulse interval, explicit_integrators.hpp.)
std::vector<Vec3> last_frame_velocities(Simulation& sim) {
  const std::vector<Vec3> start = sim.state().x;
  sim.step();
  std::vector<Vec3> v(start.size());
  for (size_t i = 0; i < v.size(); ++i) v[i] = (sim.state().x[i] - start[i]) / sim.solver().dt;
  return v;
}

/// Velocities of a flat, level 8 x 8 cloth (0.2 kg/m^2, linear drag q = 2 N s/m^3 alone: no
/// quadratic drag, no other damping) over the last frame of 2 s falling through still air (time
/// constant rho / q = 0.1 s).
std::vector<Vec3> fall_for_two_seconds(const SolverSettings& solver, ModelType model) {
  GridSpec spec;
  spec.nx = spec.ny = 8;
  SpringMaterial m;
  m.velocity_damping = 0;
  m.density = 0.2;
  Simulation sim(build_model(make_grid(spec), m, model), {}, {}, solver, Vec3(0, -9.81, 0));
  ExternalForces air = sim.external_forces();
  air.drag = 2.0;
  air.air_density = 0;
  sim.set_external_forces(air);
  for (int s = 0; s < 119; ++s) sim.step();
  const std::vector<Vec3> v = last_frame_velocities(sim);
  EXPECT_EQ(sim.statistics().instabilities, 0);
  return v;
}

constexpr double kTerminalSpeed = 0.2 * 9.81 / 2.0;  // rho g / q = 0.98 m/s

TEST(Aero, FlatClothFallsAtTerminalVelocityRhoGOverQ) {
  // A flat, level cloth falling through still air: q v = rho g per unit area at terminal speed.
  SolverSettings solver;
  solver.substeps = 40;  // h omega_max ~ 0.6 for this grid
  for (const Vec3& v : fall_for_two_seconds(solver, ModelType::Springs))
    EXPECT_NEAR(-v.y(), kTerminalSpeed, 1e-3 * kTerminalSpeed);
}

TEST(Aero, ImplicitLargeStepsKeepTheTerminalVelocity) {
  // The same fall with B&W's implicit step at 1 and 2 substeps per frame (h = 1/60, 1/120 s, up
  // to 1.7 time constants rho / q): the sheet only translates, so the drag's ∂f/∂x v0 term of
  // eq. 15 is exactly zero and the terminal speed must not depend on the step.
  for (int substeps : {1, 2}) {
    SolverSettings solver;
    solver.integrator = cloth::IntegratorType::Implicit;
    solver.substeps = substeps;
    solver.tolerance = 1e-10;
    for (const Vec3& v : fall_for_two_seconds(solver, ModelType::BaraffWitkin))
      EXPECT_NEAR(-v.y(), kTerminalSpeed, 1e-3 * kTerminalSpeed) << substeps << " substeps";
  }
}

/// A 1 m square cloth of areal density 0.1 kg/m^2 (8 x 8 vertices), level (`edge_on` false)
/// or vertical (in the xy plane, falling along its own plane), dropped from rest in the default
/// air (rho_air 1.2 kg/m^3, the default C_n and C_t; no velocity damping) under `integrator` for
/// `seconds`; returns the vertices' mean downward speed over the last frame, m/s.
double fall_in_air(IntegratorType integrator, bool edge_on, double seconds) {
  GridSpec spec;
  spec.nx = spec.ny = 8;
  if (edge_on) spec.plane = GridPlane::XY;
  SpringMaterial m;
  m.density = 0.1;
  EXPECT_EQ(m.velocity_damping, 0) << "no hidden brake by default";
  SolverSettings solver;
  solver.integrator = integrator;
  solver.substeps = integrator == IntegratorType::Implicit ? 1 : 40;  // explicit: h omega_max ~ 0.4
  solver.tolerance = 1e-10;
  Simulation sim(build_model(make_grid(spec), m), {}, {}, solver, Vec3(0, -9.81, 0));
  EXPECT_EQ(sim.external_forces().air_density, 1.2) << "real air by default";
  const int frames = int(std::lround(seconds / solver.dt));
  for (int s = 0; s + 1 < frames; ++s) sim.step();
  const std::vector<Vec3> velocities = last_frame_velocities(sim);
  EXPECT_EQ(sim.statistics().instabilities, 0);
  double speed = 0;
  for (const Vec3& v : velocities) speed -= v.y() / double(velocities.size());
  return speed;
}

TEST(Aero, FlatClothFallsAtTheQuadraticTerminalVelocity) {
  // Weight rho_A g A = drag 1/2 rho_air C_n A V^2: V = sqrt(2 rho_A g / (rho_air C_n)) = 1.17 m/s
  // for 0.1 kg/m^2; reached in a few V / g = 0.12 s, so 2 s is far past it. The sheet only
  // translates (no internal force), so every integrator's fixed point is the exact V.
  const SpringMaterial m;
  const double terminal = std::sqrt(2 * 0.1 * 9.81 / (ExternalForces{}.air_density * m.drag_normal));
  for (IntegratorType integrator : {IntegratorType::Verlet, IntegratorType::Implicit, IntegratorType::Xpbd, IntegratorType::Projective}) {
    const double speed = fall_in_air(integrator, false, 2.0);
    std::printf("[air] %s: flat cloth at %.6f m/s after 2 s; sqrt(2 rho_A g / (rho_air C_n)) = %.6f m/s\n",
                name_of(integrator), speed, terminal);
    EXPECT_NEAR(speed, terminal, 1e-3 * terminal) << integrator;
  }
}

TEST(Aero, EdgeOnClothFallsFasterThanFlat) {
  // Edge-on only the tangential drag C_t << C_n acts: after 1 s the flat sheet is at its terminal
  // 1.17 m/s, the edge-on one near free fall (terminal sqrt(2 rho_A g / (rho_air C_t)) = 9 m/s).
  for (IntegratorType integrator : {IntegratorType::Verlet, IntegratorType::Implicit}) {
    const double flat = fall_in_air(integrator, false, 1.0);
    const double edge_on = fall_in_air(integrator, true, 1.0);
    std::printf("[air] %s after 1 s: flat %.4f m/s, edge-on %.4f m/s (vacuum 9.81 m/s)\n",
                name_of(integrator), flat, edge_on);
    EXPECT_GT(edge_on, 4 * flat) << integrator;
    EXPECT_LT(edge_on, 9.81 * 1.0) << integrator << ": but slower than in vacuum";
  }
}

TEST(Aero, WindBlowsAFlagDownwindUnderEveryIntegrator) {
  for (cloth::IntegratorType integrator : {cloth::IntegratorType::Verlet, cloth::IntegratorType::Implicit, cloth::IntegratorType::Xpbd, cloth::IntegratorType::Projective, cloth::IntegratorType::Vbd}) {
    GridSpec spec;
    spec.nx = spec.ny = 10;
    spec.plane = GridPlane::XY;  // vertical, row 0 on top
    SolverSettings solver;
    solver.integrator = integrator;
    solver.substeps = integrator == cloth::IntegratorType::Implicit ? 1 : 50;
    Simulation sim(build_model(make_grid(spec), SpringMaterial{}), {}, {0, 9}, solver, Vec3(0, -9.81, 0));
    ExternalForces f = sim.external_forces();
    f.wind = wind_of(WindField::Type::Gusty);  // through the default quadratic drag
    f.wind.direction = Vec3(0, 0, 1);  // blowing through the flag
    sim.set_external_forces(f);
    for (int s = 0; s < 180; ++s) sim.step();
    double mean_z = 0;
    for (const Vec3& x : sim.state().x) mean_z += x.z() / sim.state().x.size();
    EXPECT_GT(mean_z, 0.15) << integrator << ": the flag streams downwind";
    EXPECT_EQ(sim.statistics().instabilities, 0) << integrator;
  }
}

}  // namespace
}  // namespace cloth
