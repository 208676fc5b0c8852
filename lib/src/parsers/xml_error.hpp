// What tinyxml2 found wrong with a document, for messages: shared by the URDF and MJCF readers.
// Private to libeom.
#pragma once

#include <cctype>
#include <string>

#include <tinyxml2.h>

namespace eom::detail {

/// The deepest nesting of elements tinyxml2 reads, the root element counted: it refuses a
/// document whose nesting reaches TINYXML2_MAX_ELEMENT_DEPTH, counting the document itself (98
/// with the limit of 100 of Debian 12's tinyxml2 9). Its parser recurses once per level: the
/// bound keeps the call stack short whatever the file nests.
constexpr int kMaxXmlDepth = TINYXML2_MAX_ELEMENT_DEPTH - 2;

/// "malformed XML: mismatched element (XMLElement name=link)": tinyxml2's error name in words
/// ("XML_ERROR_MISMATCHED_ELEMENT" -> "mismatched element"), and its detail after ": ".
inline std::string xml_error(const tinyxml2::XMLDocument& doc) {
  if (doc.ErrorID() == tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED) {
    return "malformed XML: elements nested more than " + std::to_string(kMaxXmlDepth) +
           " deep, the most eom reads";
  }
  std::string what = doc.ErrorName();
  if (what.rfind("XML_ERROR_", 0) == 0) what = what.substr(10);
  for (char& c : what)
    c = c == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const std::string detail = doc.ErrorStr() ? doc.ErrorStr() : "";
  const size_t colon = detail.find(": ");
  if (colon != std::string::npos) what += " (" + detail.substr(colon + 2) + ")";
  return "malformed XML: " + what;
}

}  // namespace eom::detail
