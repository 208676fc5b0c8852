// The mathematical constants of libeom, spelled once (MuJoCo's mjPI). Private to libeom.
#pragma once

namespace eom::detail {

/// pi, the half turn in radians: the same double as M_PI, without relying on a POSIX macro.
constexpr double kPi = 3.14159265358979323846;

}  // namespace eom::detail
