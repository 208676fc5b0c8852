// JSON files read whole (JSON models, friction files): nesting bounded before the document is
// built, brackets inside strings not counted, errors at their line and column.

#include <string>

#include <catch2/catch.hpp>

#include <eom/core/errors.hpp>

#include "parsers/json_document.hpp"

using eom::ModelError;
using eom::detail::kMaxJsonDepth;
using eom::detail::parse_json_document;

namespace {

// `depth` lists nested around a number
std::string nested_lists(int depth) {
  return std::string(depth, '[') + "1" + std::string(depth, ']');
}

std::string json_document_refusal(const std::string& text) {
  try {
    parse_json_document(text, "d.json");
  } catch (const ModelError& e) {
    return e.what();
  }
  return "(read)";
}

}  // namespace

TEST_CASE("JSON documents: nesting up to the bound is read, one more level is refused",
          "[json_document]") {
  CHECK(kMaxJsonDepth == 100);  // as doc/files.md says
  nlohmann::json doc = parse_json_document(nested_lists(kMaxJsonDepth), "d.json");
  for (int level = 1; level < kMaxJsonDepth; ++level) doc = nlohmann::json(doc[0]);
  CHECK(doc == nlohmann::json::array({1}));
  // the 101st '[' is column 101 of line 2
  CHECK(json_document_refusal("\n" + nested_lists(kMaxJsonDepth + 1)) ==
        "d.json:2:101: objects and lists nested more than 100 deep, the most eom reads");
  // objects count as lists do, mixed
  std::string mixed;
  for (int level = 0; level < 60; ++level) mixed += "{\"k\": [";
  CHECK(json_document_refusal(mixed).find("d.json:1:") == 0);
}

TEST_CASE("JSON documents: 100,000 levels are refused without recursion", "[json_document]") {
  // nlohmann's parser is iterative, but dump(), copies and comparisons recurse once per level
  CHECK(json_document_refusal(nested_lists(100000)) ==
        "d.json:1:101: objects and lists nested more than 100 deep, the most eom reads");
}

TEST_CASE("JSON documents: brackets inside strings do not nest", "[json_document]") {
  const std::string brackets(1000, '[');
  const nlohmann::json doc =
      parse_json_document(R"({"a": ")" + brackets + R"(", "b": "\"[{", "c": [1]})", "d.json");
  CHECK(doc["a"] == brackets);
  CHECK(doc["b"] == "\"[{");
  CHECK(doc["c"] == nlohmann::json::array({1}));
}

TEST_CASE("JSON documents: malformed text and keys given twice", "[json_document]") {
  CHECK(json_document_refusal("{\n  \"a\": 1,\n  ]").find("d.json:3:3: malformed JSON: ") == 0);
  CHECK(json_document_refusal(R"({"a": 1, "a": 2})") ==
        "d.json: malformed JSON: the key 'a' appears twice in one object");
  CHECK(json_document_refusal("{\"a\":\n 1e400}")
            .find("d.json:2:2: '1e400' is out of the range of a double (beyond 1.8e308)") == 0);
}
