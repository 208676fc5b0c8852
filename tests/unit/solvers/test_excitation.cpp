// Excitation trajectories: within the limits at every instant (not only on the optimiser's grid),
// v and a the derivatives of q (central differences, with the error bound of the series'
// coefficients), at rest at the ends, better than the starting guess by the figure recomputed
// here from the regressor, and the same for the same seed.

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include <Eigen/SVD>

#include <eom/algorithm/regressor.hpp>
#include <eom/core/errors.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/load_model.hpp>
#include <eom/solvers/excitation.hpp>
#include <eom/trajectory/identification.hpp>

#include "paths.hpp"

using namespace eom;
using eom::test::kRobotsDir;

namespace {

struct State {
  Eigen::VectorXd q, v, a;
};

State at(const Model& model, const FourierTrajectory& trajectory, double t) {
  State s{Eigen::VectorXd::Zero(model.nq), Eigen::VectorXd::Zero(model.nv),
          Eigen::VectorXd::Zero(model.nv)};
  trajectory.evaluate(model, t, s.q, s.v, s.a);
  return s;
}

// sum_l |(a_l, b_l)| (l w)^power over a coordinate's harmonics: a bound on |d^(power+1) q / dt|
double derivative_bound(const FourierTrajectory& trajectory, int j, int power) {
  const double w = 2 * M_PI / trajectory.period;
  double sum = 0;
  for (int l = 1; l <= trajectory.harmonics(); ++l) {
    sum += std::hypot(trajectory.a(j, l - 1), trajectory.b(j, l - 1)) * std::pow(l * w, power);
  }
  return sum;
}

// The condition number of the base regressor stacked at `samples` instants of a period.
double stacked_condition(const Model& model, const FourierTrajectory& trajectory,
                         const DriveParameters& drive, int samples) {
  const std::vector<int> base = base_parameters(model, drive).independent;
  Eigen::MatrixXd Y(model.nv, regressor_columns(model, drive));
  Eigen::MatrixXd W(samples * model.nv, static_cast<Eigen::Index>(base.size()));
  Data data(model);
  for (int i = 0; i < samples; ++i) {
    const State s = at(model, trajectory, trajectory.period * i / samples);
    joint_torque_regressor(model, data, s.q, s.v, s.a, Y, drive);
    for (size_t c = 0; c < base.size(); ++c) {
      W.block(i * model.nv, static_cast<Eigen::Index>(c), model.nv, 1) = Y.col(base[c]);
    }
  }
  const Eigen::VectorXd sigma = Eigen::JacobiSVD<Eigen::MatrixXd>(W).singularValues();
  return sigma[0] / sigma[sigma.size() - 1];
}

}  // namespace

TEST_CASE("Excitation: within the limits at every instant, beating its start", "[excitation]") {
  const std::string name = GENERATE(as<std::string>{}, "planar_2r.urdf", "ur5.urdf");
  const Model model = load_model(kRobotsDir + "/" + name);
  ExcitationLimits limits = model_limits(model);
  limits.velocity *= 0.5;
  limits.acceleration.setConstant(4.0);
  ExcitationOptions options;
  options.period = 6;
  options.harmonics = 4;
  options.drive.viscous = options.drive.coulomb = true;
  options.evaluations = 300;
  const Excitation e = design_excitation(model, limits, options);
  const FourierTrajectory& trajectory = e.trajectory;

  // the limits at 20011 instants (a prime: no common divisor with the optimiser's grid) of a period
  const int instants = 20011;
  for (int i = 0; i <= instants; ++i) {
    const State s = at(model, trajectory, options.period * i / instants);
    for (int k = 0; k < model.nv; ++k) {
      REQUIRE(s.q[k] >= limits.lower[k]);
      REQUIRE(s.q[k] <= limits.upper[k]);
      REQUIRE(std::abs(s.v[k]) <= limits.velocity[k]);
      REQUIRE(std::abs(s.a[k]) <= limits.acceleration[k]);
    }
  }
  // a limit is reached, within 1 % (the widening of the grid's extremes is about 1e-3 of a
  // harmonic's amplitude): the amplitude is the largest the limits allow
  for (size_t j = 0; j < trajectory.coordinates.size(); ++j) {
    const int k = trajectory.coordinates[j];
    double lo = INFINITY, hi = -INFINITY, vmax = 0, amax = 0;
    for (int i = 0; i < instants; ++i) {
      const State s = at(model, trajectory, options.period * i / instants);
      lo = std::min(lo, s.q[k]);
      hi = std::max(hi, s.q[k]);
      vmax = std::max(vmax, std::abs(s.v[k]));
      amax = std::max(amax, std::abs(s.a[k]));
    }
    const double used = std::max({(hi - lo) / (limits.upper[k] - limits.lower[k]),
                                  vmax / limits.velocity[k], amax / limits.acceleration[k]});
    CHECK(used > 0.99);
  }

  // the figures reported are the regressor's, recomputed here; the search improved on its start
  const double condition =
      stacked_condition(model, trajectory, options.drive, excitation_samples(options.harmonics));
  CHECK(condition == Approx(e.condition).epsilon(1e-9));
  CHECK(e.condition < e.start_condition);
  CHECK(e.evaluations <= options.evaluations);
}

TEST_CASE("Excitation: v and a are the derivatives of q; rest-to-rest ends are at rest",
          "[excitation]") {
  const Model model = load_model(kRobotsDir + "/ur5.urdf");
  const ExcitationLimits limits = model_limits(model);
  for (const ExcitationEnds ends : {ExcitationEnds::rest_to_rest, ExcitationEnds::periodic}) {
    ExcitationOptions options;
    options.period = 4;
    options.harmonics = 3;
    options.ends = ends;
    options.evaluations = 50;
    const FourierTrajectory trajectory = design_excitation(model, limits, options).trajectory;
    const double h = 1e-3;
    for (const double t : {0.3, 1.7, 2.9, 3.95}) {
      const State before = at(model, trajectory, t - h), now = at(model, trajectory, t),
                  after = at(model, trajectory, t + h);
      for (size_t j = 0; j < trajectory.coordinates.size(); ++j) {
        const int k = trajectory.coordinates[j];
        // central differences err by at most h^2 / 6 times the next derivative, plus round-off
        const double dq = (after.q[k] - before.q[k]) / (2 * h);
        const double dv = (after.v[k] - before.v[k]) / (2 * h);
        const double roundoff = 1e-15 * (std::abs(now.q[k]) + 10) / h;
        CHECK(std::abs(dq - now.v[k]) <= h * h / 6 * derivative_bound(trajectory, j, 2) + roundoff);
        CHECK(std::abs(dv - now.a[k]) <= h * h / 6 * derivative_bound(trajectory, j, 3) + roundoff);
      }
    }
    const State start = at(model, trajectory, 0), end = at(model, trajectory, options.period);
    CHECK(start.q.isApprox(end.q, 1e-12));
    if (ends == ExcitationEnds::rest_to_rest) {
      CHECK(start.v.cwiseAbs().maxCoeff() < 1e-12);
      CHECK(start.a.cwiseAbs().maxCoeff() < 1e-12);
      CHECK(end.v.cwiseAbs().maxCoeff() < 1e-12);
      CHECK(end.a.cwiseAbs().maxCoeff() < 1e-12);
    } else {
      CHECK(start.v.cwiseAbs().maxCoeff() > 1e-3);  // periodic ends move
    }
  }
}

TEST_CASE("Excitation: the same seed gives the same trajectory, another seed another",
          "[excitation]") {
  const Model model = load_model(kRobotsDir + "/planar_2r.urdf");
  ExcitationOptions options;
  options.harmonics = 3;
  options.evaluations = 100;
  options.seed = 5;
  const Excitation a = design_excitation(model, model_limits(model), options);
  const Excitation b = design_excitation(model, model_limits(model), options);
  options.seed = 6;
  const Excitation c = design_excitation(model, model_limits(model), options);
  CHECK(a.trajectory.a == b.trajectory.a);
  CHECK(a.trajectory.b == b.trajectory.b);
  CHECK(a.trajectory.offset == b.trajectory.offset);
  CHECK(a.condition == b.condition);
  CHECK(a.trajectory.a != c.trajectory.a);
}

TEST_CASE("Excitation: a mimic joint follows its leader within its own limits", "[excitation]") {
  const Model model = load_model(kRobotsDir + "/panda.urdf");
  const int follower = model.joint_index("panda_finger_joint2");
  const int leader = model.joint_index("panda_finger_joint1");
  REQUIRE(follower > 0);
  REQUIRE(leader > 0);
  const ExcitationLimits limits = model_limits(model);
  ExcitationOptions options;
  options.harmonics = 2;
  options.evaluations = 20;
  const FourierTrajectory trajectory = design_excitation(model, limits, options).trajectory;
  const int f = model.joints[follower].idx_v, l = model.joints[leader].idx_v;
  const JointInfo& info = model.info[follower];
  for (int i = 0; i <= 1000; ++i) {
    const State s = at(model, trajectory, options.period * i / 1000);
    CHECK(s.q[f] == info.mimic_multiplier * s.q[l] + info.mimic_offset);
    CHECK(s.q[f] >= limits.lower[f]);
    CHECK(s.q[f] <= limits.upper[f]);
    CHECK(std::abs(s.v[f]) <= limits.velocity[f]);
  }
}

TEST_CASE("Excitation: what it refuses", "[excitation]") {
  const Model model = load_model(kRobotsDir + "/planar_2r.urdf");
  ExcitationOptions options;
  options.harmonics = 1;
  CHECK_THROWS_WITH(design_excitation(model, model_limits(model), options),
                    Catch::Contains("rest-to-rest ends need at least 2 harmonics"));
  options.ends = ExcitationEnds::periodic;
  options.evaluations = 5;
  CHECK_NOTHROW(design_excitation(model, model_limits(model), options));
  options.period = 0;
  CHECK_THROWS_AS(design_excitation(model, model_limits(model), options), InputError);
  options.period = 1;
  ExcitationLimits limits = model_limits(model);
  limits.upper[1] = INFINITY;
  CHECK_THROWS_WITH(design_excitation(model, limits, options),
                    Catch::Contains("joint 'joint2' has no position limits"));
  limits = model_limits(model);
  limits.velocity[0] = INFINITY;
  CHECK_THROWS_WITH(design_excitation(model, limits, options),
                    Catch::Contains("joint 'joint1' has no velocity limit"));

  const Model floating = load_model(kRobotsDir + "/ur5.urdf", LoadOptions{true});
  CHECK_THROWS_WITH(excited_coordinates(floating), Catch::Contains("joint 'root'"));
}

TEST_CASE("Excitation rows: the end included when it falls on a row", "[excitation]") {
  CHECK(excitation_rows(10, 100) == 1001);
  CHECK(excitation_rows(0.3, 10) == 4);    // 0.3 * 10 = 3.0000000000000004
  CHECK(excitation_rows(0.7, 10) == 8);    // 7.000000000000001
  CHECK(excitation_rows(1, 3) == 4);       // t = 0, 1/3, 2/3, 1
  CHECK(excitation_rows(1.05, 10) == 11);  // 10.5: the end falls between rows
}
