#pragma once
// Errors caused by bad input (files, scene values). They carry one human-readable line that the
// CLI / app prints as-is; programmer errors use assert instead.
#include <stdexcept>
#include <string>

namespace cloth {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace cloth
