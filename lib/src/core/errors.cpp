#include "eom/core/errors.hpp"

#include <utility>

namespace eom {
namespace {

// "file:line:column: message", leaving out the parts that are unknown
std::string locate(const std::string& file, int line, int column, const std::string& message) {
  std::string where = file;
  if (line > 0) {
    if (!where.empty()) where += ':';
    where += std::to_string(line);
    if (column > 0) where += ':' + std::to_string(column);
  }
  return where.empty() ? message : where + ": " + message;
}

}  // namespace

InputError::InputError(std::string file, int line, int column, const std::string& message)
    : std::runtime_error(locate(file, line, column, message)),
      file_(std::move(file)),
      line_(line),
      column_(column),
      message_(message) {}

}  // namespace eom
