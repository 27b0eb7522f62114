// Weil's geometric drape (Karthikeyan & Ranganathan 1998, "The work of Weil", "Another geometric
// method"; weil_drape.hpp): the catenary against its analytic form y = a cosh(x/a) + c in any
// frame, down to a nearly taut string and the vertical fold; the cloth's border hangs as that exact
// curve with its rest length; symmetric supports give a symmetric shape; the tutorial's averaging
// converges at the Gauss-Seidel rate of the Laplace equation to a start-independent shape below the
// supports; bad input is one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

#include "core/error.hpp"
#include "mesh/mesh.hpp"
#include "model/model.hpp"
#include "drape/static_drape.hpp"
#include "drape/weil_drape.hpp"

namespace cloth {
namespace {

const double kPi = std::acos(-1.0);

template <typename F>
std::string message_of(const F& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

// The analytic catenary y = a cosh(x/a) + c in a frame: `up` against gravity, `across` a
// horizontal unit vector, through `origin` at x = 0 (its lowest point).
struct AnalyticCatenary {
  double a;
  Vec3 origin, across, up;
  // a (cosh(x/a) - 1), written as 2a sinh^2(x/2a) so that a huge a keeps the sag exact.
  Vec3 point(double x) const {
    const double sh = std::sinh(x / (2 * a));
    return origin + x * across + 2 * a * sh * sh * up;
  }
  double arc(double x0, double x1) const { return a * (std::sinh(x1 / a) - std::sinh(x0 / a)); }
  // The x reached after arc length s from x0.
  double x_at(double x0, double s) const { return a * std::asinh(s / a + std::sinh(x0 / a)); }
};

AnalyticCatenary frame(double a, const Vec3& gravity) {
  const Vec3 up = -gravity.normalized();
  const Vec3 across = up.cross(Vec3(0.3, 0.1, 0.9)).normalized();  // any horizontal direction
  return {a, Vec3(0.2, 1.5, -0.7), across, up};
}

// Worst distance between Catenary::at and the analytic curve at 41 arc lengths from x0 to x1.
double worst_error(const AnalyticCatenary& c, double x0, double x1, const Vec3& gravity) {
  const double length = c.arc(x0, x1);
  const Catenary cat(c.point(x0), c.point(x1), length, gravity);
  double worst = 0;
  for (int k = 0; k <= 40; ++k) {
    const double s = length * k / 40;
    worst = std::max(worst, (cat.at(s) - c.point(c.x_at(x0, s))).norm());
  }
  return worst;
}

TEST(WeilCatenary, MatchesTheAnalyticCurveInAnyFrame) {
  // Supports level and uneven, the lowest point inside and outside the span, a shallow and a
  // deep sag (t = d/2a from 0.5 to 10), gravity along -y and tilted.
  struct Case {
    double a, x0, x1;
  };
  for (const Vec3& g : {Vec3(0, -9.81, 0), Vec3(2.0, -7.0, 3.5)}) {
    for (const Case& k : {Case{1.0, -0.5, 0.5}, Case{0.3, -0.2, 0.5}, Case{0.3, 0.1, 0.9},
                          Case{0.05, -0.5, 0.5}, Case{0.05, -0.45, 0.55}}) {
      const AnalyticCatenary c = frame(k.a, g);
      const double err = worst_error(c, k.x0, k.x1, g);
      std::printf("[weil] catenary a %.2f over [%.2f, %.2f]: worst error %.2g m\n", k.a, k.x0, k.x1, err);
      EXPECT_LT(err, 1e-12 * (1 + c.arc(k.x0, k.x1))) << "a " << k.a << " x0 " << k.x0;
      const Catenary cat(c.point(k.x0), c.point(k.x1), c.arc(k.x0, k.x1), g);
      EXPECT_NEAR(cat.parameter(), k.a, 1e-12 * k.a);
      EXPECT_FALSE(cat.taut());
    }
  }
}

TEST(WeilCatenary, NearlyTautStringKeepsItsSag) {
  // a = 1e3 .. 1e7 m over a 1 m span: L exceeds the chord by e = d^2/24a^2 = 4e-8 .. 4e-16
  // relative and the sag is d^2/8a = 1.2e-4 .. 1.2e-8 m. The sag goes as sqrt(e), so the rounding
  // of L itself (half an ulp, 1.1e-16 relative) moves it by sag * 1.1e-16 / (2e): that is the
  // accuracy any solver can reach from this input, and the one asserted (plus 1e-13 m).
  const Vec3 g(0, -9.81, 0);
  for (double a : {1e3, 1e5, 1e7}) {
    for (double x0 : {-0.5, 0.2}) {
      const AnalyticCatenary c = frame(a, g);
      const double err = worst_error(c, x0, x0 + 1.0, g);
      const double sag = 1.0 / (8 * a), excess = 1.0 / (24 * a * a);
      const double conditioning = sag * std::numeric_limits<double>::epsilon() / 2 / (2 * excess);
      std::printf("[weil] nearly taut a %.0e, x0 %.1f: worst error %.2g m (sag %.2g m, rounding of L alone %.2g m)\n",
                  a, x0, err, sag, conditioning);
      EXPECT_LT(err, 1e-13 + 2 * conditioning) << "a " << a << " x0 " << x0;
    }
  }
}

TEST(WeilCatenary, TautStringsAndTheVerticalFold) {
  const Vec3 g(0, -9.81, 0);
  const Vec3 p0(0.1, 1.0, 0.2), p1(0.7, 0.6, -0.1);
  const double chord = (p1 - p0).norm();
  // Exactly taut, and a hair short of the chord (round-off in the pins): the straight segment.
  for (double length : {chord, chord * (1 - 1e-12)}) {
    const Catenary c(p0, p1, length, g);
    EXPECT_TRUE(c.taut());
    for (int k = 0; k <= 10; ++k) {
      const double s = length * k / 10;
      EXPECT_LT((c.at(s) - (p0 + (s / length) * (p1 - p0))).norm(), 1e-15);
    }
    EXPECT_EQ(c.at(length), p1);
    EXPECT_EQ(c.at(0), p0);
  }
  // Ends on one vertical line: down from p0 to (L - v)/2 below it, then up to p1.
  const Vec3 top(0, 1, 0), below(0, 0.7, 0);
  const Catenary fold(top, below, 1.0, g);
  EXPECT_EQ(fold.parameter(), 0);
  EXPECT_LT((fold.at(0.65) - Vec3(0, 0.35, 0)).norm(), 1e-15);
  EXPECT_LT((fold.at(1.0) - below).norm(), 1e-15);
  // The catenary tends to that fold as its span shrinks (t = 16 at a span of 1 um).
  const Catenary narrow(top, below + Vec3(1e-6, 0, 0), 1.0, g);
  double worst = 0;
  for (int k = 0; k <= 40; ++k) worst = std::max(worst, (narrow.at(k / 40.0) - fold.at(k / 40.0)).norm());
  std::printf("[weil] 1 um span against the fold: worst distance %.2g m (a = %.2g m)\n", worst, narrow.parameter());
  EXPECT_LT(worst, 1e-5);
  EXPECT_GT(narrow.parameter(), 0);
}

TEST(WeilCatenary, BadCablesAreOneLineErrors) {
  const Vec3 g(0, -9.81, 0), p0(0, 1, 0), p1(1, 1, 0);
  EXPECT_NE(message_of([&] { Catenary(p0, p1, 0.9, g); }).find("cannot join points 1 m apart"), std::string::npos);
  EXPECT_NE(message_of([&] { Catenary(p0, p1, std::nan(""), g); }).find("finite"), std::string::npos);
  EXPECT_NE(message_of([&] { Catenary(p0, p1, 1.2, Vec3::Zero()); }).find("gravity"), std::string::npos);
  EXPECT_NE(message_of([&] { Catenary(p0, p0, 0.0, g); }).find("positive"), std::string::npos);
}

// An nx x ny grid of `width` x `height` m in `plane`, centred at (0, 1, 0), pinned at `pins` with
// the pinned vertices moved to `moved` (same order), everything else at rest.
DrapeProblem hung_grid(GridPlane plane, int nx, int ny, double width, double height, const std::vector<int>& pins,
                       const std::vector<Vec3>& moved, ModelType type = ModelType::Springs,
                       const SpringMaterial& material = SpringMaterial{}) {
  GridSpec g;
  g.width = width;
  g.height = height;
  g.nx = nx;
  g.ny = ny;
  g.plane = plane;
  g.center = Vec3(0, 1, 0);
  ClothModel model = build_model(make_grid(g), material, type);
  std::vector<Vec3> start = model.mesh.positions;
  for (size_t k = 0; k < pins.size(); ++k) start[pins[k]] = moved[k];
  return make_drape_problem(std::move(model), Vec3(0, -9.81, 0), pins, {}, start);
}

TEST(WeilDrape, BorderIsAnExactCatenaryOfTheRestLength) {
  // A 0.5 x 0.3 m curtain (21 x 13) held by its top corners, brought together so that its top
  // edge, of rest length L, hangs as y = a cosh(x/a) + c with a = 0.2 m: the corners' span d
  // solves L = 2a sinh(d/2a), d = 2a asinh(L/2a). L = 0.5 m for the springs model; for
  // Baraff-Witkin with rest stretch b_u = 1.4 (eq. 10) the cloth is 1.4 times longer at rest.
  const int nx = 21, ny = 13;
  const double W = 0.5, a = 0.2;
  SpringMaterial stretched;
  stretched.rest_stretch_u = 1.4;
  stretched.rest_stretch_v = 0.8;
  struct Case {
    ModelType type;
    SpringMaterial material;
    double L;
  };
  for (const Case& k : {Case{ModelType::Springs, SpringMaterial{}, W}, Case{ModelType::BaraffWitkin, stretched, 1.4 * W}}) {
    const double d = 2 * a * std::asinh(k.L / (2 * a));
    const std::vector<int> pins = {0, nx - 1};  // row 0 is the top edge
    const DrapeProblem p = hung_grid(GridPlane::XY, nx, ny, W, 0.3, pins, {Vec3(-d / 2, 1, 0), Vec3(d / 2, 1, 0)},
                                     k.type, k.material);
    WeilOptions o;
    o.tolerance = 1e-12;
    const WeilResult r = weil_drape(p, o);
    ASSERT_TRUE(r.converged);
    EXPECT_EQ(r.catenaries, 2);  // the top edge, and left + bottom + right between the same corners
    const AnalyticCatenary c{a, Vec3(0, 1 - a * (std::cosh(d / (2 * a)) - 1), 0), Vec3::UnitX(), Vec3::UnitY()};
    const double h = k.L / (nx - 1);  // rest length of each edge along the top
    double worst = 0, arc = 0;
    for (int i = 0; i < nx; ++i) {
      const Vec3& x = r.x[p.model.mesh.grid_index(i, 0)];
      // The analytic point at rest arc length i h from the left corner.
      worst = std::max(worst, (x - c.point(c.x_at(-d / 2, i * h))).norm());
      if (i > 0) {
        // The analytic arc between consecutive vertices is the rest length: nothing stretched.
        const double piece = c.arc(r.x[p.model.mesh.grid_index(i - 1, 0)].x(), x.x());
        EXPECT_NEAR(piece, h, 1e-12) << "segment " << i;
        arc += piece;
      }
    }
    std::printf("[weil] %s top edge against y = a cosh(x/a) + c: worst %.2g m, arc %.15f m (rest %.3f m)\n",
                name_of(k.type), worst, arc, k.L);
    EXPECT_LT(worst, 1e-12);
    EXPECT_NEAR(arc, k.L, 1e-12);
    // The corners stay where they were pinned, bit for bit.
    EXPECT_EQ(r.x[0], p.start[0]);
    EXPECT_EQ(r.x[nx - 1], p.start[nx - 1]);
  }
}

// A 1 m square (n x n, horizontal) held at its four corners, brought in to +-0.4 m.
DrapeProblem four_corners(int n) {
  const double c = 0.4;
  return hung_grid(GridPlane::XZ, n, n, 1.0, 1.0, {0, n - 1, n * (n - 1), n * n - 1},
                   {Vec3(-c, 1, -c), Vec3(c, 1, -c), Vec3(-c, 1, c), Vec3(c, 1, c)});
}

TEST(WeilDrape, SymmetricSupportsGiveASymmetricShape) {
  const int n = 17;
  const DrapeProblem p = four_corners(n);
  const RestMesh& m = p.model.mesh;
  for (bool diagonals : {true, false}) {
    WeilOptions o;
    o.tolerance = 1e-13;
    o.diagonals = diagonals;
    const WeilResult r = weil_drape(p, o);
    ASSERT_TRUE(r.converged);
    EXPECT_EQ(r.catenaries, diagonals ? 6 : 4);  // Weil's four edges and two diagonals
    // The square's symmetries: mirrors in x and z (i -> n-1-i, j -> n-1-j) and the swap x <-> z.
    double worst = 0;
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        const Vec3& x = r.x[m.grid_index(i, j)];
        worst = std::max(worst, (r.x[m.grid_index(n - 1 - i, j)] - Vec3(-x.x(), x.y(), x.z())).norm());
        worst = std::max(worst, (r.x[m.grid_index(i, n - 1 - j)] - Vec3(x.x(), x.y(), -x.z())).norm());
        worst = std::max(worst, (r.x[m.grid_index(j, i)] - Vec3(x.z(), x.y(), x.x())).norm());
      }
    }
    const double centre = r.x[m.grid_index(n / 2, n / 2)].y();
    std::printf("[weil] four corners, diagonals %s: %d sweeps, centre at %.6f m, worst asymmetry %.2g m\n",
                diagonals ? "on" : "off", r.sweeps, centre, worst);
    EXPECT_LT(worst, 1e-10);
    EXPECT_LT(std::abs(r.x[m.grid_index(n / 2, n / 2)].x()), 1e-10);
  }
}

TEST(WeilDrape, OfTwoDiagonalsCrossingAtDifferentHeightsTheLowerIsIgnored) {
  // Weil: "These two will naturally intersect ... we will just ignore the lower of the two
  // curves". A 16 x 16 square (its diagonals cross between vertices) whose corners 0 and 255 are
  // held at 1 m and the other two at 0.8 m: the 0-255 diagonal crosses higher and is the one hung.
  const int n = 16;
  const double c = 0.4;
  const int a0 = 0, a1 = n * n - 1, b0 = n - 1, b1 = n * (n - 1);
  const DrapeProblem p = hung_grid(GridPlane::XZ, n, n, 1.0, 1.0, {a0, b0, b1, a1},
                                   {Vec3(-c, 1, -c), Vec3(c, 0.8, -c), Vec3(-c, 0.8, c), Vec3(c, 1, c)});
  const WeilResult r = weil_drape(p, WeilOptions{});
  ASSERT_TRUE(r.converged);
  EXPECT_EQ(r.catenaries, 5);  // four edges and one diagonal
  const double h = std::sqrt(2.0) / (n - 1);  // rest length of a diagonal step
  const Catenary kept(p.start[a0], p.start[a1], std::sqrt(2.0), p.gravity);
  double worst = 0;
  for (int k = 1; k < n - 1; ++k) worst = std::max(worst, (r.x[p.model.mesh.grid_index(k, k)] - kept.at(k * h)).norm());
  EXPECT_LT(worst, 1e-12);
  // The other diagonal is filled in by the averaging, not its own catenary.
  const Catenary ignored(p.start[b0], p.start[b1], std::sqrt(2.0), p.gravity);
  const int mid = p.model.mesh.grid_index(n - 1 - n / 4, n / 4);
  EXPECT_GT((r.x[mid] - ignored.at((n / 4) * h)).norm(), 1e-3);
}

TEST(WeilDrape, InteriorAveragingConvergesBelowTheSupports) {
  const int n = 17;
  const DrapeProblem p = four_corners(n);
  const RestMesh& m = p.model.mesh;
  WeilOptions o;
  o.tolerance = 1e-13;
  o.diagonals = false;
  const WeilResult r = weil_drape(p, o);
  ASSERT_TRUE(r.converged);
  ASSERT_EQ(static_cast<int>(r.changes.size()), r.sweeps);
  EXPECT_LE(r.changes.back(), o.tolerance);
  // With the whole border held this is Gauss-Seidel on the Laplace equation of an (n-2)^2 grid:
  // the successive change shrinks by its spectral radius cos^2(pi / (n - 1)) per sweep.
  const double rho = std::pow(std::cos(kPi / (n - 1)), 2);
  const double rate = std::pow(r.changes.back() / r.changes[r.sweeps - 51], 1.0 / 50);
  std::printf("[weil] averaging: %d sweeps from %.3g m to %.3g m, rate %.6f (Gauss-Seidel %.6f)\n", r.sweeps,
              r.changes.front(), r.changes.back(), rate, rho);
  EXPECT_NEAR(rate, rho, 1e-3);
  // A fixed point of the averaging: each interior point is the mean of its four neighbours.
  double residual = 0;
  for (int j = 1; j < n - 1; ++j) {
    for (int i = 1; i < n - 1; ++i) {
      const int v = m.grid_index(i, j);
      residual = std::max(residual, (0.25 * (r.x[v - 1] + r.x[v + 1] + r.x[v - n] + r.x[v + n]) - r.x[v]).norm());
    }
  }
  EXPECT_LT(residual, 2 * o.tolerance);
  // ... and the only one: started from a random crumple of the interior it reaches the same shape.
  DrapeProblem crumpled = p;
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> jitter(-0.2, 0.2);
  for (int v = 0; v < m.vertex_count(); ++v) {
    if (!p.pinned[v]) crumpled.start[v] += Vec3(jitter(rng), jitter(rng), jitter(rng));
  }
  const WeilResult again = weil_drape(crumpled, o);
  double apart = 0;
  for (int v = 0; v < m.vertex_count(); ++v) apart = std::max(apart, (again.x[v] - r.x[v]).norm());
  EXPECT_LT(apart, 1e-10);
  // Every point but the supports hangs below them (the curves sag below their ends, and the
  // averaging cannot rise above the wireframe it fills: the maximum principle), and none below
  // the wireframe's lowest point (border, and the diagonals when hung).
  for (bool diagonals : {false, true}) {
    o.diagonals = diagonals;
    const WeilResult w = weil_drape(p, o);
    ASSERT_TRUE(w.converged);
    double lowest_wire = 1;
    for (int k = 0; k < n; ++k) {
      for (int v : {m.grid_index(k, 0), m.grid_index(k, n - 1), m.grid_index(0, k), m.grid_index(n - 1, k)}) {
        lowest_wire = std::min(lowest_wire, w.x[v].y());
      }
      if (diagonals) lowest_wire = std::min({lowest_wire, w.x[m.grid_index(k, k)].y(), w.x[m.grid_index(n - 1 - k, k)].y()});
    }
    double highest = -1e9, lowest = 1e9;
    for (int v = 0; v < m.vertex_count(); ++v) {
      if (p.pinned[v]) continue;
      highest = std::max(highest, w.x[v].y());
      lowest = std::min(lowest, w.x[v].y());
    }
    std::printf("[weil] diagonals %s: free points from %.6f to %.6f m, supports at 1 m\n", diagonals ? "on" : "off",
                lowest, highest);
    EXPECT_LT(highest, 1.0);
    EXPECT_GE(lowest, lowest_wire - 1e-12);
  }
}

TEST(WeilDrape, GeometricDrapeIsReportedLikeThePhysicalMethods) {
  const DrapeProblem p = four_corners(9);
  const DrapeResult r = geometric_drape(p, WeilOptions{});
  EXPECT_TRUE(r.converged) << r.message;
  EXPECT_GT(r.iterations, 0);
  EXPECT_EQ(r.energy, drape_energy(p, r.x));
  EXPECT_EQ(r.max_force, drape_max_force(p, r.x));
  EXPECT_NE(r.message.find("6 catenaries"), std::string::npos) << r.message;
  for (int v = 0; v < p.model.vertex_count(); ++v) {
    if (p.pinned[v]) {
      EXPECT_EQ(r.x[v], p.start[v]);
    }
  }
  const std::vector<std::string> names = drape_method_names();
  EXPECT_EQ(names.back(), kGeometricDrapeName);
  EXPECT_EQ(names.size(), drape_option_names().size() + 1);
}

TEST(WeilDrape, BadInputIsAOneLineError) {
  const int n = 9;
  // The top corners of a 0.5 m curtain pulled 0.6 m apart: the top edge would have to stretch.
  const DrapeProblem apart =
      hung_grid(GridPlane::XY, n, n, 0.5, 0.5, {0, n - 1}, {Vec3(-0.3, 1.25, 0), Vec3(0.3, 1.25, 0)});
  const std::string stretched = message_of([&] { weil_drape(apart, WeilOptions{}); });
  EXPECT_NE(stretched.find("border from pinned vertex 0 to 8"), std::string::npos) << stretched;
  EXPECT_NE(stretched.find("cannot join"), std::string::npos) << stretched;

  const DrapeProblem good = four_corners(n);
  DrapeProblem no_grid = good;
  no_grid.model.mesh.grid_nx = no_grid.model.mesh.grid_ny = 0;
  EXPECT_NE(message_of([&] { weil_drape(no_grid, WeilOptions{}); }).find("generated grid"), std::string::npos);
  DrapeProblem one_pin = good;
  std::fill(one_pin.pinned.begin(), one_pin.pinned.end(), 0);
  one_pin.pinned[0] = 1;
  one_pin.pinned[n * n / 2] = 1;  // an interior pin does not count
  EXPECT_NE(message_of([&] { weil_drape(one_pin, WeilOptions{}); }).find("found 1"), std::string::npos);
  DrapeProblem weightless = good;
  weightless.gravity = Vec3::Zero();
  EXPECT_NE(message_of([&] { weil_drape(weightless, WeilOptions{}); }).find("gravity"), std::string::npos);
  WeilOptions o;
  o.tolerance = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(message_of([&] { weil_drape(good, o); }).find("tolerance"), std::string::npos);
  o = WeilOptions{};
  o.max_sweeps = 0;
  EXPECT_NE(message_of([&] { weil_drape(good, o); }).find("max_sweeps"), std::string::npos);

  // "geometric" is a drape method, but not an option set of the energy minimisers.
  EXPECT_NE(message_of([] { drape_options_from_name("geometric"); }).find("geometric_drape"), std::string::npos);
  EXPECT_NE(message_of([] { drape_options_from_name("sideways"); }).find("geometric"), std::string::npos);
}

}  // namespace
}  // namespace cloth
