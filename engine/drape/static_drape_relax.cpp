// Point relaxation (Feynman 1986, section 4): relaxing one point (4.1) and the order of a sweep
// (4.2).
#include <cmath>
#include <numbers>

#include "drape/static_drape_internal.hpp"

namespace cloth::drape {

namespace {

// "a unit vector pointing in nearly the direction of fastest energy decrease" (4.1,
// nearly-force-vector): the force direction turned by a random angle, uniform in [0, 2 mean]
// (mean `mean_deg`, "about 7 degrees"), about a random axis perpendicular to it. Any angle below
// 90 degrees keeps a descent direction. "If points moved only along the force vector, symmetric
// pieces of cloth would never lose their symmetry."
Vec3 nearly_force_direction(const Vec3& f_hat, double mean_deg, std::mt19937_64& rng) {
  if (mean_deg <= 0) return f_hat;
  std::normal_distribution<double> gauss;
  Vec3 r(gauss(rng), gauss(rng), gauss(rng));
  r -= r.dot(f_hat) * f_hat;
  const double len = r.norm();
  if (!(len > 1e-12)) return f_hat;
  std::uniform_real_distribution<double> uni(0.0, 2.0 * mean_deg * std::numbers::pi / 180.0);
  const double angle = uni(rng);
  return std::cos(angle) * f_hat + std::sin(angle) * (r / len);
}

// Relaxes vertex i against the positions x (its neighbours held fixed) and returns its new
// position; x is left unchanged. 4.1: direction from the force (here the exact gradient of the
// element kernels rather than the thesis's one-sided differences with delta = 1e-4), then the
// parabola search along it; every sample point is pushed out of the solids (7.2: "invisible to
// both the relaxation program ... and to the energy expression").
Vec3 relax_point(Level& L, std::vector<Vec3>& x, int i, double perturbation_deg, std::mt19937_64& rng) {
  const Vec3 xi = x[i];
  const Vec3 lin = L.model.mass[i] * L.gravity + L.source[i];  // gravity + FAS source: linear in x_i
  Vec3 f = stencil_force(L.model, L.stencils, i, x, L.zero_v) + lin;
  Vec3 n;
  if (touching_normal(*L.colliders, xi, f, &n)) f -= f.dot(n) * n;  // the solid holds that part
  const double fn = f.norm();
  if (!(fn > 0) || !std::isfinite(fn)) return xi;
  const Vec3 dir = nearly_force_direction(f / fn, perturbation_deg, rng);
  const double e0 = stencil_energy(L.model, L.stencils, i, x, L.zero_v);
  const auto phi = [&](double t) {
    const Vec3 p = move_outside(*L.colliders, xi, xi + t * dir);
    x[i] = p;
    const double e = stencil_energy(L.model, L.stencils, i, x, L.zero_v) - e0 - lin.dot(p - xi);
    x[i] = xi;
    return e;
  };
  // "The initial guess of the correct value for k is based on the value of t at the minimum of
  // the previous point" (search-along-vector-starting-smart keeps a running average).
  const double k_min = 1e-13 * L.spacing, k_max = 10 * L.spacing;
  const double k = std::clamp(L.step_guess, 3 * k_min, k_max);
  double val = 0;
  const double t = parabola_search(phi, k, k_min, k_max, &val);
  if (!(t > 0)) return xi;
  L.step_guess = (3 * L.step_guess + t) / 4;
  return move_outside(*L.colliders, xi, xi + t * dir);
}

}  // namespace

int relax_sweep(Level& L, std::vector<Vec3>& x, RelaxOrder order, double perturbation_deg,
                std::mt19937_64& rng) {
  const int n = L.n();
  int moved = 0;
  const auto relax_in_place = [&](int i) {
    if (L.fixed[i]) return;
    const Vec3 p = relax_point(L, x, i, perturbation_deg, rng);
    if (p != x[i]) ++moved;
    x[i] = p;
  };
  switch (order) {
    case RelaxOrder::Sequential:
      for (int i = 0; i < n; ++i) relax_in_place(i);
      break;
    case RelaxOrder::RedBlack: {
      // 4.2: "First, the 'red' points are relaxed in row-major order, and then the 'black' points
      // are relaxed in reverse row-major order."
      const int nx = L.model.mesh.grid_nx;
      for (int i = 0; i < n; ++i) {
        if (((i % nx) + (i / nx)) % 2 == 0) relax_in_place(i);
      }
      for (int i = n - 1; i >= 0; --i) {
        if (((i % nx) + (i / nx)) % 2 == 1) relax_in_place(i);
      }
      break;
    }
    case RelaxOrder::Jacobi: {
      // 4.2's "correct solution": every point relaxed from the old positions of its neighbours,
      // all moved at once. The points are independent (this loop may run in parallel with one
      // copy of x per thread); moving them together can overshoot, so the whole move is scaled
      // by the parabola search through the energies at 0, 1 and 3 times it (the thesis's
      // relax-cloth-forcibly), which keeps every sweep an energy decrease.
      std::vector<Vec3> target = x;
      for (int i = 0; i < n; ++i) {
        if (!L.fixed[i]) target[i] = relax_point(L, x, i, perturbation_deg, rng);
      }
      const double e0 = material_energy(L, x);
      std::vector<Vec3> y(n);
      const auto at = [&](double a) {
        for (int i = 0; i < n; ++i) {
          y[i] = L.fixed[i] ? x[i] : move_outside(*L.colliders, x[i], x[i] + a * (target[i] - x[i]));
        }
      };
      const auto phi = [&](double a) {
        at(a);
        return level_energy_change(L, x, e0, y);
      };
      double val = 0;
      const double a = parabola_search(phi, 1.0, 1e-4, 9.0, &val);
      if (!(a > 0)) break;
      at(a);
      for (int i = 0; i < n; ++i) moved += (y[i] != x[i]);
      x = y;
      break;
    }
  }
  return moved;
}

}  // namespace cloth::drape
