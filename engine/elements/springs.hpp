#pragma once
// Hooke springs of the Verlet report (Yu, section 4): structural, shear and bend springs,
// with damping along the spring axis. A stateless kernel over a flat element array.
#include <vector>

#include "elements/material.hpp"
#include "mesh/mesh.hpp"
#include "core/parallel.hpp"

namespace cloth {

enum class SpringType { Structural, Shear, Bend };
inline constexpr int kSpringTypeCount = 3;

struct Spring {
  int i = 0, j = 0;   ///< vertex indices
  double rest = 0;    ///< rest length, m
  double k = 0;       ///< stiffness, N/m
  double kd = 0;      ///< damping along the axis, N*s/m
  SpringType type = SpringType::Structural;
  /// Membrane sizing from the rest lattice (build_springs): apply_spring_material sets structural
  /// and shear springs to k = weight_c C + weight_g G, G the material's shear modulus and C the
  /// lattice's axial constant (docs/models.md, "Calibration" of the mass-spring model).
  double weight_c = 1, weight_g = 0;
};

/// Spring topology. On a grid (Yu's report, section 3): structural springs between 4-neighbours,
/// shear springs on both diagonals of each cell, bend springs between vertices two apart along
/// each axis; counts are 2hw-h-w, 2(w-1)(h-1) and 2(hw-h-w) for a w x h grid. On a general
/// triangle mesh: every edge is structural and each interior edge gets a bend spring between the
/// two vertices opposite it; there are no separate shear springs. Stiffness is left at zero:
/// call apply_spring_material. A grid's structural and shear springs get the weights that make
/// the lattice's membrane moduli the material's (each spring sized by the rest area it stands
/// for: boundary springs along the edge carry half a cell); an OBJ mesh's edges get k = stretch.
std::vector<Spring> build_springs(const RestMesh& mesh);

/// Sets k and kd of every spring from the material. On a grid (with shear springs) the lattice
/// has C11 = C22 = C, C12 = C66 = G per unit area, so its Young's modulus along either axis is
/// C - G^2 / C: C = (Y + sqrt(Y^2 + 4 G^2)) / 2 makes it the material's stretch Y, and its Poisson
/// ratio is G / C. A structural spring whose weights would make k negative (G large against Y on
/// elongated cells) gets k = 0, and the sheet is then stiffer than Y along that axis.
void apply_spring_material(std::vector<Spring>& springs, const SpringMaterial& material);

/// One spring at one configuration, in the terms its force and Jacobians are made of. With l the
/// length, d the unit axis (from j to i) and e = l - rest the extension (Yu's F = -k e):
///   f_i = -(k e + kd ((v_i - v_j) . d)) d           Hooke plus axial damping (Yu, section 4),
///   ∂f_i/∂x_i = axial_x d d^T + iso_x I             = -k [d d^T + (1 - rest/l)(I - d d^T)],
///   ∂f_i/∂v_i = axial_v d d^T + iso_v I             = -kd d d^T.
/// The force on j is -f_i. Both Jacobians are the (i, i) block; by symmetry of the stencil the
/// (j, j) block is the same and the (i, j), (j, i) blocks are their negatives. The damping force's
/// dependence on x is dropped, as Baraff-Witkin advise for damping terms (1998, section 4.5).
struct SpringState {
  Vec3 dir = Vec3::Zero();         ///< d; zero for coincident ends
  Vec3 force_on_i = Vec3::Zero();  ///< f_i, N
  double axial_x = 0, iso_x = 0;   ///< N/m
  double axial_v = 0, iso_v = 0;   ///< N*s/m

  Eigen::Matrix3d dfdx() const {
    return axial_x * dir * dir.transpose() + iso_x * Eigen::Matrix3d::Identity();
  }
  Eigen::Matrix3d dfdv() const {
    return axial_v * dir * dir.transpose() + iso_v * Eigen::Matrix3d::Identity();
  }
};

/// The spring's state. With `clamp_compression` the transverse term (1 - rest/l), negative when
/// the spring is compressed, is clamped at 0: ∂f/∂x is then negative semidefinite, which keeps
/// the implicit system positive definite (the usual fix, cf. Choi & Ko 2002). Coincident ends
/// have no direction: no force, and the isotropic limits ∂f/∂x = -k I, ∂f/∂v = -kd/3 I, so the
/// implicit system stays well posed.
SpringState evaluate_spring(const Spring& s, const Vec3& xi, const Vec3& xj, const Vec3& vi,
                            const Vec3& vj, bool clamp_compression);

/// evaluate_spring's force on vertex i (the force on j is its negative), N.
Vec3 spring_force_on_i(const Spring& s, const Vec3& xi, const Vec3& xj, const Vec3& vi,
                       const Vec3& vj);

/// Elastic energy k/2 (|x_i - x_j| - rest)^2, J.
double spring_energy(const Spring& s, const Vec3& xi, const Vec3& xj);

/// evaluate_spring's Jacobians as matrices.
struct SpringJacobian {
  Eigen::Matrix3d dfdx;  ///< ∂f_i/∂x_i of the elastic force, N/m (symmetric)
  Eigen::Matrix3d dfdv;  ///< ∂f_i/∂v_i of the damping force, N*s/m (symmetric, negative semidefinite)
};
SpringJacobian spring_jacobian(const Spring& s, const Vec3& xi, const Vec3& xj, bool clamp_compression);

/// The springs in vertex-disjoint groups (an edge colouring of the spring graph): no two springs
/// of one group share a vertex, so a group's springs can be processed in any order or on several
/// threads with the same result, and a Gauss-Seidel sweep over a group has no chain of
/// dependent updates. Greedy in index order: each spring takes the first group neither of its
/// vertices is in yet (a grid's 12 springs per vertex need about 13 groups).
struct SpringGroups {
  std::vector<int> order;        ///< spring indices, group after group
  std::vector<int> group_start;  ///< group g is order[group_start[g] .. group_start[g + 1])

  SpringGroups() = default;
  /// Groups of the springs `subset` (indices into `springs`), or of all of them when it is null.
  SpringGroups(const std::vector<Spring>& springs, int vertex_count,
               const std::vector<int>* subset = nullptr);
  int group_count() const { return static_cast<int>(group_start.size()) - 1; }
};

/// The springs in an order for Gauss-Seidel sweeps (XPBD) and for adding their Jacobians to A
/// (the implicit step) that is cache-friendly and runs on several threads with the same result.
/// Tiles: the springs by their lower vertex index in ranges of T = max(min_tile_vertices, the
/// largest |i - j|) vertices; tile t's springs touch vertices in [t T, (t + 1) T + |i - j|)
/// within [t T, (t + 2) T), so tiles two apart share no vertex. Even tiles come first, then odd
/// ones: the tiles of one phase may run on any threads. Within a tile the springs are in
/// vertex-disjoint groups (SpringGroups over the tile only, whose vertices stay in cache), so
/// consecutive updates do not wait on each other.
struct SpringTiles {
  std::vector<int> order;           ///< spring indices, tile after tile
  std::vector<int> tile_start{0};   ///< tile t is order[tile_start[t] .. tile_start[t + 1])
  int odd_tiles_start = 0;          ///< the first tile of the second phase
  /// The tiles' vertex-disjoint groups: group g is order[group_start[g] .. group_start[g + 1]),
  /// and tile t holds groups [tile_group_start[t], tile_group_start[t + 1]).
  std::vector<int> group_start{0};
  std::vector<int> tile_group_start{0};

  SpringTiles() = default;
  SpringTiles(const std::vector<Spring>& springs, int vertex_count, int min_tile_vertices);
  int tile_count() const { return static_cast<int>(tile_start.size()) - 1; }

  /// visit_tile(begin, end) for each tile, positions [begin, end) of `order`: the even tiles,
  /// then the odd ones, the tiles of a phase on up to `threads` threads (they share no vertex),
  /// so every thread count does the same arithmetic (parallel.hpp).
  template <typename VisitTile>
  void for_each_tile(int threads, VisitTile&& visit_tile) const {
    for_each_tile_number(threads,
                         [&](size_t tile) { visit_tile(tile_start[tile], tile_start[tile + 1]); });
  }

  /// visit_group(g) for each vertex-disjoint group g, a tile's groups in order, the tiles in
  /// for_each_tile's order and on its threads.
  template <typename VisitGroup>
  void for_each_group(int threads, VisitGroup&& visit_group) const {
    for_each_tile_number(threads, [&](size_t tile) {
      for (int g = tile_group_start[tile]; g < tile_group_start[tile + 1]; ++g) visit_group(g);
    });
  }

 private:
  template <typename VisitTileNumber>
  void for_each_tile_number(int threads, VisitTileNumber&& visit) const {
    for (int phase = 0; phase < 2; ++phase) {
      const int first = phase == 0 ? 0 : odd_tiles_start;
      const int last = phase == 0 ? odd_tiles_start : tile_count();
      const bool worth_it = tile_start[size_t(last)] - tile_start[size_t(first)] >= kMinParallelLength;
      parallel_tasks(last - first, threads, worth_it, [&](int t) { visit(size_t(first + t)); });
    }
  }
};

}  // namespace cloth
