#include "eom/io/column_units.hpp"

#include <algorithm>
#include <cctype>
#include <initializer_list>

#include "eom/io/column_names.hpp"

namespace eom {
namespace {

bool one_of(std::string_view text, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), text) != names.end();
}

// Quantities with one column per joint coordinate: their group is the prefix alone, whatever
// dots the coordinate holds (tau.root.fx).
bool is_per_coordinate(std::string_view prefix) {
  return is_coordinate_prefix(prefix) || prefix.rfind("tau_", 0) == 0 || prefix == "power";
}

// "/s", "/s²", ... : per second to the power k (none for k = 0)
std::string per_second(int k) {
  static const char* const kSuperscripts[] = {"", "", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  if (k == 0) return "";
  if (k < 10) return std::string("/s") + kSuperscripts[k];
  return "/s^" + std::to_string(k);
}

// The order of the time derivative a coordinate prefix holds: q 0, v 1, a 2, jerk and d3q 3,
// ..., tau 0, d1tau 1, ...; `force` tells a generalized force from a coordinate.
int derivative_order(std::string_view prefix, bool& force) {
  force = prefix == "tau" || prefix.rfind("tau_", 0) == 0;
  if (force) return 0;
  for (int k = 0; k <= 4; ++k) {
    const char* alias = derivative_alias(k);
    if (prefix == derivative_prefix(k) || (alias && prefix == alias)) return k;
  }
  size_t end = 1;
  while (end < prefix.size() && std::isdigit(static_cast<unsigned char>(prefix[end]))) ++end;
  force = prefix.substr(end) == "tau";
  return std::stoi(std::string(prefix.substr(1, end - 1)));
}

enum class Direction { angular, linear, none };

// Whether a coordinate (a joint name, root.vx, a ball joint's q.<joint>.qx) moves along a line
Direction coordinate_direction(std::string_view coordinate, const Model* model) {
  const size_t dot = coordinate.rfind('.');
  if (dot != std::string_view::npos) {
    const std::string_view component = coordinate.substr(dot + 1);
    if (one_of(component, {"qx", "qy", "qz", "qw"})) return Direction::none;
    if (one_of(component, {"x", "y", "z", "vx", "vy", "vz", "fx", "fy", "fz"})) {
      return Direction::linear;
    }
    return Direction::angular;
  }
  if (model) {
    const int j = model->joint_index(coordinate);
    if (j > 0 && model->joints[j].kind == JointKind::prismatic) return Direction::linear;
  }
  return Direction::angular;
}

std::string wrench_unit(std::string_view component) {
  if (one_of(component, {"fx", "fy", "fz", "fn"})) return "N";
  if (one_of(component, {"mx", "my", "mz"})) return "N m";
  return "";
}

}  // namespace

std::string column_group(std::string_view name) {
  const size_t first = name.find('.');
  if (first == std::string_view::npos) return std::string(name);
  const std::string_view prefix = name.substr(0, first);
  if (is_per_coordinate(prefix)) return std::string(prefix);
  const size_t second = name.find('.', first + 1);
  return std::string(name.substr(0, second == std::string_view::npos ? first : second));
}

std::string column_member(std::string_view name) {
  const std::string group = column_group(name);
  return group.size() == name.size() ? std::string(name)
                                     : std::string(name.substr(group.size() + 1));
}

std::string column_unit(std::string_view name, const Model* model) {
  const size_t first = name.find('.');
  if (first == std::string_view::npos) return "";
  const std::string_view prefix = name.substr(0, first), rest = name.substr(first + 1);
  const std::string_view last = name.substr(name.rfind('.') + 1);
  if (prefix == "power") return "W";
  if (prefix == "energy") return "J";
  if (prefix == "cop") return "m";
  if (prefix == "f" || prefix == "wrench" || prefix == "residual") return wrench_unit(last);
  if (!is_per_coordinate(prefix)) {
    // a frame's pose: <frame>.x .y .z in m, its quaternion without unit
    const bool pose = rest.find('.') == std::string_view::npos;
    return pose && one_of(last, {"x", "y", "z"}) ? "m" : "";
  }
  bool force = false;
  const int order = derivative_order(prefix, force);
  const Direction motion = coordinate_direction(rest, model);
  if (motion == Direction::none) return order == 0 ? "" : "1" + per_second(order);
  const bool linear = motion == Direction::linear;
  if (force) return (linear ? "N" : "N m") + per_second(order);
  return (linear ? "m" : "rad") + per_second(order);
}

}  // namespace eom
