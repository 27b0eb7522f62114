#pragma once
// Writing results: OBJ of the current positions, and the run statistics JSON of the headless CLI.
#include <string>
#include <vector>

#include "mesh/mesh.hpp"
#include "model/state.hpp"

namespace cloth {

/// Writes `v` lines (positions in vertex order) then `f` lines (1-based). Throws InputError if the
/// file cannot be written.
void write_obj(const std::string& path, const RestMesh& mesh, const ClothState& state);

}  // namespace cloth
