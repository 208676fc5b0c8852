// The two ways libeom and eom write a double as text, in one place: the shortest round-trip form
// (tables, written models, numbers quoted from a file: reading the text back gives the same
// double) and a given precision, printf's (messages about computed numbers, where round-off
// digits would only hide the point): significant digits as %g, or places after the point as %f.
// JSON documents keep nlohmann::json's own spelling of numbers.
#pragma once

#include <string>

namespace eom {

/// Shortest round-trip decimal form of a finite double (std::to_chars), appended to `out`
/// ("0.1", "2", "1e-05", "1e+20"); no allocation once `out` has room.
void append_number(std::string& out, double value);

/// The shortest round-trip form as a string.
std::string shortest_text(double x);

/// x to `digits` significant digits as printf's %.*g (and a stream's default format) writes it:
/// the shorter of fixed and exponent notation, trailing zeros dropped ("0.001", "123457",
/// "1e+200").
std::string number_text(double x, int digits = 6);

/// x with `places` digits after the point as printf's %.*f writes it (std::to_string's 6 places,
/// a percentage's 0): "0.500000", "50", "inf".
std::string fixed_text(double x, int places);

}  // namespace eom
