// append_utf8 against the encodings RFC 3629 tabulates (section 3) and its examples (section 7),
// at each boundary between one, two, three and four bytes.

#include <string>

#include <catch2/catch.hpp>

#include <eom/core/utf8.hpp>

namespace {

std::string utf8(unsigned long code) {
  std::string out;
  eom::append_utf8(out, code);
  return out;
}

}  // namespace

TEST_CASE("append_utf8 encodes a code point in one to four bytes", "[utf8]") {
  CHECK(utf8(0x41) == "A");
  CHECK(utf8(0x7F) == "\x7F");
  CHECK(utf8(0x80) == "\xC2\x80");
  CHECK(utf8(0x3C3) == "\xCF\x83");  // sigma, as eom plot labels the singular values
  CHECK(utf8(0x7FF) == "\xDF\xBF");
  CHECK(utf8(0x800) == "\xE0\xA0\x80");
  CHECK(utf8(0xD55C) == "\xED\x95\x9C");  // RFC 3629's Korean example
  CHECK(utf8(0xFFFF) == "\xEF\xBF\xBF");
  CHECK(utf8(0x10000) == "\xF0\x90\x80\x80");
  CHECK(utf8(0x233B4) == "\xF0\xA3\x8E\xB4");  // RFC 3629's Japanese example
  CHECK(utf8(0x10FFFF) == "\xF4\x8F\xBF\xBF");
  std::string appended = "x";
  eom::append_utf8(appended, 0xB1);  // appends: what was there stays
  CHECK(appended == "x\xC2\xB1");
}
