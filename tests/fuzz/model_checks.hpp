#pragma once
// An accepted input must give a model whose every coefficient is finite: the simulation's
// blow-up guard would hide a NaN stiffness as an "instability" instead of the loader's bug.
#include <cmath>
#include <string>

#include "model/model.hpp"
#include "fuzz_contract.hpp"

namespace fuzz {

inline void check_finite_model(const cloth::ClothModel& m) {
  for (size_t i = 0; i < m.mass.size(); ++i) {
    if (!std::isfinite(m.mass[i]) || m.mass[i] <= 0) violated("mass of vertex " + std::to_string(i) + " is not finite and positive");
  }
  for (const cloth::Spring& s : m.springs) {
    if (!std::isfinite(s.rest) || !std::isfinite(s.k) || !std::isfinite(s.kd)) {
      violated("spring " + std::to_string(s.i) + "-" + std::to_string(s.j) + " has rest " +
               std::to_string(s.rest) + " m, k " + std::to_string(s.k) + " N/m");
    }
  }
  for (const cloth::StretchShearTriangle& t : m.bw_triangles) {
    if (!std::isfinite(t.inv_det) || !std::isfinite(t.area)) violated("a stretch/shear element is not finite");
  }
  for (const cloth::BendEdge& b : m.bw_bends) {
    if (!std::isfinite(b.rest_angle) || !std::isfinite(b.weight) || !std::isfinite(b.scale)) {
      violated("a bend hinge is not finite");
    }
  }
  for (const cloth::ShapeOperatorTriangle& t : m.bend_triangles) {
    if (!t.stiffness.allFinite()) violated("a bend element is not finite");
    for (const cloth::BendEdge& b : t.hinges) {
      if (!std::isfinite(b.rest_angle)) violated("a bend element's rest angle is not finite");
    }
  }
}

}  // namespace fuzz
