// JSON files read whole (JSON models, friction files) into an nlohmann::json document, with the
// checks every such file gets: nesting bounded, no key given twice, errors at their line and
// column. Private to libeom; the depth limit is documented in doc/files.md.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace eom::detail {

/// The deepest nesting of objects and lists read: far beyond what a JSON model or friction file
/// needs (4), and shallow enough that every recursion over a document (nlohmann's dump, copies,
/// comparisons) stays well within the call stack.
constexpr int kMaxJsonDepth = 100;

/// The document of a JSON file's text (`file` names it in messages). Throws ModelError with the
/// line and column for malformed JSON, a number beyond a double, and objects or lists nested more
/// than kMaxJsonDepth deep (where the nesting passes it); without a line for a key given twice
/// in one object.
nlohmann::json parse_json_document(const std::string& text, const std::string& file);

}  // namespace eom::detail
