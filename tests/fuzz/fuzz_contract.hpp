#pragma once
// What both fuzz targets check: the loaders' contract (docs/architecture.md) is that bad input
// throws cloth::InputError with one line of text; any other exception, a crash, a sanitizer
// report, a hang or a non-finite result from accepted input is a bug. Violations abort, which
// libFuzzer reports as a crash and saves as a reproducer.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace fuzz {

[[noreturn]] inline void violated(const std::string& what) {
  std::fprintf(stderr, "fuzz contract violated: %s\n", what.c_str());
  std::abort();
}

inline void check_one_line(const char* message) {
  const std::string_view m(message);
  if (m.empty()) violated("InputError with an empty message");
  if (m.find('\n') != std::string_view::npos || m.find('\r') != std::string_view::npos) {
    violated("InputError message spans several lines: " + std::string(m));
  }
}

/// A private folder for this process's input files (libFuzzer may run several processes).
inline const std::filesystem::path& work_dir() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("clothsim-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

/// Writes `bytes` to `name` in work_dir() and returns its path: the loaders take file paths.
inline std::string write_input(const std::string& name, std::string_view bytes) {
  const std::string path = (work_dir() / name).string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) violated("cannot write the fuzz input to " + path);
  return path;
}

}  // namespace fuzz
