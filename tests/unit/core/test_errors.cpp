// Messages that name settings: the settings stay data until the message is shown, the library
// words by default, a program's names (eom's options) when it spells them; the location prefix of
// an InputError and the quoting of input.

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include <eom/core/errors.hpp>

using namespace eom;

namespace {

// a program's names for two settings, unlike the library's words
std::string_view program_names(Setting setting) {
  return setting == Setting::lock ? "--lock" : setting == Setting::output ? "-o" : "?";
}

}  // namespace

TEST_CASE("a phrase names its settings where they stand, as asked", "[errors]") {
  const Phrase phrase = Setting::lock + (" a=1: see " + std::string("x")) + Setting::output + ".";
  CHECK(phrase.text() == "lock a=1: see xoutput.");
  CHECK(phrase.text(program_names) == "--lock a=1: see x-o.");
  // text on either side of a phrase keeps its settings in place, at its start and end too
  CHECK(("(" + phrase + ")").text(program_names) == "(--lock a=1: see x-o.)");
  CHECK((Phrase(Setting::output) + Setting::lock).text(program_names) == "-o--lock");
  CHECK(Phrase("no setting").text(program_names) == "no setting");
  CHECK(Phrase().text().empty());
}

TEST_CASE("an InputError says its settings in the library's words, text() as a program does",
          "[errors]") {
  const InputError e("walk.csv", 3, 2, Setting::lock + std::string(": joint 'a' is locked twice"));
  CHECK(std::string(e.what()) == "walk.csv:3:2: lock: joint 'a' is locked twice");
  CHECK(e.message() == "lock: joint 'a' is locked twice");
  CHECK(e.text(program_names) == "walk.csv:3:2: --lock: joint 'a' is locked twice");
  // rethrown with a location, through its phrase, it keeps the setting
  const InputError located("log.csv", 7, 0, e.phrase());
  CHECK(located.text(program_names) == "log.csv:7: --lock: joint 'a' is locked twice");
  // without a location, the message alone
  CHECK(InputError("-o " + Setting::lock).text(program_names) == "-o --lock");
}

TEST_CASE("the library's words for settings are no option's spelling", "[errors]") {
  CHECK(setting_name(Setting::time_column) == "time column");
  CHECK(setting_name(Setting::output_dir) == "output directory");
  CHECK(setting_name(Setting::keep_truncated) == "keep truncated");
}

TEST_CASE("quoted input shows control characters, so that a NUL cannot cut a message", "[errors]") {
  CHECK(quote_input(std::string_view("a\0b", 3)) == "'a\\x00b'");
  CHECK(quote_input("tab\there\n") == "'tab\\x09here\\x0a'");
  CHECK(shown_input("\x7f") == "\\x7f");
  // the rest as given, UTF-8 included
  CHECK(quote_input("q.élbow") == "'q.élbow'");
}
