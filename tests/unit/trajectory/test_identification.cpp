// Identification: the base parameters of the planar 2R against their closed forms (Khalil and
// Dombre 2002, 12.5: ZZ1R, MX1R, MY1, ZZ2, MX2, MY2), the streaming least squares against one
// dense solve of the stacked rows, and the standard parameters mapped back from base ones.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <Eigen/LU>
#include <Eigen/QR>
#include <Eigen/SVD>

#include <eom/algorithm/regressor.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/load_model.hpp>
#include <eom/trajectory/identification.hpp>

#include "paths.hpp"

using namespace eom;
using eom::test::kRobotsDir;

namespace {

// Column of "<body>.<parameter>" in the regressor of a model of bodies with 10 parameters each.
int identification_column(int body, const char* parameter) {
  for (int p = 0; p < kInertialParameterCount; ++p) {
    if (std::string(kInertialParameterNames[p]) == parameter) return 10 * body + p;
  }
  return -1;
}

// Whether the rows of `a` and `b` span the same space.
bool same_row_space(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  Eigen::MatrixXd both(a.rows() + b.rows(), a.cols());
  both << a, b;
  const auto rank = [](const Eigen::MatrixXd& m) {
    Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(m);
    qr.setThreshold(1e-9);
    return qr.rank();
  };
  return rank(a) == a.rows() && rank(b) == b.rows() && rank(both) == a.rows();
}

}  // namespace

TEST_CASE("Base parameters of the planar 2R: the closed forms, vertical and horizontal",
          "[identification]") {
  // joints about y, links along x (l1 = 1), body frames at the joints: the torques depend on
  // Iyy1 + l1^2 m2, Iyy2, mx2, mz2, and with gravity in the plane on mx1 + l1 m2 and mz1
  Model model = load_model(kRobotsDir + "/planar_2r.urdf");
  const double l1 = 1.0;
  const auto closed_form = [&](bool vertical) {
    Eigen::MatrixXd E = Eigen::MatrixXd::Zero(vertical ? 6 : 4, 20);
    E(0, identification_column(0, "Iyy")) = 1;
    E(0, identification_column(1, "m")) = l1 * l1;
    E(1, identification_column(1, "Iyy")) = 1;
    E(2, identification_column(1, "mx")) = 1;
    E(3, identification_column(1, "mz")) = 1;
    if (vertical) {
      E(4, identification_column(0, "mx")) = 1;
      E(4, identification_column(1, "m")) = l1;
      E(5, identification_column(0, "mz")) = 1;
    }
    return E;
  };
  SECTION("vertical plane") {
    const BaseParameters base = base_parameters(model, {});
    CHECK(base.independent.size() == 6);
    CHECK(same_row_space(base.combination, closed_form(true)));
  }
  SECTION("horizontal plane: gravity along the joint axes") {
    model.gravity = Vec3(0, -9.81, 0);
    const BaseParameters base = base_parameters(model, {});
    CHECK(base.independent.size() == 4);
    CHECK(same_row_space(base.combination, closed_form(false)));
    // link1's mass and first moments are then in no torque at all, nor are Ixx .. Izz but Iyy
    for (const char* p : {"m", "mx", "my", "mz", "Ixx", "Ixy", "Iyz", "Izz"}) {
      CHECK(std::count(base.unaffecting.begin(), base.unaffecting.end(),
                       identification_column(0, p)) == 1);
    }
  }
  SECTION("the friction columns are base parameters of their own") {
    DriveParameters drive;
    drive.viscous = drive.coulomb = true;
    const BaseParameters base = base_parameters(model, drive);
    CHECK(base.independent.size() == 6 + 4);
    for (int c = 20; c < 24; ++c) {
      CHECK(std::count(base.independent.begin(), base.independent.end(), c) == 1);
    }
  }
}

TEST_CASE("Base parameters of a floating base from its six equations alone", "[identification]") {
  // Ayusawa, Venture and Nakamura 2014 (IJRR 33(3)): the base-link equations of a floating base
  // determine every combination of inertial parameters that the whole equations do; friction and
  // drive columns act on the joints' equations only
  LoadOptions floating;
  floating.floating_base = true;
  const Model model = load_model(kRobotsDir + "/solo12.urdf", floating);
  const int inertial = kInertialParameterCount * (model.njoints - 1);
  std::vector<int> every(static_cast<size_t>(inertial));
  for (int c = 0; c < inertial; ++c) every[static_cast<size_t>(c)] = c;
  const BaseParameters whole = base_parameters(model, {});
  const BaseParameters six = base_parameters(model, {}, every, 0, 36, kBaseParameterTolerance, 6);
  CHECK(six.independent.size() == whole.independent.size());
  CHECK(same_row_space(six.combination, whole.combination));
  DriveParameters drive;
  drive.viscous = drive.coulomb = true;
  std::vector<int> columns(static_cast<size_t>(regressor_columns(model, drive)));
  for (size_t c = 0; c < columns.size(); ++c) columns[c] = static_cast<int>(c);
  const BaseParameters driven =
      base_parameters(model, drive, columns, 0, 36, kBaseParameterTolerance, 6);
  CHECK(driven.independent.size() == whole.independent.size());
  for (int c = inertial; c < static_cast<int>(columns.size()); ++c) {
    CHECK(std::count(driven.unaffecting.begin(), driven.unaffecting.end(), c) == 1);
  }
}

TEST_CASE("Base parameters: Y_1 b = Y pi at states other than those that found them",
          "[identification]") {
  const Model model = load_model(kRobotsDir + "/ur5.urdf");
  DriveParameters drive;
  drive.viscous = drive.coulomb = drive.armature = true;
  const BaseParameters base = base_parameters(model, drive);
  const Eigen::VectorXd pi = regressor_parameters(model, drive);
  const Eigen::VectorXd b = base.combination * pi;
  Data data(model);
  Rng rng(7);
  Eigen::MatrixXd Y(model.nv, regressor_columns(model, drive));
  for (int s = 0; s < 5; ++s) {
    joint_torque_regressor(model, data, random_configuration(model, rng),
                           random_tangent(model, rng), random_tangent(model, rng), Y, drive);
    Eigen::VectorXd base_tau = Eigen::VectorXd::Zero(model.nv);
    for (size_t k = 0; k < base.independent.size(); ++k) {
      base_tau += Y.col(base.independent[k]) * b[static_cast<Eigen::Index>(k)];
    }
    CHECK((base_tau - Y * pi).norm() <= 1e-12 * (Y * pi).norm());
  }
  // a standard set made from b keeps b, and differs from the prior by nothing the torques cannot
  // tell: its change is orthogonal to every direction of no torque (the kernel of the combination)
  const Eigen::VectorXd prior = Eigen::VectorXd::Constant(pi.size(), 0.5);
  const Eigen::VectorXd standard = standard_from_base(base, b, prior);
  CHECK((base.combination * standard - b).norm() <= 1e-12 * b.norm());
  const Eigen::MatrixXd kernel = base.combination.fullPivLu().kernel();
  CHECK(kernel.cols() == pi.size() - b.size());
  CHECK((kernel.transpose() * (standard - prior)).cwiseAbs().maxCoeff() <= 1e-10 * b.norm());
}

TEST_CASE("Base parameters alone: a joint's friction columns, whatever the round-off",
          "[identification]") {
  // a joint's fv and fc enter its own torque alone, with no other column's pattern (v and sgn v):
  // each is a base parameter by itself (its combination's other coefficients are structural zeros,
  // which K = R1^-1 R2 gives as round-off); the arm's inertias are combinations. (Not so the
  // armature: the first joint's ia a has the pattern of the shoulder's Izz.)
  const Model model = load_model(kRobotsDir + "/ur5.urdf");
  DriveParameters drive;
  drive.viscous = drive.coulomb = true;
  const BaseParameters base = base_parameters(model, drive);
  const std::vector<std::string> names = regressor_parameter_names(model, drive);
  const int inertial = 10 * (model.njoints - 1);
  int drive_alone = 0;
  for (size_t k = 0; k < base.independent.size(); ++k) {
    const int column = base.independent[k];
    if (column >= inertial) {
      CHECK(alone(base, static_cast<int>(k)));
      CHECK(base_parameter_expression(base, static_cast<int>(k), names) == names[column]);
      ++drive_alone;
    }
  }
  CHECK(drive_alone == 2 * model.nv);
  // the shoulder's Izz carries the parameters of the bodies beyond it
  const int izz =
      static_cast<int>(std::find(names.begin(), names.end(), "shoulder_link.Izz") - names.begin());
  const auto it = std::find(base.independent.begin(), base.independent.end(), izz);
  REQUIRE(it != base.independent.end());
  CHECK_FALSE(alone(base, static_cast<int>(it - base.independent.begin())));
}

TEST_CASE("StreamingLeastSquares: one dense weighted solve of the stacked rows, merged halves",
          "[identification]") {
  const int groups = 3, unknowns = 5, rows = 250;  // several flushes of the buffer
  Rng rng(11);
  Eigen::MatrixXd A(groups * rows, unknowns);
  Eigen::VectorXd y(groups * rows);
  for (Eigen::Index r = 0; r < A.rows(); ++r) {
    for (int c = 0; c < unknowns; ++c) A(r, c) = rng.uniform(-1, 1);
    y[r] = rng.uniform(-2, 2);
  }
  const Eigen::Vector3d weights(1.0, 2.0, 0.5);
  StreamingLeastSquares all(groups, unknowns), first(groups, unknowns), second(groups, unknowns);
  Eigen::MatrixXd batch(groups, unknowns);
  Eigen::VectorXd values(groups);
  // row r of group g is A's row g rows + r
  Eigen::MatrixXd weighted(groups * rows, unknowns);
  Eigen::VectorXd weighted_y(groups * rows);
  for (int r = 0; r < rows; ++r) {
    for (int g = 0; g < groups; ++g) {
      batch.row(g) = A.row(g * rows + r);
      values[g] = y[g * rows + r];
      weighted.row(g * rows + r) = weights[g] * A.row(g * rows + r);
      weighted_y[g * rows + r] = weights[g] * y[g * rows + r];
    }
    all.add(batch, values);
    (r < rows / 3 ? first : second).add(batch, values);
  }
  all.flush();
  first.merge(second);
  const Eigen::VectorXd expected = weighted.colPivHouseholderQr().solve(weighted_y);
  const auto solution = all.solve(weights, 1e8);
  const auto merged = first.solve(weights, 1e8);
  CHECK((solution.x - expected).norm() <= 1e-12 * expected.norm());
  CHECK((merged.x - expected).norm() <= 1e-12 * expected.norm());
  CHECK(first.rows() == rows);
  // sigma^2 (A^T A)^-1 of the weighted rows, and the residual of each group
  const double freedom = groups * rows - unknowns;
  const double sigma = (weighted * expected - weighted_y).norm() / std::sqrt(freedom);
  CHECK(solution.sigma == Approx(sigma).epsilon(1e-12));
  const Eigen::MatrixXd covariance = (weighted.transpose() * weighted).inverse();
  for (int k = 0; k < unknowns; ++k) {
    CHECK(solution.std[k] == Approx(sigma * std::sqrt(covariance(k, k))).epsilon(1e-10));
  }
  for (int g = 0; g < groups; ++g) {
    const double direct =
        (A.middleRows(g * rows, rows) * expected - y.segment(g * rows, rows)).squaredNorm();
    CHECK(all.residual_squares(g, expected) == Approx(direct).epsilon(1e-12));
  }
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(weighted);
  CHECK(solution.condition ==
        Approx(svd.singularValues()[0] / svd.singularValues()[unknowns - 1]).epsilon(1e-12));
}

TEST_CASE("StreamingLeastSquares: groups folded on the columns they touch, one touched late",
          "[identification]") {
  // the structure of a joint torque regressor: group 0 touches every column, group 1 the last
  // three, group 2 only column 1 and, from row 180 on (after several flushes), column 3 as well;
  // merged with an accumulator whose group 1 touches column 0, which this one's never did
  const int groups = 3, unknowns = 6, rows = 250;
  Rng rng(29);
  const auto entry = [&](int g, int r, int c) {
    const bool touched =
        g == 0 || (g == 1 && c >= 3) || (g == 2 && (c == 1 || (c == 3 && r >= 180)));
    return touched ? rng.uniform(-1, 1) : 0.0;
  };
  std::vector<Eigen::MatrixXd> A(groups, Eigen::MatrixXd(2 * rows, unknowns));
  std::vector<Eigen::VectorXd> y(groups, Eigen::VectorXd(2 * rows));
  for (int r = 0; r < 2 * rows; ++r) {
    for (int g = 0; g < groups; ++g) {
      for (int c = 0; c < unknowns; ++c) {
        A[g](r, c) = r < rows ? entry(g, r, c) : (g == 1 && c == 0 ? 1.5 : entry(g, r - rows, c));
      }
      y[g][r] = rng.uniform(-2, 2);
    }
  }
  StreamingLeastSquares fit(groups, unknowns), other(groups, unknowns);
  Eigen::MatrixXd batch(groups, unknowns);
  Eigen::VectorXd values(groups);
  for (int r = 0; r < 2 * rows; ++r) {
    for (int g = 0; g < groups; ++g) {
      batch.row(g) = A[g].row(r);
      values[g] = y[g][r];
    }
    (r < rows ? fit : other).add(batch, values);
  }
  fit.merge(other);
  REQUIRE(fit.rows() == 2 * rows);
  // each group's factor: T^T T = [A y]^T [A y] of its own rows, and its residual at any x
  for (int g = 0; g < groups; ++g) {
    Eigen::MatrixXd Ay(2 * rows, unknowns + 1);
    Ay << A[g], y[g];
    const Eigen::MatrixXd gram = Ay.transpose() * Ay;
    const Eigen::MatrixXd T = fit.factor(g);
    CHECK(T.isUpperTriangular());
    CHECK((T.transpose() * T - gram).norm() <= 1e-12 * gram.norm());
    const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(unknowns, -1, 2);
    CHECK(fit.residual_squares(g, x) == Approx((A[g] * x - y[g]).squaredNorm()).epsilon(1e-12));
  }
}

TEST_CASE("StreamingLeastSquares: a rank-deficient system is refused with its condition",
          "[identification]") {
  StreamingLeastSquares fit(1, 2);
  for (int r = 0; r < 10; ++r) {
    fit.add(Eigen::RowVector2d(r, 2.0 * r), Eigen::VectorXd::Constant(1, r));
  }
  fit.flush();
  const auto solution = fit.solve(Eigen::VectorXd::Ones(1), 1e8);
  CHECK(solution.x.size() == 0);
  CHECK(solution.condition > 1e8);
}

namespace {

// Rows of a "true" robot's torques (rnea with its friction, as eom id --friction) at random
// states, with white noise of `noise` N m on them, into a fit of the base columns of `prior`.
StreamingLeastSquares identification_rows(const Model& truth, const BaseParameters& base,
                                          const DriveParameters& drive, int rows, double noise,
                                          std::uint64_t seed) {
  StreamingLeastSquares fit(truth.nv, static_cast<int>(base.independent.size()));
  Data data(truth);
  Rng rng(seed);
  const Eigen::VectorXd pi = regressor_parameters(truth, drive);
  Eigen::MatrixXd Y(truth.nv, pi.size()), base_Y(truth.nv, base.independent.size());
  for (int r = 0; r < rows; ++r) {
    joint_torque_regressor(truth, data, random_configuration(truth, rng),
                           random_tangent(truth, rng), random_tangent(truth, rng), Y, drive);
    Eigen::VectorXd tau = Y * pi;
    for (Eigen::Index k = 0; k < tau.size(); ++k)
      tau[k] += noise * rng.uniform(-1, 1) * std::sqrt(3.0);
    for (size_t k = 0; k < base.independent.size(); ++k) {
      base_Y.col(static_cast<Eigen::Index>(k)) = Y.col(base.independent[k]);
    }
    fit.add(base_Y, tau);
  }
  fit.flush();
  return fit;
}

// The UR5 with heavier links, moved centres of mass, damping and friction: a consistent robot.
Model perturbed_ur5() {
  Model truth = load_model(kRobotsDir + "/ur5.urdf");
  for (int i = 1; i < truth.njoints; ++i) {
    InertialParameters p = inertial_parameters(truth.inertia[i]);
    p *= 1.0 + 0.05 * i;  // scales m, m c and I_o alike: the same body, heavier
    truth.inertia[i] = inertia_from_parameters(p);
    truth.damping[i - 1] = 0.2 * i;
    truth.friction[i - 1] = 0.3 + 0.1 * i;
  }
  return truth;
}

}  // namespace

TEST_CASE("Identification recovers a robot's base parameters from its noise-free torques",
          "[identification]") {
  const Model truth = perturbed_ur5();
  const Model prior = load_model(kRobotsDir + "/ur5.urdf");
  DriveParameters drive;
  drive.viscous = drive.coulomb = true;
  const BaseParameters base = base_parameters(prior, drive);
  const StreamingLeastSquares fit = identification_rows(truth, base, drive, 300, 0, 5);
  const auto solution = fit.solve(Eigen::VectorXd::Ones(truth.nv), 1e8);
  REQUIRE(solution.x.size() == static_cast<Eigen::Index>(base.independent.size()));
  const Eigen::VectorXd expected = base.combination * regressor_parameters(truth, drive);
  CHECK((solution.x - expected).cwiseAbs().maxCoeff() <= 1e-8 * expected.cwiseAbs().maxCoeff());
  // the standard set made from them gives the true robot's torques (the model written back)
  const Eigen::VectorXd standard =
      standard_from_base(base, solution.x, regressor_parameters(prior, drive));
  for (int g = 0; g < truth.nv; ++g) {
    CHECK(std::sqrt(fit.residual_squares(g, base.combination * standard) / fit.rows()) <= 1e-9);
  }
}

TEST_CASE("Identification with noisy torques: estimates within 3 of their standard deviations",
          "[identification]") {
  const Model truth = perturbed_ur5();
  DriveParameters drive;
  drive.viscous = drive.coulomb = true;
  const BaseParameters base = base_parameters(truth, drive);
  const Eigen::VectorXd expected = base.combination * regressor_parameters(truth, drive);
  int within = 0, total = 0;
  for (const std::uint64_t seed : {21, 22, 23, 24, 25}) {
    const StreamingLeastSquares fit = identification_rows(truth, base, drive, 400, 0.05, seed);
    const auto solution = fit.solve(Eigen::VectorXd::Ones(truth.nv), 1e8);
    REQUIRE(solution.x.size() == expected.size());
    for (Eigen::Index k = 0; k < expected.size(); ++k, ++total) {
      within += std::abs(solution.x[k] - expected[k]) <= 3 * solution.std[k];
    }
  }
  CHECK(within >= 0.95 * total);
}
