#include "eom/io/column_names.hpp"

#include <cctype>

namespace eom {

std::string column_name(std::string_view prefix, std::string_view name) {
  std::string out;
  out.reserve(prefix.size() + 1 + name.size());
  return out.append(prefix).append(1, '.').append(name);
}

std::vector<std::string> coordinate_columns(const Model& model, std::string_view prefix,
                                            Space space) {
  const auto& names = space == Space::q   ? model.q_names
                      : space == Space::v ? model.v_names
                                          : model.tau_names;
  std::vector<std::string> out;
  out.reserve(names.size());
  for (const auto& n : names) out.push_back(column_name(prefix, n));
  return out;
}

std::string matrix_column(std::string_view prefix, std::string_view row, std::string_view col) {
  return column_name(column_name(prefix, row), col);
}

std::vector<std::string> matrix_columns(const Model& model, std::string_view prefix) {
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(model.nv) * model.nv);
  for (const auto& row : model.v_names) {
    for (const auto& col : model.v_names) out.push_back(matrix_column(prefix, row, col));
  }
  return out;
}

std::string derivative_prefix(int k) {
  if (k == 0) return "q";
  if (k == 1) return "v";
  if (k == 2) return "a";
  return "d" + std::to_string(k) + "q";
}

const char* derivative_alias(int k) {
  if (k == 3) return "jerk";
  if (k == 4) return "snap";
  return nullptr;
}

std::string time_derivative_prefix(std::string_view quantity, int k) {
  if (k == 0) return std::string(quantity);
  return "d" + std::to_string(k) + std::string(quantity);
}

bool is_coordinate_prefix(std::string_view prefix) {
  if (prefix == "tau") return true;
  for (int k = 0; k <= 4; ++k) {
    const char* alias = derivative_alias(k);
    if (prefix == derivative_prefix(k) || (alias && prefix == alias)) return true;
  }
  if (prefix.size() < 3 || prefix[0] != 'd') return false;
  size_t k = 1;
  while (k < prefix.size() && std::isdigit(static_cast<unsigned char>(prefix[k]))) ++k;
  const std::string_view rest = prefix.substr(k);
  return k > 1 && (rest == "q" || rest == "tau");
}

std::vector<std::string> pose_columns(std::string_view frame) {
  std::vector<std::string> out;
  for (const char* component : kPoseComponents) out.push_back(column_name(frame, component));
  return out;
}

std::vector<std::string> wrench_columns(std::string_view prefix, std::string_view frame) {
  std::vector<std::string> out;
  for (const char* component : kWrenchComponents)
    out.push_back(frame_column(prefix, frame, component));
  return out;
}

std::string frame_column(std::string_view prefix, std::string_view frame,
                         std::string_view component) {
  return column_name(column_name(prefix, frame), component);
}

std::string contact_activity_column(std::string_view frame) {
  return column_name(kContactActivityPrefix, frame);
}

std::string_view contact_activity_frame(std::string_view column) {
  const std::string_view prefix = kContactActivityPrefix;
  if (column.size() <= prefix.size() + 1 || column.compare(0, prefix.size(), prefix) != 0 ||
      column[prefix.size()] != '.') {
    return {};
  }
  return column.substr(prefix.size() + 1);
}

const std::vector<std::string>& contact_rank_columns() {
  static const std::vector<std::string> names{
      column_name(kContactActivityPrefix, "rank"), column_name(kContactActivityPrefix, "base_rank"),
      column_name(kContactActivityPrefix, "internal"), column_name(kContactActivityPrefix, "full")};
  return names;
}

std::string friction_ratio_column(std::string_view frame) { return column_name("friction", frame); }

std::vector<std::string> center_of_pressure_columns(std::string_view frame) {
  return {frame_column("cop", frame, "x"), frame_column("cop", frame, "y")};
}

std::vector<std::string> residual_columns() {
  std::vector<std::string> out;
  for (const char* component : kWrenchComponents) out.push_back(column_name("residual", component));
  out.push_back(column_name("residual", "norm"));
  return out;
}

std::vector<std::string> energy_columns() {
  return {column_name("energy", "kinetic"), column_name("energy", "potential"),
          column_name("energy", "total")};
}

}  // namespace eom
