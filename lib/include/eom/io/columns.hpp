// Binding a table's named columns to a Model's coordinates.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"
#include "eom/io/table.hpp"

namespace eom {

/// Indices of `names` in the header. Throws InputError naming every missing column (and, when a
/// whole joint is missing or the base type does not match the table, saying so).
std::vector<int> bind_columns(const Header& header, const std::vector<std::string>& names,
                              const std::string& file);

/// Throws InputError for a column "<prefix>.<name>" whose prefix is a per-coordinate one (q, v,
/// a, tau, jerk, snap, dNq, dNtau) and whose name is no coordinate of the model: a misspelt joint,
/// or a floating-base table given to a fixed-base model. A locked joint's columns are no error.
void check_coordinate_columns(const Header& header, const Model& model, const std::string& file);

/// out[k] = row[index[k]].
inline void gather(const std::vector<double>& row, const std::vector<int>& index, VecRef out) {
  for (size_t k = 0; k < index.size(); ++k) out[static_cast<Eigen::Index>(k)] = row[index[k]];
}

}  // namespace eom
