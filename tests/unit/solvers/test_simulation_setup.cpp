// Around a simulation run: output times, whether they fall on the fixed steps, the energy record
// of a summary and the coordinates of a state outside the limits, against hand-computed values.

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/multibody/configuration.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/solvers/simulate.hpp>
#include <eom/solvers/simulation_setup.hpp>

#include "paths.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("OutputTimes::grid: every step from t0 and the end", "[simulate]") {
  // 0.3 / 0.1 is 2.9999999999999996 in doubles: still three steps, no extra row at the end
  const OutputTimes tenths = OutputTimes::grid(0, 0.3, 0.1);
  REQUIRE(tenths.size() == 4);
  CHECK(tenths[3] == Approx(0.3));
  // 0.1 s by 2.5 ms: 41 rows, the last at 0.1
  const OutputTimes fine = OutputTimes::grid(0, 0.1, 0.0025);
  REQUIRE(fine.size() == 41);
  CHECK(fine.back() == Approx(0.1));
  // a duration that is no multiple of the step ends with a row at the end
  const OutputTimes ragged = OutputTimes::grid(1, 0.25, 0.1);
  REQUIRE(ragged.size() == 4);
  CHECK(ragged[0] == 1);
  CHECK(ragged[2] == Approx(1.2));
  CHECK(ragged[3] == 1.25);
}

TEST_CASE("is_step_multiple: output times on the fixed steps", "[simulate]") {
  CHECK(is_step_multiple(0.01, 0.001));
  CHECK(is_step_multiple(0.001, 0.001));
  CHECK(is_step_multiple(0.3, 0.1));  // 2.9999999999999996 steps
  CHECK_FALSE(is_step_multiple(0.0025, 0.001));
  CHECK_FALSE(is_step_multiple(0.0005, 0.001));
}

TEST_CASE("EnergyRecord: change from the first row, relative to T + |V| there", "[simulate]") {
  EnergyRecord energy;
  CHECK(energy.rows == 0);
  CHECK_FALSE(energy.relative_change());
  energy.add(1, -3);  // E = -2, scale 1 + 3 = 4
  energy.add(5, -9);
  energy.add(2, -3.5);  // E = -1.5
  CHECK(energy.rows == 3);
  CHECK(energy.initial == -2);
  CHECK(energy.last == -1.5);
  CHECK(energy.change() == 0.5);
  REQUIRE(energy.relative_change());
  CHECK(*energy.relative_change() == 0.125);

  EnergyRecord at_rest;
  at_rest.add(0, 0);
  CHECK_FALSE(at_rest.relative_change());
}

TEST_CASE("coordinates_outside_limits", "[simulate]") {
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf");  // limits +-pi
  Eigen::VectorXd q = neutral(model);
  CHECK(coordinates_outside_limits(model, q).empty());
  q << 4, -M_PI;  // the first beyond pi, the second on its limit
  CHECK(coordinates_outside_limits(model, q) == std::vector<int>{0});
  q << -3.5, 3.2;
  CHECK(coordinates_outside_limits(model, q) == std::vector<int>{0, 1});
}
