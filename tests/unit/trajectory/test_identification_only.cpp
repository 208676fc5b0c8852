// Identification of some bodies alone (identified_columns; eom identify --only): a payload welded
// to the UR5's last link, recovered from the torques eom id computes for the robot that carries it
// (tests/data/identify/ur5_payload_log.csv, scripts/make_identify_data.py) with every other body
// known, from a prior without the payload and from one with a wrong payload; and the links that
// cannot be identified, refused with the reason.

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include <eom/algorithm/regressor.hpp>
#include <eom/io/table.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/load_model.hpp>
#include <eom/trajectory/consistent_parameters.hpp>
#include <eom/trajectory/identification.hpp>

#include "paths.hpp"

using namespace eom;
using Catch::Matchers::Contains;
using eom::test::kDataDir;
using eom::test::kRobotsDir;

namespace {

// The inertial parameters of the last UR5 body carrying the true payload, by hand from the two
// URDF inertials (robots/ur5.urdf's wrist_3_link, the payload of make_identify_data.py): masses
// add, first moments m c add, inertias about the body's origin add, each I_c + m (|c|^2 1 - c c^T).
InertialParameters wrist_with_payload() {
  const auto moments = [](double m, const Eigen::Vector3d& c, const Eigen::Matrix3d& I_c) {
    const Eigen::Matrix3d I =
        I_c + m * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
    InertialParameters pi;
    pi << m, m * c.x(), m * c.y(), m * c.z(), I(0, 0), I(0, 1), I(0, 2), I(1, 1), I(1, 2), I(2, 2);
    return pi;
  };
  Eigen::Matrix3d wrist = Eigen::Matrix3d::Zero();
  wrist.diagonal() << 0.0171364731454, 0.0171364731454, 0.033822;
  Eigen::Matrix3d payload;
  payload << 0.003, 0.0002, -0.0001, 0.0002, 0.002, 0.0003, -0.0001, 0.0003, 0.004;
  // the payload's centre of mass: its joint's origin plus its inertial's origin (no rotation)
  const Eigen::Vector3d c(0.0 + 0.005, 0.12 + 0.03, 0.01 - 0.01);
  return moments(0.1879, Eigen::Vector3d::Zero(), wrist) + moments(1.5, c, payload);
}

// The rows of the payload log into the fit of the columns `unknowns`, the other parameters at the
// prior's values (their torques taken off the measured ones).
StreamingLeastSquares payload_fit(const Model& model, const BaseParameters& base,
                                  const Eigen::VectorXd& known) {
  const Table log = read_table(kDataDir + "/identify/ur5_payload_log.csv", Format::csv);
  const auto column = [&](const std::string& prefix, int k) {
    const int c = log.header.index(prefix + "." + model.v_names[k]);
    REQUIRE(c >= 0);
    return c;
  };
  const int r = static_cast<int>(base.independent.size());
  StreamingLeastSquares fit(model.nv, r);
  Data data(model);
  Eigen::MatrixXd Y(model.nv, regressor_columns(model)), base_Y(model.nv, r);
  Eigen::VectorXd q(model.nv), v(model.nv), a(model.nv), tau(model.nv);
  for (int row = 0; row < log.rows(); ++row) {
    for (int k = 0; k < model.nv; ++k) {
      q[k] = log.at(row, column("q", k));
      v[k] = log.at(row, column("v", k));
      a[k] = log.at(row, column("a", k));
      tau[k] = log.at(row, column("tau", k));
    }
    joint_torque_regressor(model, data, q, v, a, Y);
    for (int c = 0; c < r; ++c) base_Y.col(c) = Y.col(base.independent[c]);
    tau -= Y * known;
    fit.add(base_Y, tau);
  }
  fit.flush();
  return fit;
}

}  // namespace

TEST_CASE("identified_columns: the named bodies' ten and every drive column; bad links refused",
          "[identification]") {
  const Model ur5 = load_model(kRobotsDir + "/ur5.urdf");
  DriveParameters drive;
  drive.viscous = true;
  std::vector<int> expected;
  for (int c = 50; c < 66; ++c) expected.push_back(c);  // wrist_3_link's ten, then fv of six joints
  CHECK(identified_columns(ur5, drive, {"wrist_3_link"}) == expected);
  CHECK(identified_columns(ur5, drive, {}).size() == 66);

  CHECK_THROWS_WITH(identified_columns(ur5, drive, {"wrist_3_lnk"}),
                    Contains("no link 'wrist_3_lnk'") && Contains("did you mean 'wrist_3_link'"));
  CHECK_THROWS_WITH(identified_columns(ur5, drive, {"ee_link"}),
                    Contains("welded by fixed joints to 'wrist_3_link'"));
  CHECK_THROWS_WITH(identified_columns(ur5, drive, {"base_link"}), Contains("fixed base"));
  const Model gripper = load_model(kDataDir + "/urdf/massless_gripper.urdf");
  CHECK_THROWS_WITH(identified_columns(gripper, drive, {"finger_1"}),
                    Contains("'finger_1' has no mass"));
}

TEST_CASE(
    "Identification of a payload alone: the true last body from priors without it and with "
    "a wrong one",
    "[identification]") {
  const std::string prior_file =
      GENERATE(kRobotsDir + "/ur5.urdf", kDataDir + "/identify/ur5_payload_wrong.urdf");
  const Model model = load_model(prior_file);
  const std::vector<int> unknowns = identified_columns(model, {}, {"wrist_3_link"});
  const BaseParameters base = base_parameters(model, {}, unknowns);
  // with every other body known, each of the last body's ten parameters is a base parameter
  REQUIRE(base.independent == unknowns);
  const Eigen::VectorXd prior = regressor_parameters(model);
  Eigen::VectorXd known = prior;
  for (const int c : unknowns) known[c] = 0;
  const StreamingLeastSquares fit = payload_fit(model, base, known);
  const StreamingLeastSquares::Solution lsq = fit.solve_two_step(1e8);
  REQUIRE(lsq.x.size() == 10);

  // the log's torques are rnea's to round-off, written with every digit: the estimate's relative
  // error is the data's (1e-15) times the condition number of the weighted regressor (under 1e3
  // here, checked), 1e-12; 1e-10 leaves a hundredfold margin
  CHECK(lsq.condition < 1e3);
  const InertialParameters truth = wrist_with_payload();
  CHECK((lsq.x - truth).norm() <= 1e-10 * truth.norm());

  // the consistent fit of the unknowns alone: the others stay the prior's exactly, and a pure fit
  // finds the true body (a consistent one) to the optimiser's precision, 1e-8
  const int r = fit.unknowns();
  const Eigen::MatrixXd T = fit.combined(lsq.weights);
  ConsistentFitSettings settings;
  settings.bodies = model.njoints - 1;
  const Eigen::VectorXd pi = consistent_parameters(T.topLeftCorner(r, r) * base.combination,
                                                   T.col(r).head(r), prior, settings, unknowns)
                                 .pi;
  CHECK(pi.head(50) == prior.head(50));
  CHECK((pi.segment<10>(50) - truth).norm() <= 1e-8 * truth.norm());
}
