// The contact set: the rows each kind of contact owns, the offsets of a mixed set, the lookup by
// frame, the unit normal rule, the force component names, and the contacts add_contact refuses.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <eom/algorithm/contact_set.hpp>
#include <eom/core/errors.hpp>
#include <eom/parsers/urdf.hpp>

#include "models.hpp"
#include "paths.hpp"

using namespace eom;

TEST_CASE("a contact set stacks its contacts' rows in order", "[contacts]") {
  CHECK(constraint_count(ContactKind::normal) == 1);
  CHECK(constraint_count(ContactKind::point) == 3);
  CHECK(constraint_count(ContactKind::frame) == 6);
  // a 6d contact on frame 4, a 1d on frame 2, a 3d on frame 7: rows [0, 6), [6, 7), [7, 10)
  ContactSet set;
  set.contacts = {{4, ContactKind::frame}, {2, ContactKind::normal}, {7, ContactKind::point}};
  CHECK(set.size() == 10);
  CHECK(set.offset(0) == 0);
  CHECK(set.offset(1) == 6);
  CHECK(set.offset(2) == 7);
  CHECK(set.offset(3) == 10);
  CHECK(set.find(2) == 1);
  CHECK(set.find(7) == 2);
  CHECK(set.find(3) == -1);
  CHECK(ContactSet{}.size() == 0);
}

TEST_CASE("a contact normal is a unit vector, renormalised within 1e-6", "[contacts]") {
  // (0, 0.6, 0.8 + 5e-7): norm 1 + 4e-7, within the rule; divided by it
  const Vec3 close(0, 0.6, 0.8 + 5e-7);
  const Vec3 unit = unit_contact_normal(close);
  CHECK(unit.norm() == Approx(1).epsilon(1e-15));
  CHECK(unit.y() == Approx(0.6 / close.norm()).epsilon(1e-15));
  CHECK_THROWS_WITH(unit_contact_normal(Vec3(0, 0, 1 + 2e-6)),
                    Catch::Contains("expected a unit vector"));
  CHECK_THROWS_AS(unit_contact_normal(Vec3::Zero()), InputError);
  CHECK_THROWS_AS(unit_contact_normal(Vec3(0, 0, std::nan(""))), InputError);
}

TEST_CASE("the force components of each kind of contact", "[contacts]") {
  using Names = std::vector<std::string>;
  CHECK(contact_force_components(ContactKind::normal) == Names{"fn"});
  CHECK(contact_force_components(ContactKind::point) == Names{"fx", "fy", "fz"});
  CHECK(contact_force_components(ContactKind::frame) == Names{"fx", "fy", "fz", "mx", "my", "mz"});
}

TEST_CASE("add_contact keeps the set's frames distinct and refuses what constrains nothing",
          "[contacts]") {
  const Model box = test::load_floating_test_urdf("box_corners_centred.urdf");
  const int front_left = box.require_frame("front_left");
  ContactSet set = point_contacts(box, {"rear_left", "rear_right"});
  REQUIRE(set.contacts.size() == 2);
  CHECK(set.contacts[1].frame == box.require_frame("rear_right"));
  CHECK(set.contacts[1].kind == ContactKind::point);
  // a 1d contact's normal is renormalised; a 3d contact's is not read
  add_contact(box, front_left, ContactKind::normal, Vec3(0, 0.6, 0.8), set);
  CHECK(set.contacts[2].normal == Vec3(0, 0.6, 0.8) / Vec3(0, 0.6, 0.8).norm());
  CHECK(set.size() == 7);
  ContactSet unread;
  add_contact(box, front_left, ContactKind::point, Vec3::Zero(), unread);
  CHECK(unread.size() == 3);

  CHECK_THROWS_WITH(add_contact(box, front_left, ContactKind::frame, Vec3::UnitZ(), set),
                    Catch::Equals("frame 'front_left' is given twice"));
  CHECK(set.contacts.size() == 3);
  ContactSet other;
  CHECK_THROWS_WITH(add_contact(box, front_left, ContactKind::normal, Vec3(0, 0, 2), other),
                    Catch::Equals("its normal: expected a unit vector (its norm is 2)"));
  CHECK(other.contacts.empty());
  CHECK_THROWS_WITH(point_contacts(box, {"front_lft"}), Catch::Contains("did you mean"));
  // on a fixed base the box's corners are welded to the world
  const Model welded = load_urdf(test::kDataDir + "/urdf/box_corners_centred.urdf");
  CHECK_THROWS_WITH(point_contacts(welded, {"front_left"}),
                    Catch::Equals("no joint moves frame 'front_left' (it is welded to the fixed "
                                  "base), so a contact on it constrains nothing"));
}
