// The hybrid contacts' parts against a box (2 kg, 0.4 x 0.2 x 0.1 m, a contact at each bottom
// corner: tests/data/urdf/box_corners_centred.urdf) whose motion a test host gives in closed form:
// dropped from 0.1 m it touches down at sqrt(2 0.1 / g), where the impact takes its velocity and
// m g 0.1 of energy; pulled up by twice its weight, its corners let go, all four at once.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include <eom/core/errors.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/solvers/controllers.hpp>

#include "paths.hpp"
#include "solvers/hybrid_contacts.hpp"

using namespace eom;
using namespace eom::test;

namespace {

constexpr double kGravity = 9.81, kMass = 2;

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

// A host whose steps fall freely from (z0, at rest, t = 0): z = z0 - g t^2 / 2, the base velocity
// (body axes = world axes, the box level) -g t along z; its dynamics push the base up by `lift`.
class FreeFall : public ContactHost {
 public:
  FreeFall(const Model& model, HybridContacts& contacts, double z0)
      : contacts_(contacts),
        z0_(z0),
        q_(level(model, z0)),
        v_(Eigen::VectorXd::Zero(model.nv)),
        tau_(Eigen::VectorXd::Zero(model.nv)) {}
  void solve_dynamics(double, ConstVec q, ConstVec v) override {
    tau_[2] = lift;
    contacts_.dynamics()->solve(q, v, tau_);
  }
  StepEnd trial_step(double t, double h) override {
    const double at = t + h;
    q_[2] = z0_ - 0.5 * kGravity * at * at;
    v_[2] = -kGravity * at;
    return {q_, v_};
  }
  double lift = 0;

 private:
  HybridContacts& contacts_;
  double z0_;
  Eigen::VectorXd q_, v_, tau_;
};

struct Box {
  Model model = floating_box();
  ContactSet corners =
      point_contacts(model, {"front_left", "front_right", "rear_left", "rear_right"});
  SimulationStats stats;
  HybridContacts contacts{model, stats};
  ZeroTorque passive;
  SimulationOptions options;
  Box() {
    options.contacts = &corners;
    options.ground = 0;
  }
  long closed() const { return std::count(contacts.active().begin(), contacts.active().end(), 1); }
};

}  // namespace

TEST_CASE("a dropped box touches down at sqrt(2 h / g) and the impact stops it",
          "[hybrid_contacts]") {
  Box box;
  FreeFall fall(box.model, box.contacts, 0.15);  // the corners 0.1 m above the ground
  Eigen::VectorXd q0 = level(box.model, 0.15), v0 = Eigen::VectorXd::Zero(box.model.nv);
  box.contacts.start(box.options, box.passive, fall, 0, q0, v0);
  CHECK(box.closed() == 0);
  CHECK(box.contacts.next_switch(0, 0) == std::numeric_limits<double>::infinity());

  // detect: not yet after 0.1 s (0.049 m fallen), through the ground after 0.2 s
  const StepEnd short_fall = fall.trial_step(0, 0.1);
  CHECK_FALSE(box.contacts.detect(0, 0.1, q0, short_fall.q, short_fall.v));
  const StepEnd long_fall = fall.trial_step(0, 0.2);
  CHECK(box.contacts.detect(0, 0.2, q0, long_fall.q, long_fall.v));

  // locate: the touchdown time, within event_tolerance (1e-12 s)
  const double touchdown = std::sqrt(2 * 0.1 / kGravity);
  const double t = box.contacts.locate(0, 0.2);
  CHECK(t == Approx(touchdown).margin(1e-11));

  // resolve: the four corners close by one impact, which takes all of the velocity (sticking
  // point contacts) and the kinetic energy m g 0.1
  Eigen::VectorXd q = fall.trial_step(0, t).q, v = fall.trial_step(0, t).v;
  CHECK(v[2] == Approx(-kGravity * touchdown).epsilon(1e-9));
  CHECK(box.contacts.resolve(t, true, 0, q, v));
  CHECK(box.closed() == 4);
  CHECK(v.norm() < 1e-12);
  CHECK(box.stats.impacts == 1);
  CHECK(box.stats.impact_energy_loss == Approx(kMass * kGravity * 0.1).epsilon(1e-9));
  REQUIRE(box.stats.contact_event_count == 4);
  for (const ContactEvent& event : box.stats.contact_events) {
    CHECK(event.t == t);
    CHECK(event.closes);
  }
  // at rest on its corners, they carry the weight, a quarter each (symmetric): none released
  double up = 0;
  for (int k = 0; k < 4; ++k) up += box.contacts.forces()[box.corners.offset(k) + 2];
  CHECK(up == Approx(kMass * kGravity).epsilon(1e-12));
}

TEST_CASE("a box pulled up lets go of the ground at all four corners", "[hybrid_contacts]") {
  Box box;
  FreeFall resting(box.model, box.contacts, 0.05);  // the corners on the ground
  Eigen::VectorXd q = level(box.model, 0.05), v = Eigen::VectorXd::Zero(box.model.nv);
  box.contacts.start(box.options, box.passive, resting, 0, q, v);
  // closed at the start without moving into the ground: no impact, no event
  CHECK(box.closed() == 4);
  CHECK(box.stats.impacts == 0);
  CHECK(box.stats.contact_event_count == 0);
  // twice the weight upwards: each corner would pull by a quarter of the weight; released, the
  // corners tie (symmetric) and open together
  resting.lift = 2 * kMass * kGravity;
  CHECK(box.contacts.resolve(0.5, true, 0, q, v));
  CHECK(box.closed() == 0);
  REQUIRE(box.stats.contact_event_count == 4);
  for (const ContactEvent& event : box.stats.contact_events) {
    CHECK(event.t == 0.5);
    CHECK_FALSE(event.closes);
  }
  CHECK(box.stats.impacts == 0);
}

TEST_CASE("a schedule's switches open and close its contacts", "[hybrid_contacts]") {
  Box box;
  ContactSchedule schedule;
  schedule.times = {0, 0.2, 0.4};
  schedule.active = {{1, 1, 1, 1}, {1, 0, 1, 0}, {1, 1, 1, 1}};
  box.options.ground.reset();
  box.options.schedule = &schedule;
  FreeFall resting(box.model, box.contacts, 0.05);
  Eigen::VectorXd q = level(box.model, 0.05), v = Eigen::VectorXd::Zero(box.model.nv);
  box.contacts.start(box.options, box.passive, resting, 0, q, v);
  CHECK(box.closed() == 4);
  CHECK(box.contacts.next_switch(0, 1e-9) == 0.2);
  CHECK(box.contacts.next_switch(0.4, 1e-9) == std::numeric_limits<double>::infinity());
  // no event to locate: the schedule's row decides
  CHECK_FALSE(box.contacts.detect(0, 0.1, q, q, v));
  CHECK_FALSE(box.contacts.resolve(0.1, false, 1e-9, q, v));
  CHECK(box.contacts.resolve(0.2, false, 1e-9, q, v));
  CHECK(box.contacts.active() == std::vector<char>{1, 0, 1, 0});
  CHECK(box.stats.contact_event_count == 2);
  // closing again at rest: an impact that loses nothing
  CHECK(box.contacts.resolve(0.4, false, 1e-9, q, v));
  CHECK(box.closed() == 4);
  CHECK(box.stats.impacts == 1);
  CHECK(box.stats.impact_energy_loss == Approx(0).margin(1e-15));
}

TEST_CASE("contacts the run cannot start with are refused", "[hybrid_contacts]") {
  Box box;
  FreeFall host(box.model, box.contacts, 0.05);
  Eigen::VectorXd v = Eigen::VectorXd::Zero(box.model.nv);
  SECTION("a corner below the ground") {
    const Eigen::VectorXd q = level(box.model, 0.04);
    CHECK_THROWS_AS(box.contacts.start(box.options, box.passive, host, 0, q, v), InputError);
  }
  SECTION("a ground and a schedule") {
    ContactSchedule schedule;
    schedule.times = {0};
    schedule.active = {{1, 1, 1, 1}};
    box.options.schedule = &schedule;
    const Eigen::VectorXd q = level(box.model, 0.05);
    CHECK_THROWS_AS(box.contacts.start(box.options, box.passive, host, 0, q, v), InputError);
  }
  SECTION("a held contact that moves") {
    box.options.ground.reset();
    v[0] = 0.1;
    const Eigen::VectorXd q = level(box.model, 0.05);
    CHECK_THROWS_AS(box.contacts.start(box.options, box.passive, host, 0, q, v), InputError);
  }
}
