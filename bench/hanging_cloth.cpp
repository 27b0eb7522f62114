#include "hanging_cloth.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "bench_common.hpp"
#include "forces/forces.hpp"
#include "mesh/mesh.hpp"

namespace bench {

namespace {

// Bullet's CreatePatch links each cell's four sides and one diagonal (bullet_peer.cpp); the grid's
// springs add the second diagonal and the bend springs two vertices apart, twice Bullet's count.
// This keeps the springs whose ends share a mesh edge: the same constraints as Bullet's patch
// (its diagonals alternate in direction, the grid's do not), with the same stiffness as before.
void keep_mesh_edge_springs(cloth::ClothModel& model) {
  std::set<std::pair<int, int>> edges;
  for (const cloth::Edge& e : model.edges) edges.insert(std::minmax(e.i, e.j));
  std::erase_if(model.springs,
                [&](const cloth::Spring& s) { return !edges.contains(std::minmax(s.i, s.j)); });
}

}  // namespace

const std::vector<std::pair<std::string, Variant>>& variants() {
  static const std::vector<std::pair<std::string, Variant>> kVariants = {
      {"implicit", {cloth::IntegratorType::Implicit}},
      {"xpbd", {cloth::IntegratorType::Xpbd}},
      {"projective", {cloth::IntegratorType::Projective}},
      {"vbd", {cloth::IntegratorType::Vbd}},
      {"verlet", {cloth::IntegratorType::Verlet}},
      {"symplectic-euler", {cloth::IntegratorType::SymplecticEuler}},
      {"rk4", {cloth::IntegratorType::Rk4}},
      {"explicit-euler", {cloth::IntegratorType::ExplicitEuler}},
      {"implicit-free", {cloth::IntegratorType::Implicit, true}},
      {"xpbd-4x10", {cloth::IntegratorType::Xpbd, false, true}},
      {"implicit-2threads", {cloth::IntegratorType::Implicit, false, false, 2}},
      {"implicit-2level", {cloth::IntegratorType::Implicit, false, false, 1, true}},
      {"implicit-2level-2threads", {cloth::IntegratorType::Implicit, false, false, 2, true}},
      {"xpbd-4x10-2threads", {cloth::IntegratorType::Xpbd, false, true, 2}},
      {"xpbd-4x10-bullet-links", {.integrator = cloth::IntegratorType::Xpbd, .bullet_like = true, .bullet_links = true}},
      {"implicit-stiff", {cloth::IntegratorType::Implicit, false, false, 1, false, 5}},
      {"implicit-stiff-2threads", {cloth::IntegratorType::Implicit, false, false, 2, false, 5}},
      {"implicit-stiff-2level", {cloth::IntegratorType::Implicit, false, false, 1, true, 5}},
      {"implicit-stiff-2level-2threads", {cloth::IntegratorType::Implicit, false, false, 2, true, 5}},
      {"implicit-stiff-2level-tol1e-6", {cloth::IntegratorType::Implicit, false, false, 1, true, 5, 1e-6}},
      {"implicit-stiff-2level-2threads-tol1e-6", {cloth::IntegratorType::Implicit, false, false, 2, true, 5, 1e-6}},
      {"implicit-bw-2level", {.integrator = cloth::IntegratorType::Implicit, .two_level = true, .model = cloth::ModelType::BaraffWitkin}},
      {"implicit-bw-2level-2threads",
       {.integrator = cloth::IntegratorType::Implicit, .threads = 2, .two_level = true, .model = cloth::ModelType::BaraffWitkin}},
  };
  return kVariants;
}

cloth::Simulation hanging_cloth(int n, const Variant& variant) {
  cloth::IntegratorType integrator = variant.integrator;
  cloth::GridSpec spec;
  spec.nx = spec.ny = n;
  spec.center = cloth::Vec3(0, 1, 0);
  cloth::SpringMaterial material;
  material.density = kMass;  // kg/m^2 over 1 m^2
  // The springs model with Yu's classic bend springs: what the committed baselines measure, and
  // the bend of a mass-spring cloth like the Bullet peer's (which has no bending links at all).
  material.bend_element = cloth::BendElement::BendSprings;
  material.stretch *= variant.stiffness;
  material.shear *= variant.stiffness;
  cloth::SolverSettings solver;
  solver.integrator = integrator;
  solver.substeps = 1;
  solver.adaptive = true;
  // Every variant runs on one thread (the targets are for one core) except the "-2threads" ones,
  // the same computation on two (the same bits, parallel.hpp).
  solver.threads = variant.threads;
  if (variant.tolerance > 0) solver.tolerance = variant.tolerance;
  solver.preconditioner = variant.two_level ? cloth::Preconditioner::two_level : cloth::Preconditioner::incomplete_cholesky;
  if (variant.bullet_like) {
    // Bullet's settings in the peer (bullet_peer.cpp): 4 substeps of 1/240 s, 10 Gauss-Seidel
    // passes over the constraints per substep; softer than Bullet's links (compliance 1/k).
    solver.substeps = 4;
    solver.xpbd_iterations = 10;
    solver.adaptive = false;
  } else if (integrator == cloth::IntegratorType::Xpbd) {
    // XPBD is stable at any step but one pass per substep is soft unless k h^2 / m is small
    // (docs/integrators.md): the stretch test cannot see softness, so XPBD gets the substeps that
    // make k h^2 / m = 1/4 for the lightest vertex instead of adaptive steps.
    const double vertex_mass = material.density / ((n - 1) * (n - 1));
    const double h = std::sqrt(0.25 * vertex_mass / material.stretch);
    solver.substeps = static_cast<int>(std::ceil(solver.dt / h));
    solver.adaptive = false;
  } else if (integrator == cloth::IntegratorType::Projective) {
    // Projective dynamics is stable at any step (each iteration lowers the objective), and a
    // changing step would refactor its matrix: one fixed step of 1/60 s, the default iterations.
    solver.adaptive = false;
  } else if (integrator == cloth::IntegratorType::Vbd) {
    // Vertex block descent lowers its objective per vertex step, so it is stable at any step; the
    // stretch test cannot see what truncated iterations leave soft: one fixed step of 1/60 s, the
    // default iterations and rho, as projective.
    solver.adaptive = false;
  }
  if (variant.substeps > 0) solver.substeps = variant.substeps;
  if (variant.iterations > 0) {
    solver.xpbd_iterations = solver.projective_iterations = solver.vbd_iterations = variant.iterations;
  }
  solver.strain_limit = variant.strain_limit;
  std::vector<cloth::Collider> colliders;
  if (!variant.free) {
    colliders.push_back(cloth::Collider{cloth::SphereShape{
        cloth::Vec3(kSphereX, kSphereY, kSphereZ), kSphereRadius}});
  }
  cloth::ClothModel model = cloth::build_model(cloth::make_grid(spec), material, variant.model);
  if (variant.bullet_links) keep_mesh_edge_springs(model);
  return cloth::Simulation(std::move(model), colliders, {0, n - 1}, solver,
                           cloth::Vec3(0, -kGravity, 0));
}

}  // namespace bench
