// The contact options of id, fd, sim, jac and impact: --contacts and what goes with it, declared
// to CLI11 with the combinations it refuses, and turned into the library's ContactSet.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include <eom/algorithm/contacts.hpp>
#include <eom/multibody/model.hpp>

namespace eom::cli {

struct ContactOptions {
  std::vector<std::string> specs;  // --contacts FRAME[:1d|:3d|:6d],...
  std::vector<double> normal{0, 0, 1};
  ContactForceRule rule = ContactForceRule::min_norm;
  std::vector<std::string> weights;  // FRAME=w
  double fail_on_residual = -1;      // < 0: not asked
  double friction_coefficient = 0;   // --friction-coefficient MU; 0: not asked
};

/// --contacts, --contact-normal, --friction-coefficient (for the inverse dynamics, or when
/// `friction`) and, for the inverse dynamics, --contact-forces, --contact-weights,
/// --fail-on-residual; each of the others needs --contacts, but --contact-normal.
void add_contact_options(CLI::App& cmd, ContactOptions& opt, bool inverse, bool friction = false);
/// --baumgarte KP,KD (ContactForwardDynamics::set_baumgarte), both >= 0; needs --contacts (added
/// before it).
void add_baumgarte_option(CLI::App& cmd, std::vector<double>& gains);

/// One contact from its text, FRAME or FRAME:3d (a point contact), FRAME:6d or FRAME:1d (along
/// `normal`), appended to `set`. Throws InputError for an unknown frame (naming close matches),
/// an unknown kind, and what add_contact refuses, after the text.
void parse_contact(const Model& model, std::string_view text, const Vec3& normal, ContactSet& set);
/// Sets the weight of the contact named by FRAME=w (w > 0, finite). Throws InputError otherwise,
/// or when FRAME is no contact of the set.
void parse_contact_weight(const Model& model, std::string_view text, ContactSet& set);

/// The contacts of the options; throws InputError starting with the option at fault. Empty when
/// --contacts is not given.
ContactSet load_contacts(const Model& model, const ContactOptions& opt);

}  // namespace eom::cli
