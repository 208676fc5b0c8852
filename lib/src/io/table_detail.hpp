// What the table readers and writers share, private to libeom: the text of fields (numbers,
// quoting for messages) and the rules for column names. Implemented in table.cpp.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include "eom/io/table.hpp"

namespace eom::detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

inline bool has_bom(std::string_view text) { return text.substr(0, 3) == "\xEF\xBB\xBF"; }

/// "<what>: <strerror(errno)>".
std::string system_message(const char* what);

enum class NumberStatus { ok, not_number, not_finite, out_of_range };

/// A whole field as a double with std::from_chars (a leading '+' allowed).
NumberStatus to_number(std::string_view text, double& value);

/// Why `text` is not a finite number, for messages.
std::string describe(std::string_view text, NumberStatus status);

/// Adds a column name to `header` (`index` maps the names so far to their columns); returns why
/// it cannot be one (empty if it can).
std::string add_column(Header& header, std::unordered_map<std::string, int>& index,
                       const std::string& name);

}  // namespace eom::detail
