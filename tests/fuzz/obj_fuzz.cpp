// libFuzzer target for the OBJ loader: bytes -> file -> cloth::load_obj -> build_model (both
// material models). Contract and checks: fuzz_contract.hpp, model_checks.hpp.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/error.hpp"
#include "mesh/mesh.hpp"
#include "model/model.hpp"
#include "fuzz_contract.hpp"
#include "model_checks.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path =
      fuzz::write_input("mesh.obj", std::string_view(reinterpret_cast<const char*>(data), size));
  try {
    const cloth::RestMesh mesh = cloth::load_obj(path);
    for (const cloth::ModelType type : {cloth::ModelType::Springs, cloth::ModelType::BaraffWitkin}) {
      try {
        fuzz::check_finite_model(cloth::build_model(mesh, cloth::SpringMaterial{}, type));
      } catch (const cloth::InputError& e) {
        fuzz::check_one_line(e.what());  // e.g. a vertex in no triangle: still a clean rejection
      }
    }
  } catch (const cloth::InputError& e) {
    fuzz::check_one_line(e.what());
  } catch (const std::exception& e) {
    fuzz::violated(std::string("load_obj threw a non-InputError: ") + e.what());
  }
  return 0;
}
