#pragma once
// The material models a cloth can use, and their one name table.
#include "core/enum_names.hpp"

namespace cloth {

/// The material models a cloth can use; each has its own element arrays.
enum class ModelType {
  Springs,       ///< Hooke springs of Yu's report (structural, shear, bend)
  BaraffWitkin,  ///< stretch/shear per triangle and bend per edge, Baraff & Witkin 1998, section 4
  EdgeArea,      ///< edge-strain + triangle-area membrane of CS176 2011 (+ shape-operator bending)
  Feynman,       ///< Feynman 1986's buckling springs and angular bending, sec. 5 (square grids)
  Breen,         ///< Breen-House-Wozny energies, via Karthikeyan & Ranganathan 1998 (grid meshes)
};

/// The scene-file names, in the order the panel lists the models.
inline constexpr NamedValue<ModelType> kModelTypeNames[] = {
    {ModelType::Springs, "springs"},
    {ModelType::BaraffWitkin, "baraff-witkin"},
    {ModelType::EdgeArea, "edge-area"},
    {ModelType::Feynman, "feynman"},
    {ModelType::Breen, "breen"},
};
constexpr std::span<const NamedValue<ModelType>> value_names(ModelType) { return kModelTypeNames; }
static_assert(listed_in_enum_order(kModelTypeNames), "used_by relies on the order");

}  // namespace cloth
