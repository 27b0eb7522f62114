#include "model/model.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "model/density_pattern.hpp"
#include "model/material_parameters.hpp"
#include "core/error.hpp"

namespace cloth {

namespace {

// Lumped masses: each triangle gives a third of its rest area x density to each corner, so the
// total is exactly density x area. The area is the 3D rest area (mesh positions), which is the
// physical area whatever scale the OBJ texture coordinates use. A density pattern is sampled at
// the triangle's centroid in (u, v): a seam is resolved to the triangles, as on the cloth itself.
std::vector<double> lumped_masses(const RestMesh& mesh, const SpringMaterial& material) {
  std::vector<double> mass(mesh.positions.size(), 0.0);
  for (const auto& tri : mesh.triangles) {
    const Vec3 e1 = mesh.positions[tri[1]] - mesh.positions[tri[0]];
    const Vec3 e2 = mesh.positions[tri[2]] - mesh.positions[tri[0]];
    const Vec2 centroid = (mesh.uv[tri[0]] + mesh.uv[tri[1]] + mesh.uv[tri[2]]) / 3.0;
    const double density = material.density * density_factor(material.density_pattern, centroid);
    const double third = density * 0.5 * e1.cross(e2).norm() / 3.0;
    for (int k : tri) mass[k] += third;
  }
  return mass;
}

std::vector<Edge> unique_edges(const RestMesh& mesh) {
  std::set<std::pair<int, int>> seen;
  std::vector<Edge> edges;
  for (const auto& t : mesh.triangles) {
    for (int k = 0; k < 3; ++k) {
      const int a = std::min(t[k], t[(k + 1) % 3]), b = std::max(t[k], t[(k + 1) % 3]);
      if (seen.insert({a, b}).second) edges.push_back({a, b, (mesh.positions[a] - mesh.positions[b]).norm()});
    }
  }
  return edges;
}

}  // namespace

BreenCurves breen_curves_for(const SpringMaterial& material) {
  BreenCurves c;
  c.name = "material";
  c.well_scale = material.stretch;
  c.warp.b1 = material.bending * material.bend_k_u;
  c.weft.b1 = material.bending * material.bend_k_v;
  c.shear.g1 = material.shear;
  return c;
}

void validate_material(const SpringMaterial& m) {
  // Ranges: generous physical bounds; outside them the input is a typo, not a fabric.
  visit_material(RangeCheck("cloth.material"), m);
  visit_density_pattern(RangeCheck("cloth.material.density_pattern"), m.density_pattern);
  check_density_pattern_width(m.density_pattern);
}

double ClothModel::total_mass() const {
  double sum = 0;
  for (double m : mass) sum += m;
  return sum;
}

ClothModel build_model(RestMesh mesh, const SpringMaterial& material, ModelType type) {
  validate_mesh(mesh, "cloth mesh");
  validate_material(material);
  ClothModel model;
  model.mesh = std::move(mesh);
  model.type = type;
  model.edges = unique_edges(model.mesh);
  model.material.bend_element = material.bend_element;  // set_material rebuilds when it changes
  switch (type) {
    case ModelType::Springs:
      model.springs = build_springs(model.mesh);
      if (material.bend_element == BendElement::ShapeOperator) {
        std::erase_if(model.springs, [](const Spring& s) { return s.type == SpringType::Bend; });
      }
      break;
    case ModelType::BaraffWitkin: model.bw_triangles = build_stretch_shear(model.mesh); break;
    case ModelType::EdgeArea: model.edge_area = build_edge_area_elements(model.mesh); break;
    case ModelType::Feynman: model.feynman = build_feynman_elements(model.mesh); break;
    case ModelType::Breen: model.breen = build_breen_elements(model.mesh); break;
  }
  set_material(model, material);
  for (size_t i = 0; i < model.mass.size(); ++i) {
    if (model.mass[i] <= 0) {
      throw InputError("cloth mesh: vertex " + std::to_string(i) + " belongs to no triangle");
    }
  }
  return model;
}

namespace {

bool uses_shape_operator_bend(ModelType type, const SpringMaterial& material) {
  return type == ModelType::BaraffWitkin || type == ModelType::EdgeArea ||
         (type == ModelType::Springs && material.bend_element == BendElement::ShapeOperator);
}

}  // namespace

void set_material(ClothModel& model, const SpringMaterial& material) {
  validate_material(material);
  if (model.type == ModelType::Springs && material.bend_element != model.material.bend_element) {
    model = build_model(std::move(model.mesh), material, model.type);
    return;
  }
  model.material = material;
  model.mass = lumped_masses(model.mesh, material);
  apply_spring_material(model.springs, material);
  // The sec. 4.3 anisotropic weights live in the bend elements: rebuild them (cheap).
  if (uses_shape_operator_bend(model.type, material)) {
    model.bend_triangles = build_shape_operator_bend(model.mesh, material.bend_k_u, material.bend_k_v);
    model.bw_bends = build_bend_edges(model.mesh, material.bend_k_u, material.bend_k_v);
    model.bend_rate = shape_operator_bend_rate(model.bend_triangles, model.mesh.positions, model.mass);
  }
  // Sec. 5.4: the spring constant whose lattice has the material's modulus along the threads.
  model.feynman_spring_k = material.stretch / feynman_moduli(1.0, material.diagonal_ratio).axial_young;
  model.breen_curves = breen_curves_for(material);
}

}  // namespace cloth
