// Centroidal quantities worked by hand: a single body's momentum (the rod, turned, moving and
// spinning), the zero moment point of a box standing still (its centre of mass on the ground, the
// lever rule's centre) and accelerating (shifted by m a h / (m g)), and the centre of pressure of
// its four corners' forces equal to that zero moment point when they hold it (coplanar contacts).

#include <catch2/catch.hpp>

#include <cmath>

#include <Eigen/Geometry>

#include <eom/algorithm/centroidal.hpp>
#include <eom/algorithm/contacts.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/parsers/urdf.hpp>

#include "matchers.hpp"
#include "models.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("a single body's momentum: m v and I_c w, in world axes", "[centroidal]") {
  // the rod (m = 2, I_c = diag(0.01, 1/6, 1/6)) at (1, 2, 3), turned a quarter turn about z: its x
  // axis is world y. Body twist: 1 m/s along its x, 2 rad/s about its z (world z) and 3 about its
  // x (world y). Then l = m (0, 1, 0) = (0, 2, 0), and about the centre (its origin)
  // k = R I_c R^T w = (0, 0.01 * 3, 2 / 6): world y is its x axis (0.01), world z its z (1/6).
  const Model rod = load_floating_test_urdf("rod.urdf");
  Data data(rod);
  Eigen::VectorXd q(7);
  q << 1, 2, 3, 0, 0, std::sin(M_PI / 4), std::cos(M_PI / 4);
  Eigen::VectorXd v(6);
  v << 1, 0, 0, 3, 0, 2;
  const Force h = centroidal_momentum(rod, data, q, v);
  CHECK_THAT(data.com, AllClose(Vec3(1, 2, 3), 1e-15));
  CHECK_THAT(h.lin, AllClose(Vec3(0, 2, 0), 1e-15));
  CHECK_THAT(h.ang, AllClose(Vec3(0, 0.03, 2.0 / 6), 1e-15));
}

TEST_CASE("the zero moment point of a box and the centre of pressure of its corners",
          "[centroidal]") {
  // the 2 kg box with its centre of mass shifted (box_corners_shifted.urdf) stands on its corners,
  // which are on the ground z = 0 (the base 0.05 m above it)
  const Model box = load_floating_test_urdf("box_corners_shifted.urdf");
  Data data(box);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(7);
  q[2] = 0.05;
  q[6] = 1;
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(6);
  const Vec3 com = center_of_mass(box, data, q);
  // at rest: under the centre of mass
  std::optional<Eigen::Vector2d> zmp =
      zero_moment_point(environment_wrench(box, data, q, zero, zero), 0);
  REQUIRE(zmp);
  CHECK_THAT(Eigen::VectorXd(*zmp), AllClose(com.head<2>(), 1e-12));
  // accelerating at 1 m/s^2 along x (no rotation): the ground pushes m a along x at the height h
  // of the centre of mass, the ZMP moves back by h a / g
  Eigen::VectorXd a = zero;
  a[0] = 1;
  const Force wrench = environment_wrench(box, data, q, zero, a);
  zmp = zero_moment_point(wrench, 0);
  REQUIRE(zmp);
  CHECK_THAT(Eigen::VectorXd(*zmp),
             AllClose(Eigen::Vector2d(com.x() - com.z() * 1 / 9.81, com.y()), 1e-12));
  // the four corners, on the ground, supply that motion (no residual): the centre of pressure of
  // their forces is the ZMP
  const ContactSet corners =
      point_contacts(box, {"front_left", "front_right", "rear_left", "rear_right"});
  ContactInverseDynamics id(box, corners, ContactForceRule::min_norm);
  id.solve(q, rnea(box, data, q, zero, a));
  REQUIRE(id.residual().norm() < 1e-12);
  const std::optional<Eigen::Vector2d> cop =
      zero_moment_point(total_contact_wrench(id.jacobian(), id.forces()), 0);
  REQUIRE(cop);
  CHECK_THAT(Eigen::VectorXd(*cop), AllClose(*zmp, 1e-12));
  // nothing pressing (free fall): no point
  Eigen::VectorXd falling = zero;
  falling[2] = -9.81;
  CHECK_FALSE(zero_moment_point(environment_wrench(box, data, q, zero, falling), 0));
}
