// The text of a contact set, FRAME[:1d|:3d|:6d] and FRAME=WEIGHT, read against a model's frames.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "eom/algorithm/contact_set.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// One contact from its text, FRAME or FRAME:3d (a point contact), FRAME:6d or FRAME:1d (along
/// `normal`). Throws InputError for an unknown frame (naming close matches), an unknown kind, a
/// frame no joint moves (it constrains nothing: the world, or a link welded to a fixed base) and
/// for a 1d contact whose normal is not a unit vector (unit_contact_normal).
Contact parse_contact(const Model& model, std::string_view text, const Vec3& normal);
/// The contacts of several texts; throws InputError for a frame given twice.
ContactSet parse_contacts(const Model& model, const std::vector<std::string>& texts,
                          const Vec3& normal);
/// Sets the weight of the contact named by FRAME=w (w > 0, finite). Throws InputError otherwise,
/// or when FRAME is no contact of the set.
void parse_contact_weight(const Model& model, std::string_view text, ContactSet& contacts);

}  // namespace eom
