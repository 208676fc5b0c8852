// tabdiff EXPECTED ACTUAL ATOL RTOL: compare two tables by column name, value by value, within
// |actual - expected| <= ATOL + RTOL * |expected|. Exit 0 when they match, 1 when they do not
// (the worst value is printed), 2 when a table cannot be read.
// The format follows the extension; without a known one (ctest's captured *.stdout) the first
// byte decides: '[' JSON, '{' NDJSON (eom writes JSON as an array of rows), anything else CSV.

#include <cmath>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>
#include <eom/io/table.hpp>

namespace {

eom::Format guess_format(const std::string& path) {
  try {
    return eom::format_for(path, std::nullopt);
  } catch (const eom::InputError&) {
  }
  std::ifstream in(path);
  char c = 0;
  in >> c;  // skips white space
  if (c == '[') return eom::Format::json;
  if (c == '{') return eom::Format::ndjson;
  return eom::Format::csv;
}

std::string text_of(double value) {
  std::string text;
  eom::append_number(text, value);
  return text;
}

std::string list(const std::vector<std::string>& names) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

int compare(const eom::Table& expected, const eom::Table& actual, double atol, double rtol) {
  std::vector<std::string> missing, extra;
  for (const auto& name : expected.header.names) {
    if (actual.header.index(name) < 0) missing.push_back(name);
  }
  for (const auto& name : actual.header.names) {
    if (expected.header.index(name) < 0) extra.push_back(name);
  }
  if (!missing.empty()) std::cout << "missing columns: " << list(missing) << '\n';
  if (!extra.empty()) std::cout << "unexpected columns: " << list(extra) << '\n';
  if (expected.rows() != actual.rows()) {
    std::cout << "expected " << expected.rows() << " rows, found " << actual.rows() << '\n';
  }
  if (!missing.empty() || !extra.empty() || expected.rows() != actual.rows()) return 1;

  long mismatches = 0;
  double worst = 0;  // excess of the worst value over its tolerance
  int worst_row = 0, worst_column = 0;
  for (int c = 0; c < expected.header.size(); ++c) {
    const int a = actual.header.index(expected.header.names[c]);
    for (int r = 0; r < expected.rows(); ++r) {
      const double e = expected.at(r, c);
      const double excess = std::abs(actual.at(r, a) - e) - (atol + rtol * std::abs(e));
      if (excess <= 0) continue;
      if (mismatches++ == 0 || excess > worst) {
        worst = excess;
        worst_row = r;
        worst_column = c;
      }
    }
  }
  if (mismatches == 0) return 0;
  const double e = expected.at(worst_row, worst_column);
  const double a = actual.at(worst_row, actual.header.index(expected.header.names[worst_column]));
  std::cout << mismatches << " values differ; worst: row " << worst_row + 1 << ", column "
            << expected.header.names[worst_column] << ": expected " << text_of(e) << ", actual "
            << text_of(a) << " (difference " << text_of(std::abs(a - e)) << ", tolerance "
            << text_of(atol + rtol * std::abs(e)) << ")\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: tabdiff EXPECTED ACTUAL ATOL RTOL\n";
    return 2;
  }
  const std::optional<double> atol = eom::parse_number(argv[3]);
  const std::optional<double> rtol = eom::parse_number(argv[4]);
  if (!atol || !rtol || *atol < 0 || *rtol < 0) {
    std::cerr << "tabdiff: ATOL and RTOL must be non-negative numbers\n";
    return 2;
  }
  try {
    const eom::Table expected = eom::read_table(argv[1], guess_format(argv[1]));
    const eom::Table actual = eom::read_table(argv[2], guess_format(argv[2]));
    return compare(expected, actual, *atol, *rtol);
  } catch (const eom::InputError& e) {
    std::cerr << "tabdiff: " << e.what() << '\n';
    return 2;
  }
}
