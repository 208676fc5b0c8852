// Contact texts: FRAME[:1d|:3d|:6d] read against the test box's frames, FRAME=WEIGHT, and what
// is refused.

#include <catch2/catch.hpp>

#include <eom/algorithm/contact_set_text.hpp>
#include <eom/core/errors.hpp>
#include <eom/parsers/urdf.hpp>

#include "contact_states.hpp"
#include "models.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("contact texts: kinds, normals, weights and what is refused", "[contacts]") {
  const Model box = load_floating_test_urdf("box_corners_centred.urdf");
  const ContactSet set =
      parse_contacts(box, {"front_left", "front_right:1d", "rear_left:6d"}, Vec3(0, 0.6, 0.8));
  REQUIRE(set.contacts.size() == 3);
  CHECK(set.contacts[0].kind == ContactKind::point);
  CHECK(set.contacts[1].kind == ContactKind::normal);
  CHECK(set.contacts[1].normal.isApprox(Vec3(0, 0.6, 0.8)));
  CHECK(set.contacts[2].kind == ContactKind::frame);
  CHECK(set.size() == 10);
  CHECK(set.offset(2) == 4);
  CHECK(set.find(box.require_frame("rear_left")) == 2);
  CHECK(contact_force_components(ContactKind::normal) == std::vector<std::string>{"fn"});

  auto refused = [&](const std::vector<std::string>& texts, const Vec3& normal,
                     const std::string& expected) {
    CHECK_THROWS_WITH(parse_contacts(box, texts, normal), Catch::Contains(expected));
  };
  refused({"front_lft"}, Vec3::UnitZ(), "did you mean 'front_left'");
  refused({"front_left:2d"}, Vec3::UnitZ(), "unknown contact kind '2d'");
  refused({"front_left:1d"}, Vec3(0, 0, 2), "expected a unit vector (its norm is 2)");
  refused({"front_left:1d"}, Vec3::Zero(), "its norm is 0");
  refused({"front_left", "front_left:6d"}, Vec3::UnitZ(), "is given twice");
  // the normal matters only to 1d contacts
  CHECK_NOTHROW(parse_contacts(box, {"front_left"}, Vec3::Zero()));
  // on a fixed base the box's corners are welded to the world
  const Model welded = load_urdf(kDataDir + "/urdf/box_corners_centred.urdf");
  CHECK_THROWS_WITH(parse_contacts(welded, {"front_left"}, Vec3::UnitZ()),
                    Catch::Contains("constrains nothing"));

  ContactSet weighted = corners(box);
  parse_contact_weight(box, "rear_right=2.5", weighted);
  CHECK(weighted.contacts[3].weight == 2.5);
  CHECK_THROWS_WITH(parse_contact_weight(box, "rear_right=0", weighted),
                    Catch::Contains("expected a finite weight > 0"));
  CHECK_THROWS_WITH(parse_contact_weight(box, "rear_right=x", weighted),
                    Catch::Contains("expected a finite weight > 0"));
  CHECK_THROWS_WITH(parse_contact_weight(box, "rear_right", weighted),
                    Catch::Contains("expected FRAME=WEIGHT"));
  // the library names the setting in its own words; the tool spells it --contacts
  CHECK_THROWS_WITH(parse_contact_weight(box, "box=1", weighted),
                    Catch::Equals("'box=1': 'box' is not one of the contacts"));
  try {
    parse_contact_weight(box, "box=1", weighted);
  } catch (const InputError& e) {
    CHECK(e.text([](Setting s) {
      return std::string_view(s == Setting::contacts ? "--contacts" : "?");
    }) == "'box=1': 'box' is not one of the --contacts");
  }
}
