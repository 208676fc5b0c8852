// A scratch directory per test process, removed when the process ends. ctest runs each test case
// of a CLI checker as its own process, several at once (-j) and possibly from several build trees:
// fixed file names in the temporary directory would collide.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace eom::test {

/// The path of `name` in this process's scratch directory (created on first use).
inline std::string scratch_path(const std::string& name) {
  struct Directory {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("eom_check-" + std::to_string(::getpid()));
    Directory() { std::filesystem::create_directories(path); }
    ~Directory() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Directory directory;
  return (directory.path / name).string();
}

}  // namespace eom::test
