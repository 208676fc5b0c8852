// UTF-8 encoding of a code point: the JSON readers' \u escapes and eom plot's SVG character
// references both turn code points into text with it.
#pragma once

#include <string>

namespace eom {

/// Appends the UTF-8 encoding of `code` (at most U+10FFFF: one to four bytes) to `out`.
void append_utf8(std::string& out, unsigned long code);

}  // namespace eom
