// Argument size checks shared by the algorithms (private to libeom).
#pragma once

#include <string>

#include <Eigen/Core>

#include "eom/core/errors.hpp"

namespace eom::detail {

inline void check_size(Eigen::Index size, int expected, const char* what) {
  if (size != expected) {
    throw InputError(std::string(what) + " has " + std::to_string(size) + " entries, expected " +
                     std::to_string(expected));
  }
}

}  // namespace eom::detail
