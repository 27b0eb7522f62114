#include "fixed_system.hpp"

#include <map>
#include <memory>

#include "collision/collider.hpp"
#include "forces/force_jacobians.hpp"
#include "forces/jacobian_target.hpp"
#include "linalg/pcg_workspace.hpp"
#include "hanging_cloth.hpp"

namespace bench {

const FixedSystem& fixed_system(int n) {
  static std::map<int, std::unique_ptr<FixedSystem>> cache;
  std::unique_ptr<FixedSystem>& s = cache[n];
  if (s) return *s;
  s = std::make_unique<FixedSystem>();
  Variant variant;
  variant.integrator = cloth::IntegratorType::Implicit;
  variant.two_level = true;
  const cloth::Simulation sim = hanging_cloth(n, variant);
  const cloth::ClothModel& model = sim.model();
  cloth::ClothState state = sim.state();
  const cloth::Vec3 drop(0, -0.4, 0);  // m
  for (cloth::Vec3& p : state.x) {
    p += drop;
    for (const cloth::Collider& collider : sim.colliders()) {
      cloth::Vec3 normal;
      const double distance = cloth::signed_distance(collider, p, &normal);
      if (distance < collider.thickness) p += (collider.thickness - distance) * normal;
    }
  }
  const int vertices = state.vertex_count();
  const double h = sim.solver().dt;
  s->A = cloth::BlockSparseMatrix(vertices, cloth::coupled_pairs(model),
                                  cloth::BlockSparseMatrix::Storage::symmetric);
  cloth::JacobianTarget jac(s->A, -h * h, -h);
  std::vector<cloth::Vec3> f;
  cloth::compute_force_jacobians(model, state, sim.external_forces(), 0.0, /*definite=*/true,
                                 cloth::ElementSlots(model, s->A), f, jac);
  s->A.add_diagonal(model.mass);
  s->b.resize(size_t(vertices));
  for (int i = 0; i < vertices; ++i) s->b[size_t(i)] = h * f[size_t(i)];
  s->x = state.x;
  s->c.reset(vertices);
  for (int i = 0; i < vertices; ++i) {
    if (sim.pins().is_pinned(i)) {
      s->c.fix(i, cloth::Vec3::Zero());
      continue;
    }
    for (const cloth::Collider& collider : sim.colliders()) {
      cloth::Vec3 normal;
      if (cloth::signed_distance(collider, state.x[size_t(i)], &normal) <= collider.thickness + 1e-6) {
        s->c.constrain_direction(i, normal, 0.0);
      }
    }
  }
  s->settings.tolerance = sim.solver().tolerance;
  s->settings.max_iterations = sim.solver().max_iterations;
  s->settings.preconditioner = cloth::Preconditioner::two_level;
  std::vector<char> weak;
  std::vector<double> scratch;
  cloth::weak_bend_springs(model, h, weak, scratch);
  s->left_out = cloth::weak_bend_slots(model, s->A, weak);
  std::vector<cloth::Vec3> dv;
  cloth::PcgWorkspace work;
  work.ic.leave_out(s->A.pattern(), s->left_out);
  s->cg = cloth::modified_pcg(s->A, s->b, s->c, s->settings, dv, work, &s->x).iterations;
  return *s;
}

}  // namespace bench
