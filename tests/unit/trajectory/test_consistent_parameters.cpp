// Physically consistent parameters: the pseudo-inertia against its closed form for a solid box,
// the log-Cholesky map against its inverse and its Jacobian against central differences, and the
// Levenberg-Marquardt fit against a robot whose torques it must give back.

#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

#include <Eigen/Eigenvalues>
#include <Eigen/QR>

#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/regressor.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/load_model.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/parsers/urdf_writer.hpp>
#include <eom/trajectory/consistent_parameters.hpp>
#include <eom/trajectory/identification.hpp>

#include "paths.hpp"

using namespace eom;
using eom::test::kDataDir;
using eom::test::kRobotsDir;

namespace {

double smallest_eigenvalue(const Eigen::Matrix4d& J) {
  return Eigen::SelfAdjointEigenSolver<Eigen::Matrix4d>(J).eigenvalues().minCoeff();
}

}  // namespace

TEST_CASE("Pseudo-inertia of a solid box: the second moment of its mass", "[identification]") {
  // a box of mass m, sides (a, b, c), centre at p, far from the body frame's origin: the second
  // moment about the origin is m diag(a^2, b^2, c^2) / 12 + m p p^T, the first m p
  const double m = 3.5, a = 0.4, b = 0.2, c = 0.9;
  const Vec3 p(120.0, -35.0, 7.5);
  Inertia box;
  box.m = m;
  box.c = p;
  box.I_c = m / 12 * Vec3(b * b + c * c, a * a + c * c, a * a + b * b).asDiagonal();
  Eigen::Matrix4d expected = Eigen::Matrix4d::Zero();
  expected.topLeftCorner<3, 3>() =
      m / 12 * Vec3(a * a, b * b, c * c).asDiagonal().toDenseMatrix() + m * p * p.transpose();
  expected.topRightCorner<3, 1>() = m * p;
  expected.bottomLeftCorner<1, 3>() = m * p.transpose();
  expected(3, 3) = m;
  const InertialParameters pi = inertial_parameters(box);
  const Eigen::Matrix4d J = pseudo_inertia(pi);
  CHECK((J - expected).norm() <= 1e-12 * expected.norm());
  CHECK((parameters_from_pseudo_inertia(J) - pi).norm() <= 1e-12 * pi.norm());
  // inertias that violate a triangle inequality (Ixx + Iyy < Izz): no mass has them
  box.I_c = m / 12 * Vec3(b * b, a * a, a * a + b * b + 1.0).asDiagonal();
  CHECK(smallest_eigenvalue(pseudo_inertia(inertial_parameters(box))) < 0);
}

TEST_CASE("Log-Cholesky parameters: the inverse map and the Jacobian", "[identification]") {
  Rng rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    LogCholesky theta;
    for (int k = 0; k < 10; ++k) theta[k] = rng.uniform(-1, 1);
    Eigen::Matrix<double, 10, 10> P;
    const InertialParameters pi = parameters_from_log_cholesky(theta, &P);
    CHECK(smallest_eigenvalue(pseudo_inertia(pi)) > 0);
    CHECK((log_cholesky(pseudo_inertia(pi)) - theta).norm() <= 1e-12 * (1 + theta.norm()));
    for (int k = 0; k < 10; ++k) {
      const double h = 1e-6;
      LogCholesky up = theta, down = theta;
      up[k] += h;
      down[k] -= h;
      const InertialParameters difference =
          (parameters_from_log_cholesky(up) - parameters_from_log_cholesky(down)) / (2 * h);
      CHECK((difference - P.col(k)).norm() <= 1e-8 * (1 + P.col(k).norm()));
    }
  }
}

TEST_CASE("Consistent parameters: torques of a consistent robot given back, bodies physical",
          "[identification]") {
  // the rows: the regressor of the UR5 at random states, the torques those of the true UR5
  // (tests/data/identify/ur5_true.urdf: heavier links, moved centres of mass, friction); the
  // prior the shipped UR5, whose least-squares nearest set is not physical
  const Model truth = load_model(kDataDir + "/identify/ur5_true.urdf");
  const Model shipped = load_model(kRobotsDir + "/ur5.urdf");
  DriveParameters drive;
  drive.viscous = drive.coulomb = true;
  const BaseParameters base = base_parameters(shipped, drive);
  const int r = static_cast<int>(base.independent.size());
  const Eigen::VectorXd pi_true = regressor_parameters(truth, drive);
  StreamingLeastSquares fit(shipped.nv, r);
  Data data(shipped);
  Rng rng(17);
  Eigen::MatrixXd Y(shipped.nv, regressor_columns(shipped, drive)), base_Y(shipped.nv, r);
  for (int s = 0; s < 400; ++s) {
    joint_torque_regressor(shipped, data, random_configuration(shipped, rng),
                           random_tangent(shipped, rng), random_tangent(shipped, rng), Y, drive);
    for (int k = 0; k < r; ++k) base_Y.col(k) = Y.col(base.independent[k]);
    fit.add(base_Y, Y * pi_true);
  }
  fit.flush();
  const Eigen::MatrixXd T = fit.combined(Eigen::VectorXd::Ones(shipped.nv));
  const Eigen::MatrixXd A = T.topLeftCorner(r, r) * base.combination;
  const Eigen::VectorXd z = T.col(r).head(r);
  ConsistentFitSettings settings;
  settings.bodies = shipped.njoints - 1;
  settings.drive = drive;
  const Eigen::VectorXd prior = regressor_parameters(shipped, drive);
  const auto check_physical = [&](const Eigen::VectorXd& pi) {
    for (int b = 0; b < settings.bodies; ++b) {
      CHECK(smallest_eigenvalue(pseudo_inertia(pi.segment<10>(10 * b))) > 0);
    }
    CHECK(pi.tail(pi.size() - 10 * settings.bodies).minCoeff() >= 0);
  };
  SECTION("a pure fit: the base parameters of the truth, so its torques") {
    const ConsistentFit result = consistent_parameters(A, z, prior, settings);
    check_physical(result.pi);
    const Eigen::VectorXd b_true = base.combination * pi_true;
    CHECK((base.combination * result.pi - b_true).norm() <= 1e-8 * b_true.norm());
    // written as URDF (eom identify --urdf-out) and read back: the reloaded robot's own rnea and
    // friction give the identified parameters' torques to round-off
    std::ostringstream text;
    write_urdf(model_with_parameters(shipped, drive, result.pi), text);
    const Model reloaded = build_model(parse_urdf(text.str()));
    Data reloaded_data(reloaded);
    Eigen::VectorXd friction(reloaded.nv);
    for (int s = 0; s < 5; ++s) {
      const Eigen::VectorXd q = random_configuration(shipped, rng);
      const Eigen::VectorXd v = random_tangent(shipped, rng), a = random_tangent(shipped, rng);
      joint_torque_regressor(shipped, data, q, v, a, Y, drive);
      friction_torque(Friction::from_model(reloaded), v, friction);
      const Eigen::VectorXd tau = rnea(reloaded, reloaded_data, q, v, a) + friction;
      CHECK((tau - Y * result.pi).norm() <= 1e-13 * tau.norm());
    }
  }
  SECTION("a pull toward the prior: still physical, near the truth's torques") {
    settings.prior_weight = 1e-3;
    const ConsistentFit result = consistent_parameters(A, z, prior, settings);
    check_physical(result.pi);
    CHECK((A * result.pi - z).norm() <= 1e-2 * z.norm());
  }
}
