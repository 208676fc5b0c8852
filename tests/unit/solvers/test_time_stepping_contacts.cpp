// The time-stepping ground contacts against closed forms, on a box (2 kg, 0.4 x 0.2 x 0.1 m, a
// point contact at each bottom corner: tests/data/urdf/box_corners_centred.urdf) under gravity
// alone: sliding with v0 and friction mu it stops after v0 / (mu g) having travelled
// v0^2 / (2 mu g); dropped it lands on the ground, never below, and rests with its weight on its
// corners; on a slope (gravity tilted by theta) it sticks when tan(theta) < mu and slides at
// g (sin(theta) - mu cos(theta)) otherwise; the same far from the origin and turned about z.
// With a friction pyramid of N facets the box slides against the polygon's support in its
// direction: mu g along a facet's normal, mu g / cos(pi / N) towards a vertex. On planes of any
// normal through where the corners are (a schedule's contacts) the box on a slope does the same,
// and contacts opened and closed again leave the problem and hold where they close.

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/parsers/urdf.hpp>

#include "core/constants.hpp"
#include "paths.hpp"
#include "solvers/time_stepping_contacts.hpp"

using namespace eom;
using namespace eom::test;
using eom::detail::kPi;

namespace {

constexpr double kStepGravity = 9.81, kStepBoxMass = 2, kStepH = 1e-3;

struct SteppedBox {
  Model model;
  ContactSet corners;
  TimeSteppingContacts contacts;
  TimeSteppingSettings settings;
  Eigen::VectorXd q, v, q_next, v_next, tau;
  double t = 0;

  explicit SteppedBox(const Vec3& gravity = Vec3(0, 0, -kStepGravity))
      : model(load(gravity)),
        corners(point_contacts(model, {"front_left", "front_right", "rear_left", "rear_right"})),
        contacts(model, corners),
        q(Eigen::VectorXd::Zero(model.nq)),
        v(Eigen::VectorXd::Zero(model.nv)),
        q_next(model.nq),
        v_next(model.nv),
        tau(Eigen::VectorXd::Zero(model.nv)) {
    q[2] = 0.05;  // the corners on the ground
    q[6] = 1;
  }
  static Model load(const Vec3& gravity) {
    LoadOptions floating;
    floating.floating_base = true;
    Model m = load_urdf(kDataDir + "/urdf/box_corners_centred.urdf", floating);
    m.gravity = gravity;
    return m;
  }
  // turned by yaw about z, its centre at (x, y, z)
  void place(double x, double y, double z, double yaw) {
    q.head<3>() << x, y, z;
    q.segment<4>(3) << 0, 0, std::sin(yaw / 2), std::cos(yaw / 2);
  }
  void start() { contacts.start(settings, q); }
  void step() {
    contacts.step(q, v, tau, kStepH, q_next, v_next);
    q.swap(q_next);
    v.swap(v_next);
    t += kStepH;
  }
  double upward_force() const {
    double up = 0;
    for (int k = 0; k < 4; ++k) up += contacts.forces()[corners.offset(k) + 2];
    return up;
  }
  double energy() {
    Data data(model);
    return kinetic_energy(model, data, q, v) + potential_energy(model, data, q);
  }
};

// Slides the box (yawed by `yaw`, its centre at x0, y0) along its own x axis at v0 until it
// stops; returns the distance travelled and the time it stopped.
std::pair<double, double> slide(double mu, double v0, double x0, double y0, double yaw,
                                int facets = 0) {
  SteppedBox box;
  box.settings.friction_coefficient = mu;
  box.settings.friction_facets = facets;
  box.place(x0, y0, 0.05, yaw);
  box.v[0] = v0;  // the base's velocity in its own axes
  box.start();
  double stopped = -1;
  while (box.t < 2 * v0 / (mu * kStepGravity)) {
    box.step();
    REQUIRE(box.contacts.converged());
    if (stopped < 0 && box.v.head<3>().norm() < 1e-9) stopped = box.t;
  }
  // sliding straight: along its own x, without turning or leaving the ground
  const Eigen::Vector2d moved(box.q[0] - x0, box.q[1] - y0);
  CHECK(std::abs(moved.y() * std::cos(yaw) - moved.x() * std::sin(yaw)) < 1e-9);
  CHECK(std::abs(box.q[2] - 0.05) < 1e-9);
  CHECK(box.v.norm() < 1e-9);
  return {moved.norm(), stopped};
}

}  // namespace

TEST_CASE("a box sliding on the ground stops after v0^2 / (2 mu g)", "[time_stepping]") {
  const double mu = 0.5, v0 = 1;
  const auto [distance, stopped] = slide(mu, v0, 0, 0, 0);
  // semi-implicit Euler: v_k = v0 - k mu g h and x moves by h v_(k+1), short of the exact
  // distance by at most v0 h (first order)
  CHECK(distance == Approx(v0 * v0 / (2 * mu * kStepGravity)).margin(v0 * kStepH));
  CHECK(stopped == Approx(v0 / (mu * kStepGravity)).margin(2 * kStepH));

  SECTION("the same far from the origin and turned about z") {
    const auto [far_distance, far_stopped] = slide(mu, v0, 1e3, -2e2, 0.3);
    CHECK(far_distance == Approx(distance).margin(1e-9));
    CHECK(far_stopped == Approx(stopped).margin(1e-12));
  }
}

TEST_CASE("a box sliding against a friction pyramid decelerates by the polygon's support",
          "[time_stepping]") {
  const double mu = 0.5, v0 = 1;
  // facets' normals at 2 pi i / N from world x; friction opposes the sliding, so what counts is
  // the polygon's support in the direction -v: its inradius (mu) where -v is a facet's normal,
  // its circumradius (mu / cos(pi / N)) where -v points at a vertex, pi / N from a normal
  struct Case {
    int facets;
    double direction, support;
  };
  for (const Case& c :
       {Case{4, 0, 1}, Case{4, kPi / 4, std::sqrt(2.0)}, Case{6, 0, 1},
        Case{6, kPi / 6, 2 / std::sqrt(3.0)}, Case{3, kPi, 1}, Case{3, 4 * kPi / 3, 2},
        Case{720, kPi + kPi / 720, 1 / std::cos(kPi / 720)}}) {
    CAPTURE(c.facets, c.direction);
    const double deceleration = c.support * mu * kStepGravity;
    const auto [distance, stopped] = slide(mu, v0, 300, -40, c.direction, c.facets);
    CHECK(distance == Approx(v0 * v0 / (2 * deceleration)).margin(v0 * kStepH));
    CHECK(stopped == Approx(v0 / deceleration).margin(2 * kStepH));
  }
}

TEST_CASE("a dropped box lands on the ground and rests on its corners", "[time_stepping]") {
  SteppedBox box;
  box.settings.friction_coefficient = 0.8;
  box.q[2] = 0.15;  // the corners 0.1 m above the ground
  box.start();
  double e = box.energy(), touchdown = -1;
  const double e0 = e;
  while (box.t < 1) {
    box.step();
    REQUIRE(box.contacts.converged());
    // never below the ground; the energy never grows (passive)
    CHECK(box.contacts.heights().minCoeff() >= -1e-12);
    const double now = box.energy();
    CHECK(now <= e + 1e-9);
    e = now;
    if (touchdown < 0 && box.contacts.active()[0]) touchdown = box.t;
  }
  // the first step whose impulse presses ends within one step after the touchdown
  const double exact = std::sqrt(2 * 0.1 / kStepGravity);
  CHECK(touchdown >= exact - 1e-12);
  CHECK(touchdown <= exact + 2 * kStepH);
  // at rest on the ground, m g 0.1 lost, its weight on the corners: the four corners are
  // redundant (any split with the weight's resultant under the centre holds it), so the statics
  // fix the sums of each side, half the weight each
  CHECK(box.q[2] == Approx(0.05).margin(1e-12));
  CHECK(box.v.norm() < 1e-12);
  CHECK(e0 - e == Approx(kStepBoxMass * kStepGravity * 0.1).epsilon(1e-9));
  CHECK(box.upward_force() == Approx(kStepBoxMass * kStepGravity).epsilon(1e-9));
  auto normal = [&](int k) { return box.contacts.forces()[box.corners.offset(k) + 2]; };
  const double half = kStepBoxMass * kStepGravity / 2;
  CHECK(normal(0) + normal(1) == Approx(half).epsilon(1e-9));  // front
  CHECK(normal(2) + normal(3) == Approx(half).epsilon(1e-9));  // rear
  CHECK(normal(0) + normal(2) == Approx(half).epsilon(1e-9));  // left
  CHECK(normal(1) + normal(3) == Approx(half).epsilon(1e-9));  // right
}

TEST_CASE("a box dropped with restitution e bounces at e times its landing speed",
          "[time_stepping]") {
  SteppedBox box;
  box.settings.friction_coefficient = 0.8;
  box.settings.restitution = 0.5;
  box.q[2] = 0.15;
  box.start();
  double fastest_up = 0;
  while (box.t < std::sqrt(2 * 0.1 / kStepGravity) + 0.02) {
    box.step();
    fastest_up = std::max(fastest_up, box.v[2]);
  }
  // the landing speed sqrt(2 g 0.1), to O(h) (the step before the touchdown is cut short)
  CHECK(fastest_up ==
        Approx(0.5 * std::sqrt(2 * kStepGravity * 0.1)).margin(2 * kStepGravity * kStepH));
}

TEST_CASE("a box on a slope sticks when tan(theta) < mu and slides otherwise", "[time_stepping]") {
  const double mu = 0.5;
  // gravity tilted by theta about y: the ground's slope, downhill along +x
  auto tilted = [](double theta) {
    return Vec3(kStepGravity * std::sin(theta), 0, -kStepGravity * std::cos(theta));
  };
  SECTION("tan(theta) = 0.4 < mu: it sticks") {
    SteppedBox box(tilted(std::atan(0.4)));
    box.settings.friction_coefficient = mu;
    box.start();
    while (box.t < 1) box.step();
    CHECK(std::abs(box.q[0]) < 1e-9);
    CHECK(box.v.norm() < 1e-9);
    CHECK(box.upward_force() == Approx(kStepBoxMass * kStepGravity * std::cos(std::atan(0.4))));
  }
  SECTION("tan(theta) = 0.7 > mu: it slides at g (sin - mu cos)") {
    const double theta = std::atan(0.7);
    SteppedBox box(tilted(theta));
    box.settings.friction_coefficient = mu;
    box.start();
    while (box.t < 1 - 1e-9) box.step();
    const double a = kStepGravity * (std::sin(theta) - mu * std::cos(theta));
    // semi-implicit Euler is exact for the velocity under a constant acceleration
    CHECK(box.v[0] == Approx(a * 1).epsilon(1e-9));
    CHECK(std::abs(box.v[1]) < 1e-12);
    CHECK(box.q[0] == Approx(a / 2).margin(a * kStepH));
  }
}

TEST_CASE("time-stepping contacts refuse settings out of range and a start below the ground",
          "[time_stepping]") {
  SteppedBox box;
  box.settings.friction_coefficient = 0;
  CHECK_THROWS_AS(box.start(), InputError);
  box.settings.friction_coefficient = std::nan("");
  CHECK_THROWS_AS(box.start(), InputError);
  box.settings.friction_coefficient = 1;
  box.settings.restitution = 1.5;
  CHECK_THROWS_AS(box.start(), InputError);
  box.settings.restitution = 0;
  box.settings.friction_facets = 2;
  CHECK_THROWS_WITH(box.start(), Catch::Contains("at least 3 facets"));
  box.settings.friction_facets = 0;
  box.q[2] = 0.04;
  CHECK_THROWS_WITH(box.start(), Catch::Contains("front_left") && Catch::Contains("below"));
}

TEST_CASE("a box on a plane of any normal slides as on a slope, far from the origin",
          "[time_stepping]") {
  // The box pitched by theta about y, its corners closed on the plane of normal
  // n = (sin theta, 0, cos theta) through where they are (a schedule's contacts), 1 km from the
  // origin, under vertical gravity: the slope of the tilted-gravity case, so it sticks when
  // tan(theta) <= mu and slides down along its own x at g (sin theta - mu cos theta) otherwise,
  // on the plane. Downhill is the plane's first tangent (world x projected on it): a pyramid of 4
  // facets meets mu there as the cone does.
  const double mu = 0.5;
  const std::vector<char> all(4, 1);
  for (const int facets : {0, 4}) {
    for (const double slope : {0.4, 0.7}) {
      CAPTURE(facets, slope);
      const double theta = std::atan(slope);
      SteppedBox box;
      box.settings.friction_coefficient = mu;
      box.settings.friction_facets = facets;
      box.settings.normal = Vec3(std::sin(theta), 0, std::cos(theta));
      box.q.head<3>() << 1e3, -2e2, 50;
      box.q.segment<4>(3) << 0, std::sin(theta / 2), 0, std::cos(theta / 2);
      const Eigen::VectorXd q0 = box.q;
      box.contacts.start(box.settings, box.q, &all);
      CHECK(box.contacts.heights().cwiseAbs().maxCoeff() == 0);
      while (box.t < 1 - 1e-9) {
        box.step();
        REQUIRE(box.contacts.converged());
        CHECK(box.contacts.heights().cwiseAbs().maxCoeff() < 1e-9);  // on its plane
      }
      const Vec3 moved = box.q.head<3>() - q0.head<3>();
      if (slope <= mu) {
        CHECK(moved.norm() < 1e-9);
        CHECK(box.v.norm() < 1e-9);
        double pressing = 0;  // along n: the weight's normal part
        for (int k = 0; k < 4; ++k)
          pressing +=
              box.settings.normal.dot(box.contacts.forces().segment<3>(box.corners.offset(k)));
        CHECK(pressing == Approx(kStepBoxMass * kStepGravity * std::cos(theta)));
        continue;
      }
      const double a = kStepGravity * (std::sin(theta) - mu * std::cos(theta));
      CHECK(box.v[0] == Approx(a).epsilon(1e-9));  // the base's velocity in its own axes
      CHECK(box.v.tail<5>().norm() < 1e-9);
      // downhill, (cos theta, 0, -sin theta), by semi-implicit Euler's a/2 (1 + h)
      CHECK(moved.x() == Approx(a / 2 * (1 + kStepH) * std::cos(theta)).epsilon(1e-9));
      CHECK(moved.z() == Approx(-a / 2 * (1 + kStepH) * std::sin(theta)).epsilon(1e-9));
      CHECK(std::abs(moved.y()) < 1e-9);
    }
  }
}

TEST_CASE("an opened contact leaves the problem and closes on the plane through where it is",
          "[time_stepping]") {
  // The box resting on its corners' planes (through where they are at the start) 1 km up: opened,
  // it falls freely, z = z0 - g h^2 k (k + 1) / 2 after k semi-implicit steps; closed again 0.1 s
  // later, on the planes through where the corners are then, it stops in the first step, there
  SteppedBox box;
  box.settings.friction_coefficient = 0.8;
  box.place(-3e2, 4e2, 1e3, 0.3);
  std::vector<char> closed(4, 1);
  box.contacts.start(box.settings, box.q, &closed);
  for (int k = 0; k < 10; ++k) box.step();
  CHECK(box.v.norm() < 1e-12);
  CHECK(box.upward_force() == Approx(kStepBoxMass * kStepGravity));
  for (int k = 0; k < 4; ++k) box.contacts.open(k);
  CHECK(box.contacts.forces().norm() == 0);
  const double z0 = box.q[2];
  const int falling = 100;
  for (int k = 0; k < falling; ++k) box.step();
  CHECK(box.q[2] ==
        Approx(z0 - kStepGravity * kStepH * kStepH * falling * (falling + 1) / 2).margin(1e-9));
  const double z_closed = box.q[2];
  for (int k = 0; k < 4; ++k) box.contacts.close(k, box.q);
  CHECK(box.contacts.closed(0));
  box.step();
  CHECK(box.v.norm() < 1e-9);
  CHECK(box.q[2] == Approx(z_closed).margin(1e-9));
  for (int k = 0; k < 10; ++k) box.step();
  CHECK(box.q[2] == Approx(z_closed).margin(1e-9));
  CHECK(box.upward_force() == Approx(kStepBoxMass * kStepGravity));
  box.settings.normal = Vec3(0, 0, 2);
  CHECK_THROWS_WITH(box.start(), Catch::Contains("unit"));
}
