// Usage errors in eom's words: a misspelt option or subcommand with the close ones (as eom's
// messages about columns, joints and frames), and CLI11's refusals of values said as what the
// option takes, never CLI11's own wording.

#include <catch2/catch.hpp>

#include <string>

#include "command_line.hpp"

using Catch::Contains;
using Catch::StartsWith;
using eom::test::refusal;

TEST_CASE("usage: an unknown option is named with the options close to it", "[tools]") {
  CHECK(refusal({"id", "r.urdf", "t.csv", "--floating-bse"}) ==
        "unknown option '--floating-bse' (did you mean '--floating-base'?)\n"
        "Run 'eom id --help' for the options.\n");
  CHECK_THAT(refusal({"id", "r.urdf", "t.csv", "--contact", "FL_FOOT"}),
             StartsWith("unknown option '--contact' (did you mean '--contacts'"));
  // --name=value: the name is what is misspelt
  const std::string fromat = refusal({"id", "r.urdf", "t.csv", "--gaps=refuse", "--fromat=csv"});
  CHECK_THAT(fromat, StartsWith("unknown option '--fromat' (did you mean "));
  CHECK_THAT(fromat, Contains("'--format'") && Contains("'--from'"));
  // the misspelling is the cause of a required option's absence: said first
  CHECK_THAT(refusal({"sim", "r.urdf", "--duraton", "1"}),
             StartsWith("unknown option '--duraton' (did you mean '--duration'?)"));
  // nothing close: no suggestion
  CHECK(refusal({"fk", "r.urdf", "t.csv", "--zzzzzzzz"}) ==
        "unknown option '--zzzzzzzz'\nRun 'eom fk --help' for the options.\n");
}

TEST_CASE("usage: a refused value says what the option takes, in eom's words", "[tools]") {
  CHECK(refusal({"id", "r.urdf", "t.csv", "--jobs", "two"}) ==
        "--jobs takes a whole number from 0 to 4096, not 'two'\n"
        "Run 'eom id --help' for the options.\n");
  CHECK_THAT(refusal({"id", "r.urdf", "t.csv", "--format", "jsn"}),
             StartsWith("--format takes one of csv, json, ndjson, not 'jsn' (did you mean 'json'"));
  const std::string gravity = refusal({"id", "r.urdf", "t.csv", "--gravity", "0,0,-9.81,1"});
  CHECK_THAT(gravity, StartsWith("--gravity takes "));
  CHECK_THAT(gravity, Contains("3 values, not 4"));
  for (const char* words : {"At Most", "required but received", "not in range", "not expected"}) {
    CHECK_THAT(gravity, !Contains(words));
  }
}
