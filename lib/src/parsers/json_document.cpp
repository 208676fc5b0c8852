#include "parsers/json_document.hpp"

#include <set>
#include <utility>
#include <vector>

#include "eom/core/errors.hpp"

namespace eom::detail {
namespace {

using nlohmann::json;

// 1-based line and column of a byte offset, for JSON syntax errors
std::pair<int, int> line_column(const std::string& text, size_t offset) {
  int line = 1, column = 1;
  for (size_t k = 0; k < offset && k < text.size(); ++k) {
    if (text[k] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

// Refuses objects and lists nested deeper than kMaxJsonDepth, before nlohmann builds them: a
// scan of the brackets outside strings (what is malformed otherwise is the parser's to say)
void check_depth(const std::string& text, const std::string& file) {
  int depth = 0;
  bool in_string = false;
  for (size_t k = 0; k < text.size(); ++k) {
    const char c = text[k];
    if (in_string) {
      if (c == '\\') ++k;  // the escaped character cannot end the string
      if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > kMaxJsonDepth) {
        const auto [line, column] = line_column(text, k);
        throw ModelError(file, line, column,
                         "objects and lists nested more than " + std::to_string(kMaxJsonDepth) +
                             " deep, the most eom reads");
      }
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
}

[[noreturn]] void malformed(const std::string& text, const std::string& file,
                            const json::parse_error& e) {
  const auto [line, column] = line_column(text, e.byte > 0 ? e.byte - 1 : 0);
  std::string what = e.what();
  // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..."
  const size_t colon = what.find(": ");
  if (colon != std::string::npos) what = what.substr(colon + 2);
  throw ModelError(file, line, column, "malformed JSON: " + what);
}

// "[json.exception.out_of_range.406] number overflow parsing '1e400'": at the number's place
[[noreturn]] void malformed(const std::string& text, const std::string& file,
                            const json::exception& e) {
  std::string what = e.what();
  const size_t bracket = what.find("] ");
  if (bracket != std::string::npos) what = what.substr(bracket + 2);
  const size_t quote = what.find('\'');
  const std::string quoted = quote == std::string::npos ? "" : what.substr(quote + 1);
  const size_t at =
      quoted.empty() ? std::string::npos : text.find(quoted.substr(0, quoted.size() - 1));
  const auto [line, column] = line_column(text, at == std::string::npos ? 0 : at);
  // a number beyond a double (406) is said as in tables, not in the parser's words
  constexpr int kNumberOverflow = 406;
  const std::string message = e.id == kNumberOverflow && !quoted.empty()
                                  ? out_of_range_message(quoted.substr(0, quoted.size() - 1))
                                  : "malformed JSON: " + what;
  throw ModelError(file, at == std::string::npos ? 0 : line, at == std::string::npos ? 0 : column,
                   message);
}

}  // namespace

json parse_json_document(const std::string& text, const std::string& file) {
  check_depth(text, file);
  // a key given twice in one object would silently keep its last value: refused, as a misspelt
  // one is (the keys of each open object, by depth)
  std::vector<std::set<std::string>> keys;
  std::string twice;
  const json::parser_callback_t note_keys = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) keys.emplace_back();
    if (event == json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
    if (event == json::parse_event_t::key && !keys.empty() &&
        !keys.back().insert(parsed.get<std::string>()).second && twice.empty()) {
      twice = parsed.get<std::string>();
    }
    return true;
  };
  json doc;
  try {
    doc = json::parse(text, note_keys);
  } catch (const json::parse_error& e) {
    malformed(text, file, e);
  } catch (const json::exception& e) {
    malformed(text, file, e);
  }
  if (!twice.empty()) {
    throw ModelError(
        file, 0, 0,
        "malformed JSON: the key " + quote_input(twice) + " appears twice in one object");
  }
  return doc;
}

}  // namespace eom::detail
