// Hooke springs of Yu's report (sections 3-4).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <utility>

#include "elements/springs.hpp"

namespace cloth {

namespace {

Spring make_spring(const RestMesh& mesh, int i, int j, SpringType type) {
  Spring s;
  s.i = i;
  s.j = j;
  s.rest = (mesh.positions[i] - mesh.positions[j]).norm();
  s.type = type;
  return s;
}

// Yu's report, section 3: structural springs along grid lines (r), shear springs on both cell
// diagonals (r sqrt 2), bend springs spanning two cells (2r). Membrane weights: on cells a x b
// (a along the grid's first axis), a spring of constant K along unit n = (c, s) and rest length l
// standing for rest area A stores K l^2 / (2 A) (n.eps.n)^2 per unit area under a small uniform
// strain eps. Structural springs along the first axis (l = a, A = a b, half that on the grid's
// boundary rows) with K = (C - G a^2/b^2) b/a, those along the second likewise with a, b swapped,
// and both diagonals of each cell (l = d, A = a b, c = a/d, s = b/d) with K = G d^2 / (2 a b) give
// C11 = C22 = C and C12 = C66 = G on every cell shape (the diagonals' share of C11, G c^2/s^2, is
// taken off the structural springs).
std::vector<Spring> grid_springs(const RestMesh& mesh) {
  const int nx = mesh.grid_nx, ny = mesh.grid_ny;
  const double a = (mesh.positions[size_t(mesh.grid_index(1, 0))] - mesh.positions[size_t(mesh.grid_index(0, 0))]).norm();
  const double b = (mesh.positions[size_t(mesh.grid_index(0, 1))] - mesh.positions[size_t(mesh.grid_index(0, 0))]).norm();
  const auto structural = [&](int i, int k, double along, double across, bool on_boundary) {
    Spring s = make_spring(mesh, i, k, SpringType::Structural);
    const double share = on_boundary ? 0.5 : 1.0;
    s.weight_c = share * across / along;
    s.weight_g = -share * along / across;
    return s;
  };
  const auto shear = [&](int i, int k) {
    Spring s = make_spring(mesh, i, k, SpringType::Shear);
    s.weight_c = 0;
    s.weight_g = (a * a + b * b) / (2 * a * b);
    return s;
  };
  std::vector<Spring> springs;
  // Reserved exactly (structural, shear, bend): a cloth's springs are a large share of its memory.
  springs.reserve(size_t((nx - 1) * ny + nx * (ny - 1) + 2 * (nx - 1) * (ny - 1) +
                         std::max(nx - 2, 0) * ny + nx * std::max(ny - 2, 0)));
  for (int j = 0; j < ny; ++j) {
    for (int i = 0; i < nx; ++i) {
      const int v = mesh.grid_index(i, j);
      if (i + 1 < nx) springs.push_back(structural(v, mesh.grid_index(i + 1, j), a, b, j == 0 || j == ny - 1));
      if (j + 1 < ny) springs.push_back(structural(v, mesh.grid_index(i, j + 1), b, a, i == 0 || i == nx - 1));
      if (i + 1 < nx && j + 1 < ny) {
        springs.push_back(shear(v, mesh.grid_index(i + 1, j + 1)));
        springs.push_back(shear(mesh.grid_index(i + 1, j), mesh.grid_index(i, j + 1)));
      }
      if (i + 2 < nx) springs.push_back(make_spring(mesh, v, mesh.grid_index(i + 2, j), SpringType::Bend));
      if (j + 2 < ny) springs.push_back(make_spring(mesh, v, mesh.grid_index(i, j + 2), SpringType::Bend));
    }
  }
  return springs;
}

// General triangle mesh: edges are structural; across each interior edge (shared by exactly two
// triangles) a bend spring joins the two opposite vertices.
std::vector<Spring> mesh_springs(const RestMesh& mesh) {
  std::map<std::pair<int, int>, std::vector<int>> opposite;  // edge -> vertices opposite it
  for (const auto& tri : mesh.triangles) {
    for (int k = 0; k < 3; ++k) {
      const int a = tri[k], b = tri[(k + 1) % 3], c = tri[(k + 2) % 3];
      opposite[{std::min(a, b), std::max(a, b)}].push_back(c);
    }
  }
  std::vector<Spring> springs;
  for (const auto& [edge, opp] : opposite) {
    const Spring structural = make_spring(mesh, edge.first, edge.second, SpringType::Structural);
    springs.push_back(structural);
    if (opp.size() != 2 || opp[0] == opp[1]) continue;
    // A mesh folded flat puts the opposite vertices at (nearly) one rest position: such a bend
    // spring has no rest direction and k = B / (rest / 2)^2 overflows, so it is left out.
    const Spring bend = make_spring(mesh, opp[0], opp[1], SpringType::Bend);
    if (bend.rest > 1e-6 * structural.rest) springs.push_back(bend);
  }
  return springs;
}

}  // namespace

std::vector<Spring> build_springs(const RestMesh& mesh) {
  return mesh.is_grid() ? grid_springs(mesh) : mesh_springs(mesh);
}

void apply_spring_material(std::vector<Spring>& springs, const SpringMaterial& material) {
  const double young = material.stretch, shear = material.shear;
  const bool lattice = std::any_of(springs.begin(), springs.end(), [](const Spring& s) { return s.type == SpringType::Shear; });
  const double c = lattice ? 0.5 * (young + std::sqrt(young * young + 4 * shear * shear)) : young;
  for (Spring& s : springs) {
    switch (s.type) {
      case SpringType::Structural: s.k = std::max(0.0, s.weight_c * c + s.weight_g * shear); break;
      case SpringType::Shear: s.k = s.weight_g * shear; break;
      case SpringType::Bend: {
        // Bend spring spans two cells: half its rest length is the lattice spacing h.
        const double h = 0.5 * s.rest;
        s.k = material.bending / (h * h);
        break;
      }
    }
    s.kd = material.damping;
  }
}

SpringState evaluate_spring(const Spring& s, const Vec3& xi, const Vec3& xj, const Vec3& vi,
                            const Vec3& vj, bool clamp_compression) {
  SpringState state;
  const Vec3 d = xi - xj;
  const double len = d.norm();
  if (len < 1e-12) {
    state.iso_x = -s.k;
    state.iso_v = -s.kd / 3.0;
    return state;
  }
  const double inv_len = 1.0 / len;
  state.dir = inv_len * d;
  const double extension = len - s.rest;                 // e = |P1P2| - r
  const double closing_speed = (vi - vj).dot(state.dir);  // rate of change of the length
  state.force_on_i = -(s.k * extension + s.kd * closing_speed) * state.dir;
  double transverse = 1.0 - s.rest * inv_len;
  if (clamp_compression) transverse = std::max(transverse, 0.0);
  state.axial_x = -s.k * (1.0 - transverse);
  state.iso_x = -s.k * transverse;
  state.axial_v = -s.kd;
  return state;
}

Vec3 spring_force_on_i(const Spring& s, const Vec3& xi, const Vec3& xj, const Vec3& vi,
                       const Vec3& vj) {
  return evaluate_spring(s, xi, xj, vi, vj, false).force_on_i;
}

SpringJacobian spring_jacobian(const Spring& s, const Vec3& xi, const Vec3& xj,
                               bool clamp_compression) {
  const SpringState state = evaluate_spring(s, xi, xj, Vec3::Zero(), Vec3::Zero(), clamp_compression);
  return {state.dfdx(), state.dfdv()};
}

double spring_energy(const Spring& s, const Vec3& xi, const Vec3& xj) {
  const double e = (xi - xj).norm() - s.rest;
  return 0.5 * s.k * e * e;
}

SpringGroups::SpringGroups(const std::vector<Spring>& springs, int vertex_count,
                           const std::vector<int>* subset) {
  std::vector<std::vector<int>> groups;
  std::vector<std::vector<char>> vertex_in;  // vertex_in[g][v]: v has a spring in group g
  const size_t n = static_cast<size_t>(vertex_count);
  const size_t count = subset ? subset->size() : springs.size();
  for (size_t m = 0; m < count; ++m) {
    const size_t k = subset ? size_t((*subset)[m]) : m;
    const Spring& s = springs[k];
    size_t g = 0;
    while (g < groups.size() && (vertex_in[g][size_t(s.i)] || vertex_in[g][size_t(s.j)])) ++g;
    if (g == groups.size()) {
      groups.emplace_back();
      vertex_in.emplace_back(n, 0);
    }
    groups[g].push_back(static_cast<int>(k));
    vertex_in[g][size_t(s.i)] = vertex_in[g][size_t(s.j)] = 1;
  }
  group_start.assign(1, 0);
  for (const std::vector<int>& g : groups) {
    order.insert(order.end(), g.begin(), g.end());
    group_start.push_back(static_cast<int>(order.size()));
  }
}

SpringTiles::SpringTiles(const std::vector<Spring>& springs, int vertex_count, int min_tile_vertices) {
  int reach = 0;  // the largest |i - j|
  for (const Spring& s : springs) reach = std::max(reach, std::abs(s.i - s.j));
  const int tile_vertices = std::max({reach, min_tile_vertices, 1});
  const int tiles = std::max(1, (vertex_count + tile_vertices - 1) / tile_vertices);
  std::vector<std::vector<int>> tile_springs(static_cast<size_t>(tiles));
  for (size_t k = 0; k < springs.size(); ++k) {
    tile_springs[size_t(std::min(springs[k].i, springs[k].j) / tile_vertices)].push_back(static_cast<int>(k));
  }
  for (int phase = 0; phase < 2; ++phase) {
    if (phase == 1) odd_tiles_start = tile_count();
    for (int t = phase; t < tiles; t += 2) {
      const SpringGroups groups(springs, vertex_count, &tile_springs[size_t(t)]);
      for (int g = 0; g < groups.group_count(); ++g) {
        group_start.push_back(static_cast<int>(order.size()) + groups.group_start[size_t(g) + 1]);
      }
      order.insert(order.end(), groups.order.begin(), groups.order.end());
      tile_start.push_back(static_cast<int>(order.size()));
      tile_group_start.push_back(static_cast<int>(group_start.size()) - 1);
    }
  }
}

}  // namespace cloth
