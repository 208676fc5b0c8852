#include "contact_options.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>

#include "cli.hpp"

namespace eom::cli {

namespace {

const NamedValues<ContactForceRule> kRules = {{"min-norm", ContactForceRule::min_norm},
                                              {"min-torque", ContactForceRule::min_torque},
                                              {"measured", ContactForceRule::measured}};

}  // namespace

void add_contact_options(CLI::App& cmd, ContactOptions& opt, bool inverse, bool friction) {
  CLI::Option* contacts =
      cmd.add_option("--contacts", opt.specs,
                     "Frames held by the environment: FRAME or FRAME:3d (a point), FRAME:6d (a "
                     "whole frame), FRAME:1d (a point along --contact-normal), comma-separated")
          ->delimiter(',');
  cmd.add_option("--contact-normal", opt.normal,
                 "Unit contact normal nx,ny,nz in world axes: the direction of 1d contacts and "
                 "the normal of friction.<frame> in eom id (default 0,0,1)")
      ->delimiter(',')
      ->expected(3)
      ->default_str("0,0,1");
  if (friction || inverse) {
    needs(cmd.add_option("--friction-coefficient", opt.friction_coefficient,
                         "Report on stderr the rows whose contacts need more friction than MU, "
                         "|f_t| / f_n > MU (the contact would slip), and those whose contact "
                         "force pulls")
              ->check(kPositive),
          contacts);
  }
  if (!inverse) return;
  needs(add_choice(cmd, "--contact-forces", opt.rule, kRules,
                   "How the contact forces are found: min-norm (least weighted norm that holds "
                   "the base; default), min-torque (least joint torques) or measured (read from "
                   "f.<frame>.* columns)"),
        contacts);
  needs(cmd.add_option("--contact-weights", opt.weights,
                       "FRAME=W,...: weights of the min-norm distribution (default 1; a heavier "
                       "contact takes a larger share)")
            ->delimiter(','),
        contacts);
  needs(cmd.add_option("--fail-on-residual", opt.fail_on_residual,
                       "Exit 1, writing no output file, when a row's residual.norm (the base "
                       "wrench the contacts cannot supply) exceeds TOL")
            ->check(kNonNegative),
        contacts);
}

void parse_contact(const Model& model, std::string_view text, const Vec3& normal, ContactSet& set) {
  const std::size_t colon = text.rfind(':');
  const int frame = model.require_frame(text.substr(0, colon));
  ContactKind kind = ContactKind::point;
  if (colon != std::string_view::npos) {
    const std::string_view name = text.substr(colon + 1);
    if (name == "1d") {
      kind = ContactKind::normal;
    } else if (name == "6d") {
      kind = ContactKind::frame;
    } else if (name != "3d") {
      throw InputError(quote_input(text) + ": unknown contact kind " + quote_input(name) +
                       " (expected FRAME, FRAME:1d, FRAME:3d or FRAME:6d)");
    }
  }
  try {
    add_contact(model, frame, kind, normal, set);
  } catch (const InputError& e) {
    throw InputError(quote_input(text) + ": " + e.message());
  }
}

void parse_contact_weight(const Model& model, std::string_view text, ContactSet& set) {
  const std::size_t equals = text.find('=');
  if (equals == std::string_view::npos) {
    throw InputError(quote_input(text) + ": expected FRAME=WEIGHT");
  }
  const int k = set.find(model.require_frame(text.substr(0, equals)));
  if (k < 0) {
    throw InputError(quote_input(text) + ": " + quote_input(text.substr(0, equals)) +
                     " is not one of the --contacts");
  }
  const std::string number(text.substr(equals + 1));
  char* end = nullptr;
  const double weight = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !std::isfinite(weight) || weight <= 0) {
    throw InputError(quote_input(text) + ": expected a finite weight > 0");
  }
  set.contacts[k].weight = weight;
}

void add_baumgarte_option(CLI::App& cmd, std::vector<double>& gains) {
  needs(cmd.add_option("--baumgarte", gains,
                       "KP,KD: hold the contacts' accelerations at -KD J_c v - KP e, e their "
                       "drift from where each became active (Baumgarte stabilisation; default "
                       "0,0)")
            ->delimiter(',')
            ->expected(2)
            ->check(kNonNegative),
        cmd.get_option("--contacts"));
}

ContactSet load_contacts(const Model& model, const ContactOptions& opt) {
  if (opt.specs.empty()) return {};
  const Vec3 given(opt.normal[0], opt.normal[1], opt.normal[2]);
  Vec3 normal;
  try {
    normal = unit_contact_normal(given);
  } catch (const InputError& e) {
    std::ostringstream text;
    text << "--contact-normal " << number_text(given.x()) << "," << number_text(given.y()) << ","
         << number_text(given.z()) << ": " << e.message();
    throw InputError(text.str());
  }
  ContactSet set;
  try {
    for (const auto& text : opt.specs) parse_contact(model, text, normal, set);
  } catch (const InputError& e) {
    throw InputError("--contacts: " + e.message());
  }
  if (!opt.weights.empty() && opt.rule != ContactForceRule::min_norm) {
    throw InputError("--contact-weights weigh the min-norm distribution, not --contact-forces " +
                     name_of(kRules, opt.rule));
  }
  for (const auto& item : opt.weights) {
    try {
      parse_contact_weight(model, item, set);
    } catch (const InputError& e) {
      throw InputError("--contact-weights: " + e.message());
    }
  }
  return set;
}

}  // namespace eom::cli
