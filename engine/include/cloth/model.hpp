#pragma once
// ClothModel: everything about a cloth that does not change as it moves (the "settings" half of
// the Jolt SoftBodySharedSettings / MotionProperties split). ClothState holds the moving half.
#include <cstdint>
#include <string>
#include <vector>

#include "cloth/bw_conditions.hpp"
#include "cloth/material.hpp"
#include "cloth/mesh.hpp"
#include "cloth/springs.hpp"

namespace cloth {

/// The material models a cloth can use; each has its own element arrays.
enum class ModelType {
  Springs,       ///< Hooke springs of seed 002 (structural, shear, bend)
  BaraffWitkin,  ///< stretch/shear per triangle and bend per edge, seed 001 section 4
};

/// "springs" / "baraff-witkin"; throws InputError for any other name.
ModelType model_type_from_name(const std::string& name);
const char* model_type_name(ModelType type);

/// A mesh edge with its rest length: what max_edge_strain measures, whatever the model.
struct Edge {
  int i = 0, j = 0;
  double rest = 0;  ///< m
};

struct ClothModel {
  RestMesh mesh;
  ModelType type = ModelType::Springs;
  SpringMaterial material;
  std::vector<double> mass;      ///< lumped vertex masses, kg (a third of each adjacent triangle)
  std::vector<Edge> edges;       ///< unique triangle edges
  std::vector<Spring> springs;   ///< ModelType::Springs elements
  std::vector<StretchShearTriangle> bw_triangles;  ///< ModelType::BaraffWitkin stretch + shear
  std::vector<BendEdge> bw_bends;                  ///< ModelType::BaraffWitkin bend

  int vertex_count() const { return mesh.vertex_count(); }
  double total_mass() const;
};

/// Builds masses (area x density, lumped), edges and the element arrays of `type`; validates the
/// mesh and material.
ClothModel build_model(RestMesh mesh, const SpringMaterial& material,
                       ModelType type = ModelType::Springs);

/// Re-applies a changed material (live slider edits): masses and spring constants.
void set_material(ClothModel& model, const SpringMaterial& material);

/// Throws InputError naming the parameter if any value is NaN, negative or absurd.
void validate_material(const SpringMaterial& material);

}  // namespace cloth
