#include "cloth/model.hpp"

#include <cmath>
#include <string>

#include "cloth/error.hpp"

namespace cloth {

namespace {

void check(double value, const char* name, double lo, double hi, const char* unit) {
  if (!std::isfinite(value) || value < lo || value > hi) {
    throw InputError(std::string("material.") + name + " must be in [" + std::to_string(lo) +
                     ", " + std::to_string(hi) + "] " + unit + ", got " + std::to_string(value));
  }
}

// Lumped masses: each triangle gives a third of its rest area x density to each corner, so the
// total is exactly density x area. The area is the 3D rest area (mesh positions), which is the
// physical area whatever scale the OBJ texture coordinates use.
std::vector<double> lumped_masses(const RestMesh& mesh, double density) {
  std::vector<double> mass(mesh.positions.size(), 0.0);
  for (const auto& tri : mesh.triangles) {
    const Vec3 e1 = mesh.positions[tri[1]] - mesh.positions[tri[0]];
    const Vec3 e2 = mesh.positions[tri[2]] - mesh.positions[tri[0]];
    const double third = density * 0.5 * e1.cross(e2).norm() / 3.0;
    for (int k : tri) mass[k] += third;
  }
  return mass;
}

}  // namespace

void validate_material(const SpringMaterial& m) {
  // Ranges: generous physical bounds; outside them the input is a typo, not a fabric.
  check(m.density, "density", 1e-4, 100.0, "kg/m^2");
  check(m.stretch, "stretch", 0.0, 1e8, "N/m");
  check(m.shear, "shear", 0.0, 1e8, "N/m");
  check(m.bending, "bending", 0.0, 10.0, "N*m");
  check(m.damping, "damping", 0.0, 1e4, "N*s/m");
  check(m.velocity_damping, "velocity_damping", 0.0, 1e3, "1/s");
}

double ClothModel::total_mass() const {
  double sum = 0;
  for (double m : mass) sum += m;
  return sum;
}

ClothModel build_model(RestMesh mesh, const SpringMaterial& material) {
  validate_mesh(mesh, "cloth mesh");
  validate_material(material);
  ClothModel model;
  model.mesh = std::move(mesh);
  model.springs = build_springs(model.mesh);
  set_material(model, material);
  for (size_t i = 0; i < model.mass.size(); ++i) {
    if (model.mass[i] <= 0) {
      throw InputError("cloth mesh: vertex " + std::to_string(i) + " belongs to no triangle");
    }
  }
  return model;
}

void set_material(ClothModel& model, const SpringMaterial& material) {
  validate_material(material);
  model.material = material;
  model.mass = lumped_masses(model.mesh, material.density);
  apply_spring_material(model.springs, material);
}

}  // namespace cloth
