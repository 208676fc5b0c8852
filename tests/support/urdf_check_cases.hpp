// check_urdf's test helpers: the URDF fixtures of tests/data/urdf, inline cases, and the
// diagnostics expected of them (severity, line, part of the message).
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <eom/core/errors.hpp>
#include <eom/parsers/urdf.hpp>

#include "paths.hpp"

namespace eom::test::urdf_check {

using Catch::Matchers::Contains;
using eom::Diagnostic;
constexpr auto kError = Diagnostic::Severity::error;
constexpr auto kWarning = Diagnostic::Severity::warning;

inline std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline eom::UrdfDescription fixture(const std::string& name) {
  return eom::parse_urdf(file_text(eom::test::kDataDir + "/urdf/" + name), name);
}

struct Expected {
  Diagnostic::Severity severity;
  int line;
  std::string text;  // part of the message
};

inline std::string describe(const std::vector<Diagnostic>& found) {
  std::string out;
  for (const Diagnostic& d : found) {
    out += std::to_string(d.line) + (d.severity == kError ? ": error: " : ": warning: ") +
           d.message + "\n";
  }
  return out;
}

// every diagnostic, in order: severity, line and a part of the message
inline void require_diagnostics(const std::vector<Diagnostic>& found,
                                const std::vector<Expected>& expected) {
  INFO("found:\n" << describe(found));
  REQUIRE(found.size() == expected.size());
  for (std::size_t i = 0; i < found.size(); ++i) {
    CHECK(found[i].severity == expected[i].severity);
    CHECK(found[i].line == expected[i].line);
    CHECK_THAT(found[i].message, Contains(expected[i].text));
  }
}

inline void require_diagnostics(const std::string& name, const std::vector<Expected>& expected) {
  require_diagnostics(eom::check_urdf(fixture(name)), expected);
}

// a fixture parse_urdf refuses: the InputError's line and message
inline void require_parse_error(const std::string& name, int line, const std::string& text) {
  try {
    fixture(name);
    FAIL(name << " was parsed");
  } catch (const eom::InputError& e) {
    CHECK(e.line() == line);
    CHECK_THAT(e.message(), Contains(text));
  }
}

// <robot> on line 1, `body` from line 2
inline std::vector<Diagnostic> check_inline(const std::string& body,
                                            eom::LoadOptions options = {}) {
  return eom::check_urdf(eom::parse_urdf("<robot name=\"t\">\n" + body + "</robot>\n"), options);
}

}  // namespace eom::test::urdf_check
