#include "eom/algorithm/contact_set_text.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

#include "eom/core/errors.hpp"

namespace eom {

Contact parse_contact(const Model& model, std::string_view text, const Vec3& normal) {
  const std::size_t colon = text.rfind(':');
  const std::string_view frame_name = text.substr(0, colon);
  Contact contact;
  contact.frame = model.require_frame(frame_name);
  if (colon != std::string_view::npos) {
    const std::string_view kind = text.substr(colon + 1);
    if (kind == "1d") {
      contact.kind = ContactKind::normal;
    } else if (kind == "6d") {
      contact.kind = ContactKind::frame;
    } else if (kind != "3d") {
      throw InputError(quote_input(text) + ": unknown contact kind " + quote_input(kind) +
                       " (expected FRAME, FRAME:1d, FRAME:3d or FRAME:6d)");
    }
  }
  if (model.frames[contact.frame].parent == 0) {
    throw InputError(quote_input(text) + ": no joint moves frame " + quote_input(frame_name) +
                     " (it is welded to the fixed base), so a contact on it constrains nothing");
  }
  if (contact.kind == ContactKind::normal) {
    try {
      contact.normal = unit_contact_normal(normal);
    } catch (const InputError& e) {
      throw InputError(quote_input(text) + ": its normal: " + e.message());
    }
  }
  return contact;
}

ContactSet parse_contacts(const Model& model, const std::vector<std::string>& texts,
                          const Vec3& normal) {
  ContactSet set;
  for (const auto& text : texts) {
    const Contact contact = parse_contact(model, text, normal);
    if (set.find(contact.frame) >= 0) {
      throw InputError(quote_input(text) + ": frame " +
                       quote_input(model.frames[contact.frame].name) + " is given twice");
    }
    set.contacts.push_back(contact);
  }
  return set;
}

void parse_contact_weight(const Model& model, std::string_view text, ContactSet& contacts) {
  const std::size_t equals = text.find('=');
  if (equals == std::string_view::npos) {
    throw InputError(quote_input(text) + ": expected FRAME=WEIGHT");
  }
  const int frame = model.require_frame(text.substr(0, equals));
  const int k = contacts.find(frame);
  if (k < 0) {
    throw InputError(quote_input(text) + ": " + quote_input(text.substr(0, equals)) +
                     " is not one of the " + Setting::contacts);
  }
  const std::string number(text.substr(equals + 1));
  char* end = nullptr;
  const double weight = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !std::isfinite(weight) || weight <= 0) {
    throw InputError(quote_input(text) + ": expected a finite weight > 0");
  }
  contacts.contacts[k].weight = weight;
}

}  // namespace eom
