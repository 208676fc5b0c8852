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
  for (const char* component : kWrenchComponents) {
    out.push_back(column_name(column_name(prefix, frame), component));
  }
  return out;
}

}  // namespace eom
