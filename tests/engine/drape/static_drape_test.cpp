// Static drape solver (Feynman 1986 sections 4, 6, 7; static_drape.hpp): every minimiser reaches
// the same equilibrium, which is a minimum; multigrid needs fewer work units than relaxation;
// solids are respected; bad input is rejected. Measured numbers are printed (docs/static-drape.md).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

#include "core/error.hpp"
#include "mesh/mesh.hpp"
#include "model/model.hpp"
#include "simulation/simulation.hpp"
#include "drape/static_drape.hpp"
#include "io/scene.hpp"

namespace cloth {
namespace {

double max_distance(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, (a[i] - b[i]).norm());
  return d;
}

DrapeOptions options(DrapeMethod method, double tol, int cap) {
  DrapeOptions o;
  o.method = method;
  o.force_tolerance = tol;
  o.max_iterations = cap;
  return o;
}

void print(const char* what, const DrapeResult& r) {
  std::printf("[drape] %-28s %s: iterations %d, fine sweeps %d, work %.1f, E %.12f J, max|f| %.3g N\n",
              what, r.message.c_str(), r.iterations, r.fine_sweeps, r.work_units, r.energy, r.max_force);
}

TEST(StaticDrape, AllMethodsReachTheSameEquilibrium) {
  // b large enough that every compressed spring stays on its quadratic branch (5.5): one
  // equilibrium. With the default b the linear branch, which has no axial stiffness, leaves
  // neighbouring equilibria ~2e-4 m apart (EqualsTheRestStateOfALongDampedImplicitRun).
  const DrapeProblem curtain = curtain_drape_problem(9);
  SpringMaterial m = curtain_material();
  m.buckling = 1e-2;  // m^2
  const DrapeProblem p = make_drape_problem(build_model(curtain.model.mesh, m, ModelType::Feynman), curtain.gravity,
                                            {0, 1, 2, 3, 4, 5, 6, 7, 8});
  const DrapeResult ref = solve_drape(p, options(DrapeMethod::Newton, 1e-9, 50));
  print("newton", ref);
  ASSERT_TRUE(ref.converged) << ref.message;
  EXPECT_LT(drape_max_force(p, ref.x), 1e-9);
  // The cloth hangs below its rod and has stretched.
  EXPECT_LT(ref.x[p.model.mesh.grid_index(4, 8)].y(), p.start[p.model.mesh.grid_index(4, 8)].y() - 1e-3);

  struct Case {
    const char* name;
    DrapeOptions o;
  };
  std::vector<Case> cases;
  for (bool w : {false, true}) {
    DrapeOptions o = options(DrapeMethod::Multigrid, 1e-7, 2000);
    o.multigrid.w_cycle = w;
    cases.push_back({w ? "multigrid W" : "multigrid V", o});
  }
  for (RelaxOrder order : {RelaxOrder::Sequential, RelaxOrder::RedBlack, RelaxOrder::Jacobi}) {
    DrapeOptions o = options(DrapeMethod::Relaxation, 1e-6, 20000);
    o.relax.order = order;
    cases.push_back({order == RelaxOrder::Sequential ? "relaxation sequential"
                     : order == RelaxOrder::RedBlack ? "relaxation red-black"
                                                     : "relaxation jacobi",
                     o});
  }
  for (const Case& c : cases) {
    const DrapeResult r = solve_drape(p, c.o);
    print(c.name, r);
    EXPECT_TRUE(r.converged) << c.name << ": " << r.message;
    EXPECT_LT(drape_max_force(p, r.x), c.o.force_tolerance) << c.name;
    EXPECT_LT(max_distance(r.x, ref.x), 1e-4) << c.name;
    EXPECT_NEAR(r.energy, ref.energy, 1e-7) << c.name;
    for (size_t i = 0; i < p.pinned.size(); ++i) {
      if (p.pinned[i]) {
        EXPECT_EQ(r.x[i], p.start[i]) << c.name << " moved fixed point " << i;
      }
    }
    if (c.o.method == DrapeMethod::Relaxation) {
      // 4.1: every point relaxation lowers the energy, so every sweep does.
      for (size_t k = 1; k < r.history.size(); ++k) {
        ASSERT_LE(r.history[k].energy, r.history[k - 1].energy + 1e-12) << c.name << " sweep " << k;
      }
    }
  }
}

TEST(StaticDrape, ResultIsAMinimum) {
  const DrapeProblem p = curtain_drape_problem(9);
  const DrapeResult r = solve_drape(p, options(DrapeMethod::Newton, 1e-9, 50));
  ASSERT_TRUE(r.converged);
  const double e = drape_energy(p, r.x);
  EXPECT_LT(e, drape_energy(p, p.start) - 1e-4);  // it drops by 1.9e-4 J
  std::mt19937_64 rng(7);
  std::normal_distribution<double> gauss(0.0, 1e-4);  // m
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Vec3> y = r.x;
    for (size_t i = 0; i < y.size(); ++i) {
      if (!p.pinned[i]) y[i] += Vec3(gauss(rng), gauss(rng), gauss(rng));
    }
    EXPECT_GT(drape_energy(p, y), e) << "trial " << trial;
  }
}

// What the multigrid is for: it reaches the force tolerance with fewer fine-grid work units than
// red-black relaxation (the thesis's order, 4.2). Both without the random turn of 4.1 (it breaks
// symmetries; the curtain has one equilibrium, in its plane), so both are deterministic. Work units
// count every pass of the multigrid over a level (sweeps, force and energy evaluations) weighted by
// its size. Relaxation is given `budget` times the multigrid's work units as sweeps and must still
// be more than 100 times the tolerance away (to convergence it needs far more:
// docs/static-drape.md).
void expect_multigrid_beats_relaxation(int n, double budget) {
  const DrapeProblem p = curtain_drape_problem(n);
  const double tol = 1e-6;
  DrapeOptions o = options(DrapeMethod::Multigrid, tol, 200);
  o.relax.perturbation_deg = 0;
  const DrapeResult mg = solve_drape(p, o);
  const std::string size = std::to_string(n) + "x" + std::to_string(n);
  print((size + " multigrid V").c_str(), mg);
  ASSERT_TRUE(mg.converged) << mg.message;
  o = options(DrapeMethod::Relaxation, tol, static_cast<int>(budget * mg.work_units));
  o.relax.perturbation_deg = 0;
  const DrapeResult relax = solve_drape(p, o);
  print((size + " relaxation red-black").c_str(), relax);
  EXPECT_FALSE(relax.converged) << "relaxation converged in " << relax.fine_sweeps << " sweeps, multigrid needed "
                                << mg.work_units << " work units";
  EXPECT_GT(relax.max_force, 100 * tol);
}

TEST(StaticDrape, MultigridNeedsFewerWorkUnitsThanRelaxationAt17) {
  // Measured: 8 V-cycles, 104.3 work units; red-black relaxation converges in 1276 sweeps.
  expect_multigrid_beats_relaxation(17, 2.5);
}

TEST(StaticDrape, MultigridNeedsFewerWorkUnitsThanRelaxationAt65) {
  // Measured: 5 V-cycles, 62.7 work units (the cycle count does not grow with the grid); red-black
  // relaxation is at 2.0e-4 N after the 125 sweeps it is given (with the 7 degree turn it needs
  // 10712 to converge, against the multigrid's 150.5 work units: docs/static-drape.md). The budget
  // is 2x so that the test stays under a minute in Release (a 65 x 65 red-black sweep takes
  // ~0.2 s).
  expect_multigrid_beats_relaxation(65, 2);
}

TEST(StaticDrape, TableclothOverSphereStaysOutside) {
  // A 0.5 m square held at its four corners 1 m up, a ball poking 0.1 m through its plane.
  GridSpec g;
  g.width = g.height = 0.5;
  g.nx = g.ny = 9;
  g.center = Vec3(0, 1, 0);
  Collider ball;
  ball.shape = SphereShape{Vec3(0, 0.95, 0), 0.15};
  ball.thickness = 0.005;
  const DrapeProblem p = make_drape_problem(build_model(make_grid(g), curtain_material(), ModelType::Feynman),
                                            Vec3(0, -9.81, 0), {0, 8, 72, 80}, {ball});
  for (DrapeMethod m : {DrapeMethod::Multigrid, DrapeMethod::Newton, DrapeMethod::Relaxation}) {
    const DrapeResult r = solve_drape(p, options(m, 1e-6, m == DrapeMethod::Relaxation ? 20000 : 2000));
    print((std::string("sphere ") + drape_method_name(m)).c_str(), r);
    EXPECT_TRUE(r.converged) << drape_method_name(m) << ": " << r.message;
    int touching = 0;
    for (const Vec3& x : r.x) {
      Vec3 n;
      const double d = signed_distance(ball, x, &n);
      EXPECT_GE(d, ball.thickness - 1e-9) << drape_method_name(m);
      touching += d < ball.thickness + 1e-6;
    }
    EXPECT_GE(touching, 1) << drape_method_name(m) << ": the cloth should rest on the ball";
    EXPECT_LT(r.energy, drape_energy(p, p.start));
  }
}

TEST(StaticDrape, FeynmanFigure20RestsOnTheSphereItStartsAbove) {
  // The shipped scene: an unpinned cloth 0.1 m above a ball, a floor below. A Newton step of a
  // free cloth is a long fall; moved to its end and only then pushed out of the solids, every
  // vertex went through the ball to the floor, "converged after 1 iteration", while multigrid's
  // sweeps moved the free fall by about m g / k each and left the cloth in the air. Now the cloth
  // first falls rigidly onto the ball (drop_onto_solids) and every move stops at the first solid
  // on its path (move_outside). Neither method finishes the drape in 40 iterations (the sheet
  // must fold to cover a sphere); the test holds where it lies, not a converged shape.
  std::vector<std::string> warnings;
  const Scene scene = load_scene(std::string(CLOTHSIM_ASSET_DIR) + "/scenes/feynman_fig20_sphere.json", {}, warnings);
  const DrapeProblem p = drape_problem_from(*make_simulation(scene));
  const Collider& ball = p.colliders[0];
  const SphereShape& sphere = std::get<SphereShape>(ball.shape);
  const int centre = int(p.start.size()) / 2;  // the middle vertex of the 25 x 25 grid
  for (DrapeMethod m : {DrapeMethod::Newton, DrapeMethod::Multigrid}) {
    const DrapeResult r = solve_drape(p, options(m, 1e-5, 40));
    print((std::string("figure 20 ") + drape_method_name(m)).c_str(), r);
    EXPECT_GT(r.iterations, 1) << drape_method_name(m) << ": " << r.message;
    EXPECT_EQ(r.converged, r.max_force < 1e-5);
    int on_ball = 0;
    for (const Vec3& x : r.x) {
      Vec3 n;
      const double d = signed_distance(ball, x, &n);
      EXPECT_GE(d, ball.thickness - 1e-9) << drape_method_name(m) << ": a vertex inside the ball";
      on_ball += d < ball.thickness + 1e-3;
    }
    EXPECT_GT(r.x[size_t(centre)].y(), sphere.center.y() + sphere.radius) << drape_method_name(m) << ": on top";
    EXPECT_GE(on_ball, 1) << drape_method_name(m) << ": the cloth rests on the ball";
    EXPECT_LT(r.energy, drape_energy(p, p.start));
  }
}

TEST(StaticDrape, BadInputIsRejectedWithAClearMessage) {
  const auto message_of = [](const auto& f) -> std::string {
    try {
      f();
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no InputError)";
  };
  const DrapeProblem good = curtain_drape_problem(9);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(message_of([&] { make_drape_problem(good.model, Vec3(0, nan, 0), {0}); }).find("gravity"),
            std::string::npos);
  EXPECT_NE(message_of([&] { make_drape_problem(good.model, Vec3(0, -9.81, 0), {81}); }).find("out of range"),
            std::string::npos);
  ClothModel bad_material = good.model;
  bad_material.material.stretch = nan;
  EXPECT_NE(message_of([&] { make_drape_problem(bad_material, Vec3(0, -9.81, 0), {0}); }).find("stretch"),
            std::string::npos);
  Collider bad_ball;
  bad_ball.shape = SphereShape{Vec3(nan, 0, 0), 0.1};
  EXPECT_NE(message_of([&] { make_drape_problem(good.model, Vec3(0, -9.81, 0), {0}, {bad_ball}); }).find("collider"),
            std::string::npos);

  DrapeOptions o = options(DrapeMethod::Newton, nan, 10);
  EXPECT_NE(message_of([&] { solve_drape(good, o); }).find("force_tolerance"), std::string::npos);
  o = options(DrapeMethod::Relaxation, 1e-6, 10);
  o.relax.perturbation_deg = nan;
  EXPECT_NE(message_of([&] { solve_drape(good, o); }).find("perturbation_deg"), std::string::npos);
  o = options(DrapeMethod::Multigrid, 1e-6, 10);
  o.multigrid.kc = -1;
  EXPECT_NE(message_of([&] { solve_drape(good, o); }).find("kc"), std::string::npos);

  // Multigrid needs a generated grid: the same cloth as a mesh without grid size (as from OBJ).
  RestMesh mesh = good.model.mesh;
  mesh.grid_nx = mesh.grid_ny = 0;
  const DrapeProblem no_grid =
      make_drape_problem(build_model(mesh, curtain_material(), ModelType::BaraffWitkin), Vec3(0, -9.81, 0), {0, 8});
  o = options(DrapeMethod::Multigrid, 1e-6, 10);
  EXPECT_NE(message_of([&] { solve_drape(no_grid, o); }).find("needs a generated grid"), std::string::npos);
  // ... with odd sides: 8 x 8 cannot be coarsened by taking every second point.
  GridSpec g;
  g.nx = g.ny = 8;
  const DrapeProblem even = make_drape_problem(build_model(make_grid(g), curtain_material(), ModelType::Feynman),
                                               Vec3(0, -9.81, 0), {0, 7});
  EXPECT_NE(message_of([&] { solve_drape(even, o); }).find("odd sides"), std::string::npos);
  // The other methods take the non-grid mesh (sequential relaxation and Newton need no grid).
  const DrapeResult r = solve_drape(no_grid, options(DrapeMethod::Newton, 1e-6, 100));
  EXPECT_TRUE(r.converged) << r.message;
}

// Runs the problem's cloth (its pins and gravity, the material `m`) from its start under the
// implicit integrator with strong velocity damping until its kinetic energy is below `at_rest` J;
// returns the positions and prints how long it took.
std::vector<Vec3> damped_implicit_rest(const DrapeProblem& p, const SpringMaterial& m, double at_rest) {
  SolverSettings solver;
  solver.integrator = cloth::IntegratorType::Implicit;
  solver.substeps = 1;
  solver.tolerance = 1e-12;  // the PCG's relative residual: the rest state is f(x) = 0 to this
  solver.max_iterations = 2000;
  std::vector<int> pins;
  for (int v = 0; v < p.model.vertex_count(); ++v) {
    if (p.pinned[v]) pins.push_back(v);
  }
  Simulation sim(build_model(p.model.mesh, m, ModelType::Feynman), {}, pins, solver, p.gravity);
  double peak = 0;
  int steps = 0;
  for (; steps < 6000 && !(steps >= 60 && sim.energies().kinetic < at_rest); ++steps) {
    sim.step();
    peak = std::max(peak, sim.energies().kinetic);
  }
  EXPECT_EQ(sim.statistics().instabilities, 0);
  EXPECT_LT(sim.energies().kinetic, at_rest) << "not at rest after " << steps << " steps";
  std::printf("[drape] implicit run at rest after %d steps (%.1f s): kinetic energy %.3g J (peak %.3g J), "
              "max residual force %.3g N\n",
              steps, steps * solver.dt, sim.energies().kinetic, peak, drape_max_force(p, sim.state().x));
  return sim.state().x;
}

TEST(StaticDrape, EqualsTheRestStateOfALongDampedImplicitRun) {
  // The equilibrium is where the dynamics come to rest: the curtain (model, pins, gravity)
  // released flat under the implicit integrator with strong velocity damping (8 /s) until its
  // kinetic energy is below 1e-24 J (against a potential energy drop of 2e-4 J) ends where
  // Newton's drape (to 1e-12 N) ends. Damping forces vanish at rest: they change the path, not
  // the end.
  //
  // With b large enough that every compressed spring stays on its quadratic branch (5.5) the
  // energy is smooth and the equilibrium unique: measured 2.8e-16 m apart (the run is at rest,
  // kinetic energy 2.4e-31 J, after 60 steps: implicit Euler at 1/60 s damps this stiff,
  // in-plane motion hard). With the curtain's b = 1e-6 m^2 the sideways (Poisson) compression
  // under the rod puts springs on the linear branch, which has no axial stiffness: the two end
  // 9.1e-5 m apart (6% of the 1.44 mm the drape moves; the half-strength springs along the free
  // edges buckle first), both in equilibrium to 1.3e-12 N, Newton's 6.3e-9 J lower. That is a
  // neighbouring equilibrium, not an error of either solver, so only its size is asserted.
  const DrapeProblem curtain_problem = curtain_drape_problem(9);
  struct Case {
    double buckling, bound;
  };
  for (const Case& c : {Case{1e-2, 1e-12}, Case{1e-6, 1.5e-4}}) {
    SpringMaterial m = curtain_material();
    m.buckling = c.buckling;
    m.velocity_damping = 8;  // 1/s
    const std::vector<int> rod = {0, 1, 2, 3, 4, 5, 6, 7, 8};  // the top row, as in curtain_drape_problem(9)
    const DrapeProblem p = make_drape_problem(build_model(curtain_problem.model.mesh, m, ModelType::Feynman),
                                              curtain_problem.gravity, rod);
    const DrapeResult drape = solve_drape(p, options(DrapeMethod::Newton, 1e-12, 100));
    ASSERT_TRUE(drape.converged) << drape.message;
    const std::vector<Vec3> rest = damped_implicit_rest(p, m, 1e-24);
    const double apart = max_distance(rest, drape.x);
    const double moved = max_distance(drape.x, p.start);
    std::printf("[drape] b = %g m^2: max |x_implicit - x_newton| = %.3g m (the drape moved the cloth up to "
                "%.3g m); E newton %.12f J, E implicit %.12f J\n",
                c.buckling, apart, moved, drape.energy, drape_energy(p, rest));
    EXPECT_LT(apart, c.bound) << "b = " << c.buckling;
    EXPECT_GT(moved, 1e-3);
    EXPECT_LT(drape_max_force(p, rest), 1e-9);
  }
}

}  // namespace
}  // namespace cloth
