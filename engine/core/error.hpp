#pragma once
// Errors caused by bad input (files, scene values). They carry one human-readable line that the
// CLI / app prints as-is; programmer errors use assert instead.
#include <cstdio>
#include <stdexcept>
#include <string>

namespace cloth {

/// `text` with control characters (newlines included) written as \xNN. Messages quote user text
/// (file paths, JSON keys and strings) that may hold them; this keeps every message on one line.
inline std::string one_line(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u != 0x7f) {
      out += c;
      continue;
    }
    char hex[8];
    std::snprintf(hex, sizeof hex, "\\x%02x", u);
    out += hex;
  }
  return out;
}

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(one_line(message)) {}
};

}  // namespace cloth
