#pragma once
// ClothModel: everything about a cloth that does not change as it moves (the "settings" half of
// the Jolt SoftBodySharedSettings / MotionProperties split). ClothState holds the moving half.
#include <cstdint>
#include <string>
#include <vector>

#include "elements/breen_energy.hpp"
#include "elements/bw_conditions.hpp"
#include "elements/edge_area_energy.hpp"
#include "elements/feynman_energy.hpp"
#include "elements/material.hpp"
#include "elements/shape_operator_bend.hpp"
#include "mesh/mesh.hpp"
#include "model/model_type.hpp"
#include "elements/springs.hpp"

namespace cloth {

/// A mesh edge with its rest length: what max_edge_strain measures, whatever the model.
struct Edge {
  int i = 0, j = 0;
  double rest = 0;  ///< m
};

/// Elongation of edge e at positions x: |x_i - x_j| / rest - 1 (dimensionless; < 0 compressed).
inline double edge_elongation(const Edge& e, const std::vector<Vec3>& x) {
  return (x[size_t(e.i)] - x[size_t(e.j)]).norm() / e.rest - 1.0;
}

struct ClothModel {
  RestMesh mesh;
  ModelType type = ModelType::Springs;
  SpringMaterial material;
  std::vector<double> mass;      ///< lumped vertex masses, kg (a third of each adjacent triangle)
  std::vector<Edge> edges;       ///< unique triangle edges
  std::vector<Spring> springs;   ///< ModelType::Springs elements
  std::vector<StretchShearTriangle> bw_triangles;  ///< ModelType::BaraffWitkin stretch + shear
  /// Bending of ModelType::BaraffWitkin, EdgeArea and Springs (unless its material keeps the
  /// classic bend springs): one shape-operator element per triangle.
  std::vector<ShapeOperatorTriangle> bend_triangles;
  /// The same interior edges as B&W hinges, empty when bend_triangles is: XPBD's bend constraints
  /// (its conditions are scalar per hinge; the shape-operator energy couples three) and the hinges
  /// that bend_triangles share (ShapeOperatorTriangle::shared, add_shape_operator_bend_forces).
  std::vector<BendEdge> bw_bends;
  /// shape_operator_bend_rate of bend_triangles at the rest shape, 1 / (kg m^2): the stiffest bend
  /// mode's omega^2 is at most B times this (the explicit steps' bend interval, bend_interval).
  double bend_rate = 0;
  std::vector<EdgeAreaTriangle> edge_area;  ///< ModelType::EdgeArea membrane, one per triangle
  FeynmanElements feynman;     ///< ModelType::Feynman springs and angular bends
  double feynman_spring_k = 0; ///< k_s giving the material's thread modulus (set_material), N/m
  BreenElements breen;       ///< ModelType::Breen links, thread bends, trellis corners
  BreenCurves breen_curves;  ///< ModelType::Breen fabric, from the material (breen_curves_for)

  int vertex_count() const { return mesh.vertex_count(); }
  double total_mass() const;
};

/// Builds masses (area x density, lumped), edges and the element arrays of `type`; validates the
/// mesh and material.
ClothModel build_model(RestMesh mesh, const SpringMaterial& material,
                       ModelType type = ModelType::Springs);

/// Re-applies a changed material (live slider edits): masses and spring constants. A changed
/// bend_element rebuilds the springs model's element arrays (a new coupling pattern).
void set_material(ClothModel& model, const SpringMaterial& material);

/// Throws InputError naming the parameter if any value is NaN, negative or absurd.
void validate_material(const SpringMaterial& material);

/// The Breen fabric of a material: stretch is the energy well's scale C (N/m), bending the
/// linear bending stiffness b1 (N*m, times bend_k_u for warp, bend_k_v for weft threads), shear the
/// linear trellis stiffness g1 (N/m per rad). The sliders of every model thus keep their units.
BreenCurves breen_curves_for(const SpringMaterial& material);

}  // namespace cloth
