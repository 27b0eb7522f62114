// Weil's geometric drape (Karthikeyan & Ranganathan 1998, "The work of Weil" and "Another geometric
// method"): catenaries between the constraint points along the border and the diagonals, then the
// tutorial's averaging of the interior. See weil_drape.hpp.
#include "drape/weil_drape.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

#include "core/error.hpp"

namespace cloth {

namespace {

constexpr double kTautSlack = 1e-9;  // relative: a cable this much shorter than its chord is taut
constexpr double kFoldSpan = 1e-12;  // relative to L: a horizontal span this small is the fold
constexpr double kSeriesBelow = 0.1;  // t below this: series for sinh(t)/t - 1 and its slope
constexpr double kMeetSlack = 1e-9;  // relative to a diagonal's length: crossing diagonals meet

std::string metres(double v) {
  char s[32];
  std::snprintf(s, sizeof s, "%.6g m", v);
  return s;
}

// S(t) = sinh(t)/t - 1 and S'(t), without cancellation near t = 0 (series to t^8, error below
// 2e-15 relative at t = 0.1).
void excess_and_slope(double t, double& s, double& ds) {
  if (t < kSeriesBelow) {
    const double t2 = t * t;
    s = t2 / 6 * (1 + t2 / 20 * (1 + t2 / 42 * (1 + t2 / 72)));
    ds = t / 3 * (1 + t2 / 10 * (1 + t2 / 28 * (1 + t2 / 54)));
  } else {
    s = std::sinh(t) / t - 1;
    ds = (t * std::cosh(t) - std::sinh(t)) / (t * t);
  }
}

// The root t > 0 of S(t) = e, e > 0. S is increasing and convex with S(t) >= t^2/6, so the root
// lies in (0, sqrt(6e)]; off the fold e < 1e12 and S(40) > 1e15, so (0, 40] brackets it too.
// Newton's method started at the right end of the bracket descends monotonically onto the root
// of an increasing convex function; bisection guards against round-off leaving the bracket.
double solve_half_span(double e) {
  double lo = 0, hi = std::min(std::sqrt(6 * e), 40.0);
  double t = hi;
  for (int it = 0; it < 200; ++it) {
    double s, ds;
    excess_and_slope(t, s, ds);
    const double g = s - e;
    if (g == 0) return t;
    (g > 0 ? hi : lo) = t;
    double next = t - g / ds;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (std::abs(next - t) <= 4 * std::numeric_limits<double>::epsilon() * t) return next;
    t = next;
  }
  return t;
}

struct Placement {
  int vertex;
  Vec3 x;
};

struct Curves {
  std::vector<Placement> points;  // the vertices between the constraint points
  int count = 0;                  // catenaries hung
};

// The border of a generated grid as a closed walk: along row 0, down column nx-1, back along
// row ny-1, up column 0.
std::vector<int> border_walk(const RestMesh& m) {
  const int nx = m.grid_nx, ny = m.grid_ny;
  std::vector<int> w;
  for (int i = 0; i < nx; ++i) w.push_back(m.grid_index(i, 0));
  for (int j = 1; j < ny; ++j) w.push_back(m.grid_index(nx - 1, j));
  for (int i = nx - 2; i >= 0; --i) w.push_back(m.grid_index(i, ny - 1));
  for (int j = ny - 2; j >= 1; --j) w.push_back(m.grid_index(0, j));
  return w;
}

// Rest length of the straight piece of cloth between grid vertices a and b: their (u, v)
// distance, stretched by Baraff-Witkin's rest stretch b_u, b_v (eq. 10) when the model has one,
// so that a stretch of border is as long as the material says.
double rest_distance(const ClothModel& model, int a, int b) {
  Vec2 d = model.mesh.uv[a] - model.mesh.uv[b];
  if (model.type == ModelType::BaraffWitkin) {
    d = d.cwiseProduct(Vec2(model.material.rest_stretch_u, model.material.rest_stretch_v));
  }
  return d.norm();
}

// Hangs every stretch of `path` between consecutive pinned vertices (cyclically when `closed`)
// as a catenary from x of one to x of the other, with the stretch's rest length, and places the
// vertices between them at their rest arc length along it (the cloth does not stretch).
Curves hang(const DrapeProblem& p, const std::vector<Vec3>& x, const std::vector<int>& path,
            bool closed, const char* what) {
  const int n = static_cast<int>(path.size());
  std::vector<int> anchors;
  for (int k = 0; k < n; ++k) {
    if (p.pinned[path[k]]) anchors.push_back(k);
  }
  Curves c;
  const int stretches = static_cast<int>(anchors.size()) - (closed ? 0 : 1);
  for (int a = 0; a < stretches; ++a) {
    const int k0 = anchors[a];
    const int k1 = a + 1 < static_cast<int>(anchors.size()) ? anchors[a + 1] : anchors[0] + n;
    if (k1 - k0 < 2) continue;  // neighbours: nothing hangs between them
    std::vector<double> s(k1 - k0 + 1, 0.0);
    for (int k = k0 + 1; k <= k1; ++k) {
      s[k - k0] = s[k - k0 - 1] + rest_distance(p.model, path[(k - 1) % n], path[k % n]);
    }
    const int v0 = path[k0], v1 = path[k1 % n];
    std::optional<Catenary> curve;
    try {
      curve.emplace(x[v0], x[v1], s.back(), p.gravity);
    } catch (const InputError& e) {
      throw InputError(std::string("geometric drape: ") + what + " from pinned vertex " +
                       std::to_string(v0) + " to " + std::to_string(v1) + ": " + e.what());
    }
    ++c.count;
    for (int k = k0 + 1; k < k1; ++k) c.points.push_back({path[k % n], curve->at(s[k - k0])});
  }
  return c;
}

// Weil's diagonals on an n x n grid (the only grids whose diagonals run through vertices), each
// hung when both its end corners are pinned. Of two that cross at different heights the lower is
// ignored (Weil); two that meet are both kept, a shared vertex at their average.
Curves hang_diagonals(const DrapeProblem& p, const std::vector<Vec3>& x) {
  const RestMesh& m = p.model.mesh;
  const int n = m.grid_nx;
  if (m.grid_ny != n) return {};
  std::vector<int> d[2];
  for (int k = 0; k < n; ++k) {
    d[0].push_back(m.grid_index(k, k));
    d[1].push_back(m.grid_index(n - 1 - k, k));
  }
  std::optional<Curves> hung[2];
  for (int q = 0; q < 2; ++q) {
    if (p.pinned[d[q].front()] && p.pinned[d[q].back()]) hung[q] = hang(p, x, d[q], false, "diagonal");
  }
  if (!hung[0] || !hung[1]) return hung[0] ? *hung[0] : hung[1] ? *hung[1] : Curves{};

  std::vector<int> slot(m.vertex_count(), -1);  // where a vertex of diagonal 0 is in its points
  for (size_t i = 0; i < hung[0]->points.size(); ++i) slot[hung[0]->points[i].vertex] = static_cast<int>(i);
  const auto position = [&](int q, int v) -> Vec3 {
    for (const Placement& pl : hung[q]->points) {
      if (pl.vertex == v) return pl.x;
    }
    return x[v];  // pinned
  };
  // Where they cross: the middle vertex (odd n) or the middle of the middle segment (even n).
  const Vec3 up = -p.gravity.normalized();
  const int k = (n - 1) / 2;
  double height[2];
  for (int q = 0; q < 2; ++q) {
    const Vec3 c = n % 2 ? position(q, d[q][k]) : 0.5 * (position(q, d[q][k]) + position(q, d[q][k + 1]));
    height[q] = c.dot(up);
  }
  const double slack = kMeetSlack * rest_distance(p.model, d[0].front(), d[0].back());
  if (height[0] > height[1] + slack) return *hung[0];
  if (height[1] > height[0] + slack) return *hung[1];
  Curves both = *hung[0];
  both.count += hung[1]->count;
  for (const Placement& pl : hung[1]->points) {
    if (slot[pl.vertex] >= 0) {
      Vec3& shared = both.points[slot[pl.vertex]].x;
      shared = 0.5 * (shared + pl.x);
    } else {
      both.points.push_back(pl);
    }
  }
  return both;
}

void validate(const DrapeProblem& p, const WeilOptions& o) {
  if (!p.model.mesh.is_grid()) {
    throw InputError("geometric drape: Weil's model needs a generated grid mesh (this mesh has no grid size)");
  }
  if (!(p.gravity.norm() > 0)) {
    throw InputError("geometric drape: gravity must be non-zero (it sets which way the catenaries hang)");
  }
  if (!(o.tolerance > 0) || !std::isfinite(o.tolerance)) {
    throw InputError("geometric drape: tolerance must be a positive finite length, got " + metres(o.tolerance));
  }
  if (o.max_sweeps < 1) {
    throw InputError("geometric drape: max_sweeps must be at least 1, got " + std::to_string(o.max_sweeps));
  }
}

}  // namespace

Catenary::Catenary(const Vec3& p0, const Vec3& p1, double length, const Vec3& gravity)
    : p0_(p0), p1_(p1), length_(length) {
  if (!p0.allFinite() || !p1.allFinite() || !std::isfinite(length) || !gravity.allFinite()) {
    throw InputError("catenary: end points, length and gravity must be finite");
  }
  const double g = gravity.norm();
  if (!(g > 0)) throw InputError("catenary: gravity must be non-zero (it sets which way the cable hangs)");
  if (!(length > 0)) throw InputError("catenary: the length must be positive, got " + metres(length));
  up_ = -gravity / g;
  const Vec3 delta = p1 - p0;
  rise_ = delta.dot(up_);
  across_ = delta - rise_ * up_;
  const double d = across_.norm(), chord = delta.norm();
  if (length < chord * (1 - kTautSlack)) {
    throw InputError("catenary: a cable " + metres(length) + " long cannot join points " + metres(chord) +
                     " apart (it would have to stretch)");
  }
  if (length <= chord) {
    kind_ = Kind::Taut;
    a_ = std::numeric_limits<double>::infinity();
    return;
  }
  if (d <= kFoldSpan * length) {
    kind_ = Kind::Fold;
    a_ = 0;
    return;
  }
  // In the vertical plane, x from p0 along across_, y up: with t = d/(2a) the arc length and rise
  // are L = 2a sinh(t) cosh(w), v = 2a sinh(t) sinh(w), w = (d/2 - x_m)/a, so tanh(w) = v/L and
  // sinh(t)/t = sqrt(L^2 - v^2)/d. The excess e = sqrt(L^2 - v^2)/d - 1 is formed from L - chord
  // (exact in floating point near a taut string) so that the sag of a nearly taut cable keeps
  // its relative accuracy.
  kind_ = Kind::Hanging;
  const double root = std::sqrt((length - rise_) * (length + rise_));  // sqrt(L^2 - v^2) > d
  const double e = (length - chord) * (length + chord) / ((root + d) * d);
  const double t = solve_half_span(e);
  a_ = d / (2 * t);
  u0_ = std::atanh(rise_ / length) - t;  // -x_m / a
}

Vec3 Catenary::at(double s) const {
  switch (kind_) {
    case Kind::Taut: {
      const double f = s / length_;
      return (1 - f) * p0_ + f * p1_;  // exactly p0 and p1 at the ends
    }
    case Kind::Fold: {
      // Straight down from p0 to the lowest point, (L - v)/2 below it, then straight up to p1.
      const double lowest = 0.5 * (length_ - rise_);
      const double drop = s <= lowest ? s : 2 * lowest - s;
      return p0_ + (s / length_) * across_ - drop * up_;
    }
    case Kind::Hanging:
      break;
  }
  // s = a (sinh(u) - sinh(u0)) from p0, so u - u0 = asinh(q + s/a) - asinh(q), q = sinh(u0); for
  // arguments of one sign the difference is taken as asinh((P^2 - q^2)/(P sqrt(1+q^2) + q sqrt(1+P^2)))
  // (no cancellation when a is large). Then x = a (u - u0) and
  // y = a (cosh(u) - cosh(u0)) = 2a sinh(u0 + du/2) sinh(du/2).
  const double q = std::sinh(u0_), ds = s / a_, P = q + ds;
  const double du = P * q <= 0 ? std::asinh(P) - std::asinh(q)
                               : std::asinh(ds * (P + q) / (P * std::sqrt(1 + q * q) + q * std::sqrt(1 + P * P)));
  const double x = a_ * du;
  const double y = 2 * a_ * std::sinh(u0_ + 0.5 * du) * std::sinh(0.5 * du);
  return p0_ + (x / across_.norm()) * across_ + y * up_;
}

WeilResult weil_drape(const DrapeProblem& p, const WeilOptions& o) {
  validate(p, o);
  const RestMesh& m = p.model.mesh;
  const int nx = m.grid_nx, ny = m.grid_ny;
  WeilResult r;
  r.x = p.start;
  std::vector<std::uint8_t> held = p.pinned;
  const auto place = [&](const Curves& c) {
    for (const Placement& pl : c.points) {
      r.x[pl.vertex] = pl.x;
      held[pl.vertex] = 1;
    }
    r.catenaries += c.count;
  };

  const std::vector<int> border = border_walk(m);
  const auto pinned_on_border =
      std::count_if(border.begin(), border.end(), [&](int v) { return p.pinned[v] != 0; });
  if (pinned_on_border < 2) {
    throw InputError("geometric drape: Weil's cloth hangs from constraint points on its border; pin at least "
                     "two border vertices (found " + std::to_string(pinned_on_border) + ")");
  }
  // The border first, then the diagonals from the (fixed) corners: the two never share a vertex.
  place(hang(p, r.x, border, true, "border"));
  if (o.diagonals) place(hang_diagonals(p, r.x));

  // Every border vertex is now held (pinned, or between two pinned ones), so each free vertex has
  // its four neighbours. The appendix program's sweep: rows in order, updated in place.
  std::vector<int> free;
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      if (!held[m.grid_index(i, j)]) free.push_back(m.grid_index(i, j));
    }
  }
  r.converged = free.empty();
  while (!r.converged && r.sweeps < o.max_sweeps) {
    double change = 0;
    for (const int v : free) {
      const Vec3 mean = 0.25 * (r.x[v - 1] + r.x[v + 1] + r.x[v - nx] + r.x[v + nx]);
      change = std::max(change, (mean - r.x[v]).norm());
      r.x[v] = mean;
    }
    ++r.sweeps;
    r.changes.push_back(change);
    if (o.on_sweep) o.on_sweep(r.sweeps, change);
    r.converged = change <= o.tolerance;
  }
  return r;
}

DrapeResult geometric_drape(const DrapeProblem& problem, const WeilOptions& options) {
  WeilResult w = weil_drape(problem, options);
  DrapeResult r;
  r.converged = w.converged;
  r.iterations = w.sweeps;
  r.energy = drape_energy(problem, w.x);
  r.max_force = drape_max_force(problem, w.x);
  char line[256];
  std::snprintf(line, sizeof line,
                "%d catenaries; averaging %s after %d sweeps (last move %.2g m); a geometric shape, "
                "not an equilibrium (max residual force %.3g N)",
                w.catenaries, w.converged ? "converged" : "NOT converged", w.sweeps,
                w.changes.empty() ? 0.0 : w.changes.back(), r.max_force);
  r.message = line;
  r.x = std::move(w.x);
  return r;
}

}  // namespace cloth
