#include "eom/algorithm/contact_set.hpp"

#include <cmath>
#include <sstream>

#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"
#include "core/tolerances.hpp"

namespace eom {

int constraint_count(ContactKind kind) {
  switch (kind) {
    case ContactKind::normal:
      return 1;
    case ContactKind::point:
      return 3;
    case ContactKind::frame:
      break;
  }
  return 6;
}

int ContactSet::size() const { return offset(static_cast<int>(contacts.size())); }

int ContactSet::offset(int contact) const {
  int rows = 0;
  for (int k = 0; k < contact; ++k) rows += constraint_count(contacts[k].kind);
  return rows;
}

int ContactSet::find(int frame) const {
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    if (contacts[k].frame == frame) return static_cast<int>(k);
  }
  return -1;
}

Vec3 unit_contact_normal(const Vec3& normal) {
  const double norm = normal.norm();
  if (!(std::abs(norm - 1) <= detail::kGivenUnitNorm)) {
    std::ostringstream message;
    message << "expected a unit vector (its norm is " << number_text(norm) << ")";
    throw InputError(message.str());
  }
  return normal / norm;
}

void add_contact(const Model& model, int frame, ContactKind kind, const Vec3& normal,
                 ContactSet& set) {
  const std::string& name = model.frames[frame].name;
  if (model.frames[frame].parent == 0) {
    throw InputError("no joint moves frame " + quote_input(name) +
                     " (it is welded to the fixed base), so a contact on it constrains nothing");
  }
  Contact contact{frame, kind};
  if (kind == ContactKind::normal) {
    try {
      contact.normal = unit_contact_normal(normal);
    } catch (const InputError& e) {
      throw InputError("its normal: " + e.message());
    }
  }
  if (set.find(frame) >= 0) throw InputError("frame " + quote_input(name) + " is given twice");
  set.contacts.push_back(contact);
}

ContactSet point_contacts(const Model& model, const std::vector<std::string>& frame_names) {
  ContactSet set;
  for (const auto& name : frame_names) {
    add_contact(model, model.require_frame(name), ContactKind::point, Vec3::UnitZ(), set);
  }
  return set;
}

std::vector<std::string> contact_force_components(ContactKind kind) {
  switch (kind) {
    case ContactKind::normal:
      return {"fn"};
    case ContactKind::point:
      return {"fx", "fy", "fz"};
    case ContactKind::frame:
      break;
  }
  return {"fx", "fy", "fz", "mx", "my", "mz"};
}

}  // namespace eom
