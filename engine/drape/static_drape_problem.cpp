// The static drape problem (Feynman 1986 sections 5.1, 7.1, 7.2): energy, forces, fixed points,
// solids; and one grid level of it with the multigrid source term (section 6).
#include <algorithm>
#include <cmath>
#include <string>

#include "drape/static_drape_internal.hpp"

#include "core/error.hpp"
#include "forces/internal_forces.hpp"

namespace cloth {

namespace drape {

namespace {
constexpr double kContactSlack = 1e-9;  // m: a vertex this close to the offset surface touches it
constexpr double kMarchTolerance = 1e-7;  // m: move_outside's march ends this close to a solid
constexpr int kMaxMarches = 64;
}

Level make_level(const ClothModel& model, const std::vector<std::uint8_t>& fixed,
                 const std::vector<Collider>& colliders, const Vec3& gravity) {
  Level L;
  L.model = model;
  L.fixed = fixed;
  L.source.assign(model.vertex_count(), Vec3::Zero());
  L.colliders = &colliders;
  L.gravity = gravity;
  L.stencils = build_stencils(L.model);
  L.zero_v.assign(model.vertex_count(), Vec3::Zero());
  double sum = 0;
  for (const Edge& e : model.edges) sum += e.rest;
  L.spacing = model.edges.empty() ? 1.0 : sum / static_cast<double>(model.edges.size());
  L.step_guess = 1e-3 * L.spacing;
  return L;
}

double material_energy(const Level& L, const std::vector<Vec3>& x) {
  ClothState s;
  s.x = x;
  s.v = L.zero_v;
  return internal_energy(L.model, s);
}

double level_energy(const Level& L, const std::vector<Vec3>& x) {
  double e = material_energy(L, x);
  for (int i = 0; i < L.n(); ++i) e -= (L.model.mass[i] * L.gravity + L.source[i]).dot(x[i]);
  return e;
}

double level_energy_change(const Level& L, const std::vector<Vec3>& x, double ex_material,
                           const std::vector<Vec3>& y) {
  double d = material_energy(L, y) - ex_material;
  for (int i = 0; i < L.n(); ++i) d -= (L.model.mass[i] * L.gravity + L.source[i]).dot(y[i] - x[i]);
  return d;
}

void level_forces(const Level& L, const std::vector<Vec3>& x, std::vector<Vec3>& f) {
  ClothState s;
  s.x = x;
  s.v = L.zero_v;
  f.assign(L.n(), Vec3::Zero());
  add_internal_forces(L.model, s, f);
  for (int i = 0; i < L.n(); ++i) f[i] += L.model.mass[i] * L.gravity + L.source[i];
}

void residual_forces(const Level& L, const std::vector<Vec3>& x, std::vector<Vec3>& f) {
  level_forces(L, x, f);
  for (int i = 0; i < L.n(); ++i) {
    if (L.fixed[i]) {
      f[i].setZero();
      continue;
    }
    Vec3 n;
    if (touching_normal(*L.colliders, x[i], f[i], &n)) f[i] -= f[i].dot(n) * n;
  }
}

double max_norm(const std::vector<Vec3>& f) {
  double m = 0;
  for (const Vec3& v : f) m = std::max(m, v.norm());
  return m;
}

// Section 7.2: "If, during the relaxation process, a point is moved into a solid, it is instead
// moved to the nearest point outside a solid." Solids in turn, as push-point-out-of-all-ellipsoids.
Vec3 project_out(const std::vector<Collider>& colliders, const Vec3& p) {
  Vec3 q = p;
  for (const Collider& c : colliders) {
    Vec3 n;
    const double d = signed_distance(c, q, &n);
    if (d < c.thickness) q += (c.thickness - d) * n;
  }
  return q;
}

Vec3 move_outside(const std::vector<Collider>& colliders, const Vec3& from, const Vec3& to) {
  const double length = (to - from).norm();
  double stop = 1.0;  // fraction of the path before the first solid
  Vec3 normal;
  if (length > 0) {
    for (const Collider& c : colliders) {
      // A solid the point already touches (as a march leaves it) holds it through project_out:
      // it slides along it.
      if (signed_distance(c, from, &normal) <= c.thickness + kMarchTolerance) continue;
      // Each march moves by the distance to the solid, which cannot cross it; a path that
      // grazes the solid for kMaxMarches marches stops there too (conservative).
      double t = 0;
      int march = 0;
      for (; march < kMaxMarches && t < stop; ++march) {
        const double gap = signed_distance(c, from + t * (to - from), &normal) - c.thickness;
        if (gap <= kMarchTolerance) break;
        t += gap / length;
      }
      if (t < stop) stop = t;
    }
  }
  return project_out(colliders, from + stop * (to - from));
}

void drop_onto_solids(const Level& L, const Vec3& gravity, std::vector<Vec3>& x) {
  if (!(gravity.norm() > 0) || std::any_of(L.fixed.begin(), L.fixed.end(), [](auto f) { return f != 0; })) return;
  const Vec3 down = gravity.normalized() * kLongestDrop;
  double drop = 1.0;  // fraction of kLongestDrop
  for (const Vec3& p : x) {
    const Vec3 stop = move_outside(*L.colliders, p, p + drop * down);
    drop = std::min(drop, (stop - p).dot(down) / down.squaredNorm());
  }
  if (drop >= 1.0 || !(drop > 0)) return;  // nothing below, or already resting
  for (Vec3& p : x) p += drop * down;
}

bool touching_normal(const std::vector<Collider>& colliders, const Vec3& p, const Vec3& f, Vec3* n) {
  for (const Collider& c : colliders) {
    Vec3 nc;
    const double d = signed_distance(c, p, &nc);
    if (d <= c.thickness + kContactSlack && f.dot(nc) < 0) {
      *n = nc;
      return true;
    }
  }
  return false;
}

}  // namespace drape

DrapeProblem make_drape_problem(ClothModel model, const Vec3& gravity,
                                const std::vector<int>& pinned_vertices,
                                std::vector<Collider> colliders, std::vector<Vec3> start) {
  const int n = model.vertex_count();
  if (n == 0 || static_cast<int>(model.mass.size()) != n) {
    throw InputError("static drape: the model has no vertices or no masses (build it with build_model)");
  }
  validate_material(model.material);
  if (!gravity.allFinite()) throw InputError("static drape: gravity must be finite (m/s^2)");
  if (start.empty()) start = model.mesh.positions;
  if (static_cast<int>(start.size()) != n) {
    throw InputError("static drape: " + std::to_string(start.size()) + " start positions for " +
                     std::to_string(n) + " vertices");
  }
  for (const Vec3& p : start) {
    if (!p.allFinite()) throw InputError("static drape: start positions must be finite (m)");
  }
  DrapeProblem p;
  p.pinned.assign(n, 0);
  for (int i : pinned_vertices) {
    if (i < 0 || i >= n) {
      throw InputError("static drape: pinned vertex " + std::to_string(i) + " is out of range [0, " +
                       std::to_string(n) + ")");
    }
    p.pinned[i] = 1;
  }
  for (const Collider& c : colliders) {
    if (!(c.thickness >= 0) || !std::isfinite(c.thickness)) {
      throw InputError("static drape: collider thickness must be a finite length >= 0 (m)");
    }
    Vec3 nrm;
    const double d = signed_distance(c, Vec3(0.1234, 0.5678, 0.9012), &nrm);
    if (!std::isfinite(d) || !nrm.allFinite()) {
      throw InputError("static drape: a collider has a non-finite shape (NaN or infinite parameters)");
    }
  }
  p.model = std::move(model);
  p.gravity = gravity;
  p.colliders = std::move(colliders);
  // Free vertices start outside the solids (7.2); pinned ones stay where they are put.
  for (int i = 0; i < n; ++i) {
    if (!p.pinned[i]) start[i] = drape::project_out(p.colliders, start[i]);
  }
  p.start = std::move(start);
  return p;
}

double drape_energy(const DrapeProblem& problem, const std::vector<Vec3>& x) {
  const drape::Level L = drape::make_level(problem.model, problem.pinned, problem.colliders, problem.gravity);
  return drape::level_energy(L, x);
}

double drape_max_force(const DrapeProblem& problem, const std::vector<Vec3>& x) {
  const drape::Level L = drape::make_level(problem.model, problem.pinned, problem.colliders, problem.gravity);
  std::vector<Vec3> f;
  drape::residual_forces(L, x, f);
  return drape::max_norm(f);
}

const char* drape_method_name(DrapeMethod m) {
  switch (m) {
    case DrapeMethod::Relaxation: return "relaxation";
    case DrapeMethod::Multigrid: return "multigrid";
    case DrapeMethod::Newton: return "newton";
  }
  return "?";
}

}  // namespace cloth
