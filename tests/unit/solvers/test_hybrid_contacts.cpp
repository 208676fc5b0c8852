// The held and scheduled contacts' parts against a box (2 kg, 0.4 x 0.2 x 0.1 m, a contact at each
// bottom corner: tests/data/urdf/box_corners_centred.urdf) resting on its corners: a schedule's
// switches open and close them (closing at rest, an impact that loses nothing), and the contacts a
// run cannot start with are refused. The ground's contacts are time-stepped
// (test_time_stepping_contacts.cpp).

#include <catch2/catch.hpp>

#include <algorithm>

#include <eom/core/errors.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/solvers/controllers.hpp>

#include "paths.hpp"
#include "solvers/hybrid_contacts.hpp"

using namespace eom;
using namespace eom::test;

namespace {

Model floating_box() {
  LoadOptions floating;
  floating.floating_base = true;
  return load_urdf(kDataDir + "/urdf/box_corners_centred.urdf", floating);
}

// The box level, its centre at height z (the corners 0.05 m below it), at rest.
Eigen::VectorXd level(const Model& model, double z) {
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  q[2] = z;
  q[6] = 1;
  return q;
}

struct Box {
  Model model = floating_box();
  ContactSet corners =
      point_contacts(model, {"front_left", "front_right", "rear_left", "rear_right"});
  SimulationStats stats;
  HybridContacts contacts{model, stats};
  ZeroTorque passive;
  SimulationOptions options;
  Box() { options.contacts = &corners; }
  long closed() const { return std::count(contacts.active().begin(), contacts.active().end(), 1); }
};

}  // namespace

TEST_CASE("a schedule's switches open and close its contacts", "[hybrid_contacts]") {
  Box box;
  ContactSchedule schedule;
  schedule.times = {0, 0.2, 0.4};
  schedule.active = {{1, 1, 1, 1}, {1, 0, 1, 0}, {1, 1, 1, 1}};
  box.options.schedule = &schedule;
  Eigen::VectorXd q = level(box.model, 0.05), v = Eigen::VectorXd::Zero(box.model.nv);
  box.contacts.start(box.options, box.passive, 0, q, v);
  CHECK(box.closed() == 4);
  CHECK(box.contacts.next_switch(0, 1e-9) == 0.2);
  CHECK(box.contacts.next_switch(0.4, 1e-9) == std::numeric_limits<double>::infinity());
  // the schedule's row decides
  CHECK_FALSE(box.contacts.resolve(0.1, 1e-9, q, v));
  CHECK(box.contacts.resolve(0.2, 1e-9, q, v));
  CHECK(box.contacts.active() == std::vector<char>{1, 0, 1, 0});
  CHECK(box.stats.contact_event_count == 2);
  // closing again at rest: an impact that loses nothing
  CHECK(box.contacts.resolve(0.4, 1e-9, q, v));
  CHECK(box.closed() == 4);
  CHECK(box.stats.impacts == 1);
  CHECK(box.stats.impact_energy_loss == Approx(0).margin(1e-15));
}

TEST_CASE("contacts the run cannot start with are refused", "[hybrid_contacts]") {
  Box box;
  Eigen::VectorXd v = Eigen::VectorXd::Zero(box.model.nv);
  SECTION("a ground and a schedule") {
    box.options.ground = 0;
    ContactSchedule schedule;
    schedule.times = {0};
    schedule.active = {{1, 1, 1, 1}};
    box.options.schedule = &schedule;
    const Eigen::VectorXd q = level(box.model, 0.05);
    CHECK_THROWS_AS(box.contacts.start(box.options, box.passive, 0, q, v), InputError);
  }
  SECTION("a held contact that moves") {
    v[0] = 0.1;
    const Eigen::VectorXd q = level(box.model, 0.05);
    CHECK_THROWS_AS(box.contacts.start(box.options, box.passive, 0, q, v), InputError);
  }
}
