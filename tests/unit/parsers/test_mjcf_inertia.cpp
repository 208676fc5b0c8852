// MJCF geom inertias against closed forms and an independent integration: the sphere's and box's
// textbook moments, the capsule's by slices (a disk at each height, integrated numerically), and
// the mass of a geom in a model as density * volume.

#include <cmath>
#include <functional>

#include <catch2/catch.hpp>

#include <eom/parsers/mjcf.hpp>

#include "parsers/mjcf_inertia.hpp"

using namespace eom;
using namespace eom::detail;

namespace {

constexpr double kTol = 1e-12;

// composite Simpson's rule over [a, b] with n (even) intervals
double simpson(const std::function<double(double)>& f, double a, double b, int n) {
  const double h = (b - a) / n;
  double sum = f(a) + f(b);
  for (int k = 1; k < n; ++k) sum += (k % 2 ? 4 : 2) * f(a + k * h);
  return sum * h / 3;
}

}  // namespace

TEST_CASE("a sphere: V = 4/3 pi r^3, I = 2/5 m r^2 about every axis", "[mjcf_inertia]") {
  const double r = 0.3;
  const SolidInertia s = sphere_inertia(r);
  CHECK(s.volume == Approx(4.0 / 3 * kPi * 0.027).epsilon(kTol));
  for (int k = 0; k < 3; ++k) CHECK(s.inertia_per_mass[k] == Approx(0.4 * 0.09).epsilon(kTol));
}

TEST_CASE("a box of half-sides a, b, c: V = 8abc, I_xx = m ((2b)^2 + (2c)^2) / 12",
          "[mjcf_inertia]") {
  // sides 0.2, 0.4, 1.0: the solid cuboid's moments m (w^2 + h^2) / 12
  const SolidInertia s = box_inertia(Vec3(0.1, 0.2, 0.5));
  CHECK(s.volume == Approx(0.2 * 0.4 * 1.0).epsilon(kTol));
  CHECK(s.inertia_per_mass[0] == Approx((0.16 + 1.0) / 12).epsilon(kTol));
  CHECK(s.inertia_per_mass[1] == Approx((0.04 + 1.0) / 12).epsilon(kTol));
  CHECK(s.inertia_per_mass[2] == Approx((0.04 + 0.16) / 12).epsilon(kTol));
}

TEST_CASE("a cylinder: V = pi r^2 h, I = m (3r^2 + h^2) / 12 across, m r^2 / 2 along",
          "[mjcf_inertia]") {
  const double r = 0.1, h = 0.6;
  const SolidInertia s = cylinder_inertia(r, h / 2);
  CHECK(s.volume == Approx(kPi * r * r * h).epsilon(kTol));
  CHECK(s.inertia_per_mass[0] == Approx((3 * r * r + h * h) / 12).epsilon(kTol));
  CHECK(s.inertia_per_mass[1] == Approx((3 * r * r + h * h) / 12).epsilon(kTol));
  CHECK(s.inertia_per_mass[2] == Approx(r * r / 2).epsilon(kTol));
}

TEST_CASE("a capsule against its slices integrated", "[mjcf_inertia]") {
  // the solid as disks along z: radius rho(z) = r on the cylinder, sqrt(r^2 - (|z| - h/2)^2) on
  // the caps. A disk of radius rho has area pi rho^2, x^2 integrated over it pi rho^4 / 4, so
  //   V = int pi rho^2,  I_zz / m = int pi rho^4 / 2 / V,  I_xx / m = int (pi rho^4 / 4 + z^2 pi rho^2) / V
  const double r = 0.05, h = 0.5;
  const auto rho2 = [&](double z) {
    const double beyond = std::abs(z) - h / 2;
    return beyond <= 0 ? r * r : r * r - beyond * beyond;
  };
  // each piece is a polynomial in z of degree at most 4: Simpson's error is tiny with 2000 steps
  const auto integral = [&](const std::function<double(double)>& f) {
    return simpson(f, -h / 2 - r, -h / 2, 2000) + simpson(f, -h / 2, h / 2, 2000) +
           simpson(f, h / 2, h / 2 + r, 2000);
  };
  const double V = integral([&](double z) { return kPi * rho2(z); });
  const double Izz = integral([&](double z) { return kPi * rho2(z) * rho2(z) / 2; });
  const double Ixx =
      integral([&](double z) { return kPi * rho2(z) * rho2(z) / 4 + z * z * kPi * rho2(z); });
  const SolidInertia s = capsule_inertia(r, h / 2);
  CHECK(s.volume == Approx(V).epsilon(1e-10));
  CHECK(s.volume == Approx(kPi * r * r * h + 4.0 / 3 * kPi * r * r * r).epsilon(kTol));
  CHECK(s.inertia_per_mass[0] == Approx(Ixx / V).epsilon(1e-10));
  CHECK(s.inertia_per_mass[1] == Approx(Ixx / V).epsilon(1e-10));
  CHECK(s.inertia_per_mass[2] == Approx(Izz / V).epsilon(1e-10));
}

TEST_CASE("an ellipsoid: V = 4/3 pi abc, I_xx = m (b^2 + c^2) / 5; a sphere when a = b = c",
          "[mjcf_inertia]") {
  const SolidInertia s = ellipsoid_inertia(Vec3(0.1, 0.2, 0.3));
  CHECK(s.volume == Approx(4.0 / 3 * kPi * 0.006).epsilon(kTol));
  CHECK(s.inertia_per_mass[0] == Approx((0.04 + 0.09) / 5).epsilon(kTol));
  const SolidInertia round = ellipsoid_inertia(Vec3::Constant(0.3));
  CHECK(round.volume == Approx(sphere_inertia(0.3).volume).epsilon(kTol));
  CHECK(round.inertia_per_mass.isApprox(sphere_inertia(0.3).inertia_per_mass, kTol));
}

TEST_CASE("a model's geoms weigh density * volume, placed in the body", "[mjcf_inertia]") {
  // a box (density 500) at x = 1 and a sphere of given mass 2 at the origin, on one hinge
  const Model model = build_mjcf_model(R"(<mujoco>
  <worldbody>
    <body name="b">
      <joint type="hinge" axis="0 0 1"/>
      <geom type="box" size="0.1 0.2 0.5" density="500" pos="1 0 0"/>
      <geom type="sphere" size="0.3" mass="2"/>
    </body>
  </worldbody>
</mujoco>)",
                                       "geoms.xml");
  const double box = 500 * 0.2 * 0.4 * 1.0;
  const Inertia& I = model.inertia[1];
  CHECK(I.m == Approx(box + 2).epsilon(kTol));
  CHECK(I.c.x() == Approx(box / (box + 2)).epsilon(kTol));
  // about the body's z axis: the box's own moment, its parallel-axis term, the sphere's
  const double Izz = box * (0.04 + 0.16) / 12 + box * 1.0 + 2 * 0.4 * 0.09;
  CHECK(I.about_origin()(2, 2) == Approx(Izz).epsilon(kTol));
}
