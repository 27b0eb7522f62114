#pragma once
// Internals of the static drape solver (static_drape.hpp), shared by its translation units:
// one grid level (model, fixed points, FAS source term), per-vertex element stencils, the
// energy and force of a level, solid projection, the parabola line search and the smoothers.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "collision/collider.hpp"
#include "model/model.hpp"
#include "model/state.hpp"
#include "drape/static_drape.hpp"

namespace cloth::drape {

/// One element of the model, by kind and index into its array (for per-vertex energies).
struct ElementRef {
  std::uint8_t kind = 0;
  int index = 0;
};

/// For every vertex, the elements whose energy depends on its position (its "stencil": the
/// thesis's energy-of-cloth-around-point, 4.1).
struct VertexStencils {
  std::vector<int> start;          ///< CSR offsets, size n + 1
  std::vector<ElementRef> refs;
};
VertexStencils build_stencils(const ClothModel& model);

/// Sum of the energies of the elements in vertex i's stencil at positions x (velocities v,
/// all zero), J; and the material force on vertex i from them, N.
double stencil_energy(const ClothModel& model, const VertexStencils& s, int i,
                      const std::vector<Vec3>& x, const std::vector<Vec3>& v);
Vec3 stencil_force(const ClothModel& model, const VertexStencils& s, int i,
                   const std::vector<Vec3>& x, const std::vector<Vec3>& v);

/// A grid level of the problem. Its energy is E_material(x) - sum (m_i g + s_i) . x_i: s is the
/// FAS source term (zero on the finest level), a constant force per vertex.
struct Level {
  ClothModel model;
  std::vector<std::uint8_t> fixed;
  std::vector<Vec3> source;      ///< N, per vertex
  const std::vector<Collider>* colliders = nullptr;
  Vec3 gravity = Vec3::Zero();
  VertexStencils stencils;
  std::vector<Vec3> zero_v;      ///< velocities (all zero)
  double spacing = 0;            ///< a typical edge length, m (line-search scales)
  double step_guess = 0;         ///< running average of accepted point moves (4.1), m
  int n() const { return model.vertex_count(); }
};
Level make_level(const ClothModel& model, const std::vector<std::uint8_t>& fixed,
                 const std::vector<Collider>& colliders, const Vec3& gravity);

/// Material (elastic) energy only, J.
double material_energy(const Level& L, const std::vector<Vec3>& x);
/// E(x) of the level, J.
double level_energy(const Level& L, const std::vector<Vec3>& x);
/// E(y) - E(x) computed so that round-off stays at the size of the material energy (the linear
/// gravity/source part is differenced exactly), J.
double level_energy_change(const Level& L, const std::vector<Vec3>& x, double ex_material,
                           const std::vector<Vec3>& y);
/// Total force f = material + m g + s on every vertex (fixed ones included), N.
void level_forces(const Level& L, const std::vector<Vec3>& x, std::vector<Vec3>& f);
/// The force with the part pushing into a touched solid removed (zero on fixed vertices).
void residual_forces(const Level& L, const std::vector<Vec3>& x, std::vector<Vec3>& f);
double max_norm(const std::vector<Vec3>& f);

/// 7.2: p moved to the nearest point at least `thickness` outside every solid (in turn).
Vec3 project_out(const std::vector<Collider>& colliders, const Vec3& p);
/// When no vertex of `L` is fixed: moves the cloth `x` rigidly along `gravity` until its first
/// vertex comes within `thickness` of a solid (move_outside's march; at most kLongestDrop m). Its
/// energy falls linearly along that move, which has no stiffness to stop it, so this is the
/// minimum along it; nothing happens with a fixed point, or with no solid below.
inline constexpr double kLongestDrop = 1e3;
void drop_onto_solids(const Level& L, const Vec3& gravity, std::vector<Vec3>& x);
/// A vertex's move from `from` (outside every solid) toward `to`, stopped where its path first
/// comes within `thickness` of a solid that `from` does not touch, then project_out: 7.2's rule
/// applied along the path, so that a long step (Newton's, a coarse correction) cannot carry a
/// point through a solid to its far side. The path is marched by the signed distance (sphere
/// tracing), which never steps past a surface.
Vec3 move_outside(const std::vector<Collider>& colliders, const Vec3& from, const Vec3& to);
/// The outward normal of a solid that p touches (within thickness + 1e-9 m) and that f pushes
/// into; false if none.
bool touching_normal(const std::vector<Collider>& colliders, const Vec3& p, const Vec3& f, Vec3* n);

/// 4.1's line search for the minimum of phi(t), t >= 0, given phi(0) = 0 and phi'(0) < 0:
/// samples t = k and 3k, shrinks k by 3 while phi(k) >= 0 ("too far out"), grows it by 3 while
/// phi(3k) < 0 ("still in the bowl"), then takes the apex of the parabola through 0, k, 3k. Safe-
/// guards: t stays in (0, 3k]; the apex is kept only if it beats phi(k); k below k_min gives 0
/// (no decrease found: round-off), k above k_max gives the best sample. Returns t, phi(t) in *val.
template <typename Phi>
double parabola_search(Phi&& phi, double k, double k_min, double k_max, double* val);

/// One sweep of point relaxation on level L (4.1, 4.2). Returns the number of points moved.
int relax_sweep(Level& L, std::vector<Vec3>& x, RelaxOrder order, double perturbation_deg,
                std::mt19937_64& rng);

// ---- implementation of the template ----

/// Apex of the parabola through (x1, y1), (x2, y2), (x3, y3) (the thesis's apex-of-parabola).
inline double parabola_apex(double x1, double y1, double x2, double y2, double x3, double y3) {
  const double d21 = (y2 - y1) / (x2 - x1), d31 = (y3 - y1) / (x3 - x1);
  const double a = (d31 - d21) / (x3 - x2);
  if (!(a > 0)) return x2;  // not convex: the thesis's "kluge", keep the middle sample
  return 0.5 * (x1 + x2) - d21 / (2 * a);
}

template <typename Phi>
double parabola_search(Phi&& phi, double k, double k_min, double k_max, double* val) {
  double fk = phi(k);
  double f3k = phi(3 * k);
  for (int guard = 0; guard < 200; ++guard) {
    if (!(fk < 0)) {  // too far out: the sample at k is no lower than at 0
      if (k / 3 < k_min) break;
      k /= 3;
      f3k = fk;
      fk = phi(k);
    } else if (f3k < 0) {  // still in the bowl at 3k
      if (3 * k > k_max) {
        *val = std::min(fk, f3k);
        return fk < f3k ? k : 3 * k;
      }
      k *= 3;
      fk = f3k;
      f3k = phi(3 * k);
    } else {  // bracketed: phi(k) < 0 <= phi(3k), the parabola is convex with its apex in (0, 3k)
      double t = parabola_apex(0, 0, k, fk, 3 * k, f3k);
      if (!(t > 0) || !(t < 3 * k)) t = k;
      if (t == k) {
        *val = fk;
        return k;
      }
      const double ft = phi(t);
      if (ft < fk) {
        *val = ft;
        return t;
      }
      *val = fk;
      return k;
    }
  }
  *val = 0;
  return 0;
}

}  // namespace cloth::drape
