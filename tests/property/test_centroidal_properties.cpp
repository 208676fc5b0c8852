// Centroidal quantities on every reference robot, fixed and floating: the linear momentum is the
// mass times the velocity of the centre of mass (central differences of the centre of mass along
// the motion), the wrench the environment exerts is the rate of change of the momentum about the
// world origin minus the weight's wrench (central differences of the momentum), and at rest the
// zero moment point is the centre of mass's projection on the ground, at any ground height.

#include <catch2/catch.hpp>

#include <eom/algorithm/centroidal.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/multibody/configuration.hpp>

#include "matchers.hpp"
#include "models.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// central differences of step 1e-5: truncation error ~1e-10 of the third derivative, round-off
// ~1e-16 / 1e-5 = 1e-11 of the values; 1e-6 relative leaves room for both
constexpr double kTimeStep = 1e-5;
constexpr double kTolDifference = 1e-6;

// the state at time t along q(t) = q (+) (t v + t^2 / 2 a), whose body velocity is v + t a up to
// O(t^2) terms that cancel in central differences
struct Path {
  const Model& model;
  Eigen::VectorXd q, v, a;
  Eigen::VectorXd at(double t) const { return integrate(model, q, t * v + 0.5 * t * t * a); }
  Eigen::VectorXd velocity(double t) const { return v + t * a; }
};

// the momentum about the world origin: [l; k_c + c x l]
Vec6 momentum_about_origin(const Model& model, Data& data, const Eigen::VectorXd& q,
                           const Eigen::VectorXd& v) {
  const Force h = centroidal_momentum(model, data, q, v);
  Vec6 out;
  out << h.lin, h.ang + data.com.cross(h.lin);
  return out;
}

}  // namespace

TEST_CASE("centroidal momentum: l = m c_dot, and the environment's wrench is dh/dt - weight",
          "[property][centroidal]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model);
  Rng rng(robot.seed + 500);
  for (int k = 0; k < 5; ++k) {
    const Path path{model, random_configuration(model, rng), random_tangent(model, rng),
                    random_tangent(model, rng)};
    const Force h = centroidal_momentum(model, data, path.q, path.v);
    const double mass = data.mass;
    const Vec3 com = data.com;
    // l = m dc/dt
    const Vec3 ahead = center_of_mass(model, data, path.at(kTimeStep));
    const Vec3 behind = center_of_mass(model, data, path.at(-kTimeStep));
    const Vec3 com_velocity = (ahead - behind) / (2 * kTimeStep);
    CHECK_THAT(h.lin, AllClose(mass * com_velocity, kTolDifference * (1 + h.lin.norm())));
    // dh_o/dt = W_environment + (m g, c x m g)
    const Vec6 rate =
        (momentum_about_origin(model, data, path.at(kTimeStep), path.velocity(kTimeStep)) -
         momentum_about_origin(model, data, path.at(-kTimeStep), path.velocity(-kTimeStep))) /
        (2 * kTimeStep);
    const Force wrench = environment_wrench(model, data, path.q, path.v, path.a);
    const Vec3 weight = mass * model.gravity;
    Vec6 expected;
    expected << wrench.lin + weight, wrench.ang + com.cross(weight);
    CHECK_THAT(rate, AllClose(expected, kTolDifference * (1 + expected.norm())));
  }
}

TEST_CASE("at rest the zero moment point is the centre of mass on the ground",
          "[property][centroidal]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model);
  Rng rng(robot.seed + 600);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(model.nv);
  for (int k = 0; k < 5; ++k) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    const Vec3 com = center_of_mass(model, data, q);
    const Force wrench = environment_wrench(model, data, q, zero, zero);
    // the weight alone, straight down: the same point at any height of the ground
    for (const double height : {0.0, 0.7, -3.0}) {
      const std::optional<Eigen::Vector2d> zmp = zero_moment_point(wrench, height);
      REQUIRE(zmp);
      CHECK_THAT(Eigen::VectorXd(*zmp), AllClose(com.head<2>(), 1e-12 * (1 + com.norm())));
    }
  }
}
