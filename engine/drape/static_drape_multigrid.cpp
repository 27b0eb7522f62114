// Multigrid full approximation scheme (Feynman 1986, section 6) with fixed points and solids
// carried to every level (section 7).
#include <cmath>
#include <string>

#include "drape/static_drape_multigrid.hpp"

#include "core/error.hpp"

namespace cloth::drape {

namespace {

// Every second point of a generated grid in each direction (6: "we coarsen the grid by retaining
// only every second point in each direction"), with the same rest (u, v) and triangulation
// pattern as make_grid, so the coarse cloth is the same material at twice the spacing.
RestMesh coarsen_mesh(const RestMesh& f) {
  RestMesh c;
  c.grid_nx = (f.grid_nx + 1) / 2;
  c.grid_ny = (f.grid_ny + 1) / 2;
  for (int j = 0; j < c.grid_ny; ++j) {
    for (int i = 0; i < c.grid_nx; ++i) {
      c.positions.push_back(f.positions[f.grid_index(2 * i, 2 * j)]);
      c.uv.push_back(f.uv[f.grid_index(2 * i, 2 * j)]);
    }
  }
  for (int j = 0; j + 1 < c.grid_ny; ++j) {
    for (int i = 0; i + 1 < c.grid_nx; ++i) {
      const int a = c.grid_index(i, j), b = c.grid_index(i + 1, j);
      const int cc = c.grid_index(i, j + 1), d = c.grid_index(i + 1, j + 1);
      if ((i + j) % 2 == 0) {
        c.triangles.push_back({a, cc, b});
        c.triangles.push_back({b, cc, d});
      } else {
        c.triangles.push_back({a, cc, d});
        c.triangles.push_back({a, d, b});
      }
    }
  }
  return c;
}

bool can_coarsen(int nx, int ny, int coarsest) {
  return nx % 2 == 1 && ny % 2 == 1 && std::min(nx, ny) > coarsest && (nx + 1) / 2 >= 2 &&
         (ny + 1) / 2 >= 2;
}

// 1-D interpolation of a line of m coarse values onto 2m - 1 fine ones (6.2). Cubic: the thesis's
// cubic-spline-points, the cubic through the four nearest coarse points (weights -1/16, 9/16,
// 9/16, -1/16) and its one-sided forms near the ends (3/8, 3/4, -1/8); bilinear: the average.
void interpolate_line(const std::vector<Vec3>& c, Interpolation kind, std::vector<Vec3>& f) {
  const int m = static_cast<int>(c.size());
  f.assign(2 * m - 1, Vec3::Zero());
  for (int I = 0; I < m; ++I) f[2 * I] = c[I];
  for (int I = 0; I + 1 < m; ++I) {
    const bool left = I - 1 >= 0, right = I + 2 < m;
    Vec3 v;
    if (kind == Interpolation::Bilinear || (!left && !right)) {
      v = 0.5 * (c[I] + c[I + 1]);
    } else if (left && right) {
      v = (-c[I - 1] + 9 * c[I] + 9 * c[I + 1] - c[I + 2]) / 16;
    } else if (!left) {
      v = (3 * c[I] + 6 * c[I + 1] - c[I + 2]) / 8;
    } else {
      v = (-c[I - 1] + 6 * c[I] + 3 * c[I + 1]) / 8;
    }
    f[2 * I + 1] = v;
  }
}

}  // namespace

Hierarchy build_hierarchy(const DrapeProblem& p, int coarsest) {
  Hierarchy h;
  h.levels.push_back(make_level(p.model, p.pinned, p.colliders, p.gravity));
  while (true) {
    const Level& f = h.levels.back();
    const int nx = f.model.mesh.grid_nx, ny = f.model.mesh.grid_ny;
    if (!can_coarsen(nx, ny, coarsest)) break;
    // The coarse level is the same cloth, not the same lattice: a buckling spring's linear branch
    // takes over at the compressive strain b / l_i^2, which depends on the spacing by design (5.5,
    // fig. 17: at a large h the material has no compressive strength). With the fine b, a coarse
    // cloth buckles where the fine one is still elastic, and its correction of a compressed region
    // is that of a slack cloth (the curtain at 33 x 33: 655 V-cycles to 1e-6 N, 28 with the
    // scaling; docs/static-drape.md). Scaling b by (2h / h)^2 = 4 per level keeps the threshold
    // strain and the energy per area of both branches those of the finest grid (k_s and c_1 already
    // give h-independent energies per area: feynman_energy.hpp).
    SpringMaterial material = f.model.material;
    material.buckling *= 4;
    ClothModel cm = build_model(coarsen_mesh(f.model.mesh), material, p.model.type);
    // 7.1: "a point in the coarse grid is fixed if any of the nine points in the fine grid used in
    // the calculation of the coarsening operator are fixed" (its position is their average).
    const int cx = cm.mesh.grid_nx, cy = cm.mesh.grid_ny;
    std::vector<std::uint8_t> fixed(static_cast<size_t>(cx) * cy, 0);
    for (int J = 0; J < cy; ++J) {
      for (int I = 0; I < cx; ++I) {
        for (int dj = -1; dj <= 1; ++dj) {
          for (int di = -1; di <= 1; ++di) {
            const int i = 2 * I + di, j = 2 * J + dj;
            if (i < 0 || j < 0 || i >= nx || j >= ny) continue;
            if (f.fixed[f.model.mesh.grid_index(i, j)]) fixed[cm.mesh.grid_index(I, J)] = 1;
          }
        }
      }
    }
    h.levels.push_back(make_level(cm, fixed, p.colliders, p.gravity));
  }
  return h;
}

// 6.2's full weighting, P(u,v) = 1/16 [1 2 1; 2 4 2; 1 2 1] p (printed with 1/8 and stray minus
// signs; the thesis's coarsen computes 1/4, 1/2, 1/4 along u, then along v). As in its code, a
// point without both neighbours along a direction is not averaged along it (borders).
void restrict_positions(const Level& fine, const Level& coarse, const std::vector<Vec3>& x,
                        std::vector<Vec3>& X) {
  const RestMesh& fm = fine.model.mesh;
  const RestMesh& cm = coarse.model.mesh;
  const int nx = fm.grid_nx, ny = fm.grid_ny;
  const auto sideways = [&](int i, int j) {
    const Vec3& p = x[fm.grid_index(i, j)];
    if (i - 1 < 0 || i + 1 >= nx) return p;
    return Vec3(0.25 * x[fm.grid_index(i - 1, j)] + 0.5 * p + 0.25 * x[fm.grid_index(i + 1, j)]);
  };
  X.assign(coarse.n(), Vec3::Zero());
  for (int J = 0; J < cm.grid_ny; ++J) {
    for (int I = 0; I < cm.grid_nx; ++I) {
      const int i = 2 * I, j = 2 * J;
      X[cm.grid_index(I, J)] = (j - 1 < 0 || j + 1 >= ny)
                                   ? sideways(i, j)
                                   : Vec3(0.25 * sideways(i, j - 1) + 0.5 * sideways(i, j) +
                                          0.25 * sideways(i, j + 1));
    }
  }
}

// Forces are sums over the area a vertex stands for, so they restrict by the transpose of the
// bilinear interpolation (weights 1, 1/2, 1/4: four times full weighting in the interior).
void restrict_forces(const Level& fine, const Level& coarse, const std::vector<Vec3>& f,
                     std::vector<Vec3>& F) {
  const RestMesh& fm = fine.model.mesh;
  const RestMesh& cm = coarse.model.mesh;
  F.assign(coarse.n(), Vec3::Zero());
  for (int J = 0; J < cm.grid_ny; ++J) {
    for (int I = 0; I < cm.grid_nx; ++I) {
      Vec3 sum = Vec3::Zero();
      for (int dj = -1; dj <= 1; ++dj) {
        for (int di = -1; di <= 1; ++di) {
          const int i = 2 * I + di, j = 2 * J + dj;
          if (i < 0 || j < 0 || i >= fm.grid_nx || j >= fm.grid_ny) continue;
          sum += (di == 0 ? 1.0 : 0.5) * (dj == 0 ? 1.0 : 0.5) * f[fm.grid_index(i, j)];
        }
      }
      F[cm.grid_index(I, J)] = sum;
    }
  }
}

void interpolate_correction(const Level& coarse, const Level& fine, const std::vector<Vec3>& d,
                            Interpolation kind, std::vector<Vec3>& e) {
  const RestMesh& cm = coarse.model.mesh;
  const RestMesh& fm = fine.model.mesh;
  e.assign(fine.n(), Vec3::Zero());
  std::vector<Vec3> line, out;
  // Along u on the even fine rows, then along v on every fine column (tensor product: the
  // thesis's refine-with-cubic-spline fills the odd-odd points the same way).
  for (int J = 0; J < cm.grid_ny; ++J) {
    line.assign(cm.grid_nx, Vec3::Zero());
    for (int I = 0; I < cm.grid_nx; ++I) line[I] = d[cm.grid_index(I, J)];
    interpolate_line(line, kind, out);
    for (int i = 0; i < fm.grid_nx; ++i) e[fm.grid_index(i, 2 * J)] = out[i];
  }
  for (int i = 0; i < fm.grid_nx; ++i) {
    line.assign(cm.grid_ny, Vec3::Zero());
    for (int J = 0; J < cm.grid_ny; ++J) line[J] = e[fm.grid_index(i, 2 * J)];
    interpolate_line(line, kind, out);
    for (int j = 0; j < fm.grid_ny; ++j) e[fm.grid_index(i, j)] = out[j];
  }
  for (int i = 0; i < fine.n(); ++i) {
    if (fine.fixed[i]) e[i].setZero();  // 7.1: fixed points are not moved by refinement
  }
}

namespace {

struct Cycle {
  Hierarchy& h;
  const MultigridOptions& o;
  const RelaxOptions& r;
  std::mt19937_64& rng;
  int fine_sweeps = 0;
  double work = 0;

  // Work units: every pass over level l costs n_l / n_0 of a fine sweep. A relaxation sweep is one
  // pass; so is each evaluation of a level's forces (the source term) or energy (the line search),
  // an upper bound (measured at 65 x 65: 0.31 and 0.25 of a sweep). Restriction and interpolation
  // (under 0.001 of a sweep) are not counted.
  void passes(int l, int count) {
    work += count * static_cast<double>(h.levels[l].n()) / h.levels[0].n();
  }

  void sweeps(int l, std::vector<Vec3>& x, int count) {
    for (int s = 0; s < count; ++s) {
      relax_sweep(h.levels[l], x, r.order, r.perturbation_deg, rng);
      if (l == 0) ++fine_sweeps;
      passes(l, 1);
    }
  }

  // Coarsen, solve (recursively) on level l + 1, refine: x += I(c - R x) (6.2's refine; the
  // printed "f - I(c - R f)" has the sign flipped: interpolate-correction adds the coarse
  // relaxed-minus-begin difference), then push out of the solids (7.2).
  void coarse_correction(int l, std::vector<Vec3>& x) {
    Level& F = h.levels[l];
    Level& C = h.levels[l + 1];
    std::vector<Vec3> X0;
    restrict_positions(F, C, x, X0);
    C.source.assign(C.n(), Vec3::Zero());
    if (o.source_term) {
      // FAS: s_C = R^T f_F(x) - f_C(R x), so that f_C + s_C at R x is the restricted fine force.
      std::vector<Vec3> f, rf, fc;
      level_forces(F, x, f);
      restrict_forces(F, C, f, rf);
      level_forces(C, X0, fc);
      passes(l, 1);
      passes(l + 1, 1);
      for (int I = 0; I < C.n(); ++I) C.source[I] = C.fixed[I] ? Vec3::Zero() : Vec3(rf[I] - fc[I]);
    }
    std::vector<Vec3> X = X0;
    for (int I = 0; I < C.n(); ++I) {
      if (!C.fixed[I]) X[I] = project_out(*C.colliders, X[I]);
    }
    visit(l + 1, X);
    std::vector<Vec3> d(C.n());
    for (int I = 0; I < C.n(); ++I) d[I] = C.fixed[I] ? Vec3::Zero() : Vec3(X[I] - X0[I]);
    std::vector<Vec3> e;
    interpolate_correction(C, F, d, o.interpolation, e);
    std::vector<Vec3> y(F.n());
    const auto at = [&](double a) {
      for (int i = 0; i < F.n(); ++i) y[i] = F.fixed[i] ? x[i] : move_outside(*F.colliders, x[i], x[i] + a * e[i]);
    };
    double a = 1.0;
    if (o.line_search) {
      const double e0 = material_energy(F, x);
      int evaluations = 1;
      const auto phi = [&](double s) {
        at(s);
        ++evaluations;
        return level_energy_change(F, x, e0, y);
      };
      double val = 0;
      a = parabola_search(phi, 1.0, 1e-3, 9.0, &val);
      passes(l, evaluations);
      if (!(a > 0)) return;  // the correction does not lower the fine energy: drop it
    }
    at(a);
    x = y;
  }

  // 6.1's schedules: V = relax k1, coarsen, recurse (or kc sweeps at the coarsest), refine,
  // relax k2; W repeats coarsen-recurse-refine once more and relaxes k3.
  void visit(int l, std::vector<Vec3>& x) {
    if (l + 1 == static_cast<int>(h.levels.size())) {
      sweeps(l, x, o.kc);
      return;
    }
    sweeps(l, x, o.k1);
    coarse_correction(l, x);
    sweeps(l, x, o.k2);
    if (o.w_cycle) {
      coarse_correction(l, x);
      sweeps(l, x, o.k3);
    }
  }
};

}  // namespace

void multigrid_cycle(Hierarchy& h, std::vector<Vec3>& x, const MultigridOptions& o,
                     const RelaxOptions& r, std::mt19937_64& rng, int* fine_sweeps, double* work) {
  Cycle c{h, o, r, rng};
  c.visit(0, x);
  *fine_sweeps += c.fine_sweeps;
  *work += c.work;
}

}  // namespace cloth::drape
