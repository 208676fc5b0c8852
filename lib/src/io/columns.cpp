#include "eom/io/columns.hpp"

#include <algorithm>

#include "eom/core/errors.hpp"
#include "eom/io/column_names.hpp"

namespace eom {

std::vector<int> bind_columns(const Header& header, const std::vector<std::string>& names,
                              const std::string& file) {
  std::vector<int> index;
  std::vector<std::string> missing;
  index.reserve(names.size());
  for (const auto& name : names) {
    const int i = header.index(name);
    if (i < 0) missing.push_back(name);
    index.push_back(i);
  }
  if (missing.empty()) return index;

  std::string message = missing.size() == 1 ? "missing column " : "missing columns ";
  for (size_t k = 0; k < missing.size() && k < 8; ++k) message += (k ? ", " : "") + missing[k];
  if (missing.size() > 8) message += ", ... (" + std::to_string(missing.size()) + " in all)";
  Phrase advice;
  for (const auto& name : missing) {
    if (name.find("." + column_name(kFreeFlyerJoint, "")) != std::string::npos) {
      advice =
          " (the model has a floating base: the table needs the root joint's columns, or drop " +
          Setting::floating_base + ")";
      break;
    }
  }
  throw InputError(file, 1, 0, message + advice);
}

void check_coordinate_columns(const Header& header, const Model& model, const std::string& file) {
  for (const auto& column : header.names) {
    const size_t dot = column.find('.');
    if (dot == std::string::npos || !is_coordinate_prefix(column.substr(0, dot))) continue;
    const std::string prefix = column.substr(0, dot), name = column.substr(dot + 1);
    const bool is_force = prefix.size() >= 3 && prefix.compare(prefix.size() - 3, 3, "tau") == 0;
    const auto& names = prefix == "q" ? model.q_names : is_force ? model.tau_names : model.v_names;
    // a locked joint's columns (Model::locked) are data the reduced model does not read
    if (std::find(names.begin(), names.end(), name) != names.end() ||
        model.is_locked_coordinate(name)) {
      continue;
    }
    Phrase message = "column " + shown_input(column) + ": the model has no joint coordinate " +
                     quote_input(name);
    if (name.rfind(column_name(kFreeFlyerJoint, ""), 0) == 0 && !model.floating_base) {
      message += " (a floating-base table: add " + Setting::floating_base + ")";
    } else {
      message += did_you_mean(names, name);
    }
    throw InputError(file, 1, 0, message);
  }
}

}  // namespace eom
