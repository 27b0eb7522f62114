#pragma once
// Where a density pattern (material.hpp) is heavy: seams as stripes, a weave as a checker.
#include "elements/material.hpp"
#include "core/vec.hpp"

namespace cloth {

/// The multiplier of the areal density at rest material coordinates `uv` (m): pattern.factor on
/// the heavy part, 1 elsewhere (and everywhere for Kind::None). Band k of the stripes is heavy on
/// [k period, k period + width) of its axis; checker cell (i, j) of side period is heavy when
/// i + j is even.
double density_factor(const DensityPattern& pattern, const Vec2& uv);

}  // namespace cloth
