// The contact set: the rows each kind of contact owns, the offsets of a mixed set, the lookup by
// frame, the unit normal rule and the force component names.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <eom/algorithm/contact_set.hpp>
#include <eom/core/errors.hpp>

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
