#pragma once
// ClothModel: everything about a cloth that does not change as it moves (the "settings" half of
// the Jolt SoftBodySharedSettings / MotionProperties split). ClothState holds the moving half.
#include <cstdint>
#include <vector>

#include "cloth/material.hpp"
#include "cloth/mesh.hpp"
#include "cloth/springs.hpp"

namespace cloth {

struct ClothModel {
  RestMesh mesh;
  SpringMaterial material;
  std::vector<double> mass;      ///< lumped vertex masses, kg (a third of each adjacent triangle)
  std::vector<Spring> springs;   ///< element array of the mass-spring model

  int vertex_count() const { return mesh.vertex_count(); }
  double total_mass() const;
};

/// Builds masses (area x density, lumped) and springs; validates the mesh and material.
ClothModel build_model(RestMesh mesh, const SpringMaterial& material);

/// Re-applies a changed material (live slider edits): masses and spring constants.
void set_material(ClothModel& model, const SpringMaterial& material);

/// Throws InputError naming the parameter if any value is NaN, negative or absurd.
void validate_material(const SpringMaterial& material);

}  // namespace cloth
