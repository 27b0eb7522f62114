#pragma once
// The time integrators a simulation can use, and their one name table.
#include "core/enum_names.hpp"

namespace cloth {

enum class IntegratorType {
  Verlet,           ///< position Verlet (Yu's report), with Provot's strain limit
  ExplicitEuler,    ///< forward Euler
  SymplecticEuler,  ///< semi-implicit Euler: velocity first, then position
  Rk4,              ///< classical Runge-Kutta
  Implicit,         ///< Baraff & Witkin 1998's implicit Euler step (eq. 15-18)
  Xpbd,             ///< extended position-based dynamics (Macklin, Mueller & Chentanez 2016)
  Projective,       ///< projective dynamics (Liu et al. 2013; Bouaziz et al. 2014), Chebyshev (Wang 2015)
  Vbd,              ///< vertex block descent (Chen, Liu, Yang & Yuksel 2024)
};

/// The scene-file names, in the order the panel lists the integrators.
inline constexpr NamedValue<IntegratorType> kIntegratorNames[] = {
    {IntegratorType::Verlet, "verlet"},
    {IntegratorType::ExplicitEuler, "explicit-euler"},
    {IntegratorType::SymplecticEuler, "symplectic-euler"},
    {IntegratorType::Rk4, "rk4"},
    {IntegratorType::Implicit, "implicit"},
    {IntegratorType::Xpbd, "xpbd"},
    {IntegratorType::Projective, "projective"},
    {IntegratorType::Vbd, "vbd"},
};
constexpr std::span<const NamedValue<IntegratorType>> value_names(IntegratorType) { return kIntegratorNames; }
static_assert(listed_in_enum_order(kIntegratorNames), "used_by relies on the order");

}  // namespace cloth
