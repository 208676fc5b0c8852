// The joint torque regressor: Y pi against rnea on every test robot, each column against a central
// difference of rnea in its parameter, the planar 2R's regressor by hand, and the friction and
// drive columns against eom id --friction's model (friction_torque).

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/regressor.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/parsers/load_model.hpp>
#include <eom/parsers/reduced_model.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "matchers.hpp"
#include "models.hpp"
#include "paths.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// The models the regressor is checked on: every test robot, fixed and floating (models.hpp), with
// the kinds it does not cover: a mimic follower, a scaled product-of-exponentials joint, locked
// joints (the panda's fingers and its fourth joint, merged into their parents).
struct RegressorCase {
  std::string name;
  Model model;
  unsigned seed;
};

std::vector<RegressorCase> regressor_cases() {
  std::vector<RegressorCase> out;
  for (const TestModel& m : test_models()) out.push_back({m.name, m.load(), m.seed});
  out.push_back({"mimic", load_model(kDataDir + "/urdf/mimic.urdf"), 101});
  out.push_back({"textbook_3link", load_model(kDataDir + "/models/textbook_3link.json"), 102});
  const Model panda = load_model(kRobotsDir + "/panda.urdf");
  Rng rng(103);
  const Eigen::VectorXd q = random_configuration(panda, rng);
  const std::vector<int> locked{panda.joint_index("panda_joint4"),
                                panda.joint_index("panda_finger_joint1"),
                                panda.joint_index("panda_finger_joint2")};
  out.push_back({"panda, three joints locked", build_reduced_model(panda, locked, q), 104});
  return out;
}

// A model whose every body has at least 2 kg and a generic inertia (the model's own plus a random
// body), so that a step of 1 in any parameter leaves a body whose centre of mass m c / m is
// representable: central differences of rnea in each parameter then need no small step.
Model with_generic_bodies(Model model, Rng& rng) {
  for (int i = 1; i < model.njoints; ++i) {
    Inertia extra;
    extra.m = rng.uniform(2, 3);
    extra.c = Vec3(rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2));
    extra.I_c =
        Vec3(rng.uniform(0.1, 0.2), rng.uniform(0.1, 0.2), rng.uniform(0.1, 0.2)).asDiagonal();
    model.inertia[i] += extra;
  }
  return model;
}

// The friction and drive columns of every kind, with a smoothing or without.
DriveParameters all_drive_columns(double smoothing) {
  DriveParameters drive;
  drive.viscous = drive.coulomb = drive.offset = drive.armature = true;
  drive.smoothing = smoothing;
  return drive;
}

// |x| summed: the size of the terms whose sum a row of Y pi is, for its round-off bound.
Eigen::VectorXd term_sizes(const Eigen::MatrixXd& Y, const Eigen::VectorXd& pi) {
  return Y.cwiseAbs() * pi.cwiseAbs();
}

}  // namespace

TEST_CASE("regressor: Y pi = rnea on every test robot at random states", "[regressor]") {
  for (const RegressorCase& c : regressor_cases()) {
    SECTION(c.name) {
      const Model& model = c.model;
      Data data(model);
      Rng rng(c.seed);
      const Eigen::VectorXd pi = regressor_parameters(model);
      Eigen::MatrixXd Y(model.nv, regressor_columns(model));
      for (int trial = 0; trial < 5; ++trial) {
        const Eigen::VectorXd q = random_configuration(model, rng);
        const Eigen::VectorXd v = random_tangent(model, rng, 2.0);
        const Eigen::VectorXd a = random_tangent(model, rng, 5.0);
        joint_torque_regressor(model, data, q, v, a, Y);
        // rnea adds the armature, which has a column of its own (DriveParameters::armature)
        const Eigen::VectorXd tau = rnea(model, data, q, v, a) - model.armature.cwiseProduct(a);
        const Eigen::VectorXd sizes = term_sizes(Y, pi);
        for (int r = 0; r < model.nv; ++r) {
          INFO("row " << model.v_names[r]);
          CHECK(std::abs((Y * pi)[r] - tau[r]) <= kTolRoundoff * sizes[r]);
        }
      }
    }
  }
}

TEST_CASE("regressor: a floating base far from the origin changes nothing", "[regressor]") {
  LoadOptions options;
  options.floating_base = true;
  for (const char* robot : {"solo12.urdf", "panda.urdf"}) {
    SECTION(robot) {
      const Model model = load_urdf(kRobotsDir + "/" + robot, options);
      Data data(model);
      Rng rng(7);
      const Eigen::VectorXd pi = regressor_parameters(model);
      const Eigen::VectorXd q = random_configuration(model, rng);
      const Eigen::VectorXd v = random_tangent(model, rng, 2.0);
      const Eigen::VectorXd a = random_tangent(model, rng, 5.0);
      Eigen::MatrixXd near(model.nv, regressor_columns(model)), far = near;
      joint_torque_regressor(model, data, q, v, a, near);
      Eigen::VectorXd q_far = q;
      q_far.head<3>() += Vec3(3e5, -2e5, 1e4);
      joint_torque_regressor(model, data, q_far, v, a, far);
      // the base twist is in its own frame and gravity uniform: the position enters nowhere
      CHECK_THAT(far, AllClose(near, kTolRoundoff, kTolRoundoff));
      const Eigen::VectorXd tau = rnea(model, data, q_far, v, a);
      const Eigen::VectorXd sizes = term_sizes(far, pi);
      for (int r = 0; r < model.nv; ++r)
        CHECK(std::abs((far * pi)[r] - tau[r]) <= kTolRoundoff * sizes[r]);
    }
  }
}

TEST_CASE("regressor: each inertial column is the derivative of rnea in its parameter",
          "[regressor]") {
  for (const RegressorCase& c : regressor_cases()) {
    SECTION(c.name) {
      Rng rng(c.seed + 1000);
      const Model model = with_generic_bodies(c.model, rng);
      Data data(model);
      const Eigen::VectorXd q = random_configuration(model, rng);
      const Eigen::VectorXd v = random_tangent(model, rng, 2.0);
      const Eigen::VectorXd a = random_tangent(model, rng, 5.0);
      Eigen::MatrixXd Y(model.nv, regressor_columns(model));
      joint_torque_regressor(model, data, q, v, a, Y);
      // tau is linear in pi: the central difference with step 1 is exact up to round-off
      const double step = 1;
      const std::vector<std::string> names = regressor_parameter_names(model);
      Model shifted = model;
      Data shifted_data(shifted);
      for (int col = 0; col < Y.cols(); ++col) {
        const int body = 1 + col / kInertialParameterCount, k = col % kInertialParameterCount;
        const InertialParameters pi = inertial_parameters(model.inertia[body]);
        Eigen::VectorXd tau[2];
        for (const int side : {0, 1}) {
          InertialParameters moved = pi;
          moved[k] += side ? step : -step;
          shifted.inertia[body] = inertia_from_parameters(moved);
          tau[side] = rnea(shifted, shifted_data, q, v, a);
        }
        shifted.inertia[body] = model.inertia[body];
        const Eigen::VectorXd difference = (tau[1] - tau[0]) / (2 * step);
        INFO("column " << names[col]);
        const double size = tau[1].cwiseAbs().maxCoeff() + tau[0].cwiseAbs().maxCoeff();
        CHECK_THAT(Y.col(col), AllClose(difference, 1e-11 * size, 0));
      }
    }
  }
}

TEST_CASE("regressor: the planar 2R's columns by hand", "[regressor]") {
  // The 2R arm of robots/planar_2r.urdf turns about -y in the vertical x-z plane, so that each
  // link's parameters that matter are m, mx, mz and Iyy (about -y, the joint axis) in its frame,
  // x along the link. With t1 = q1, t2 = q1 + q2, l1 = 1, the Lagrangian
  //   T = 1/2 (Iyy1 + m2 l1^2) q1d^2 + l1 q1d t2d (mx2 cos q2 - mz2 sin q2) + 1/2 Iyy2 t2d^2,
  //   V = g (mx1 sin t1 + mz1 cos t1 + m2 l1 sin t1 + mx2 sin t2 + mz2 cos t2)
  // gives tau = Y pi with these columns (derived by hand; every other column zero):
  const Model model = load_model(kRobotsDir + "/planar_2r.urdf");
  Data data(model);
  const double g = 9.81, l1 = 1;
  const Eigen::Vector2d q(0.3, -1.1), v(0.7, -0.4), a(1.3, 0.5);
  const double c2 = std::cos(q[1]), s2 = std::sin(q[1]);
  const double c1 = std::cos(q[0]), s1 = std::sin(q[0]);
  const double ct2 = std::cos(q[0] + q[1]), st2 = std::sin(q[0] + q[1]);
  Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(2, 20);
  // columns: link1 m mx my mz Ixx Ixy Ixz Iyy Iyz Izz (0..9), link2 the same (10..19)
  enum { m = 0, mx = 1, mz = 3, Iyy = 7 };
  expected(0, mx) = g * c1;
  expected(0, mz) = -g * s1;
  expected(0, Iyy) = a[0];
  expected(0, 10 + m) = l1 * l1 * a[0] + g * l1 * c1;
  expected(0, 10 + mx) = l1 * c2 * (2 * a[0] + a[1]) - l1 * s2 * v[1] * (2 * v[0] + v[1]) + g * ct2;
  expected(0, 10 + mz) =
      -l1 * s2 * (2 * a[0] + a[1]) - l1 * c2 * v[1] * (2 * v[0] + v[1]) - g * st2;
  expected(0, 10 + Iyy) = a[0] + a[1];
  expected(1, 10 + mx) = l1 * c2 * a[0] + l1 * s2 * v[0] * v[0] + g * ct2;
  expected(1, 10 + mz) = -l1 * s2 * a[0] + l1 * c2 * v[0] * v[0] - g * st2;
  expected(1, 10 + Iyy) = a[0] + a[1];
  Eigen::MatrixXd Y(2, regressor_columns(model));
  joint_torque_regressor(model, data, q, v, a, Y);
  CHECK_THAT(Y, AllClose(expected, kTolRoundoff * 10, kTolRoundoff));
  CHECK(regressor_parameter_names(model)[10 + Iyy] == "link2.Iyy");
}

TEST_CASE("regressor: friction and drive columns follow eom id --friction", "[regressor]") {
  // a planar, a revolute, a prismatic, a floating (in the middle of the tree: no drive columns)
  // and a continuous joint
  const Model model = load_model(kDataDir + "/robots/mixed_joints.urdf");
  std::vector<int> driven;
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    for (int r = j.idx_v; r < j.idx_v + j.nv && !is_floating(j); ++r) driven.push_back(r);
  }
  REQUIRE(static_cast<int>(driven.size()) == model.nv - 6);
  Rng rng(21);
  const Eigen::VectorXd q = random_configuration(model, rng);
  Eigen::VectorXd v = random_tangent(model, rng, 2.0);
  v[driven[0]] = 0;  // sgn(0) = 0 unless smoothed
  v[driven[1]] = 1e-4;
  const Eigen::VectorXd a = random_tangent(model, rng, 5.0);
  Data data(model);
  // any friction values (the file's are zero on some joints), none on the free-flyer
  Friction friction{Eigen::VectorXd::Zero(model.nv), Eigen::VectorXd::Zero(model.nv), 0};
  Eigen::VectorXd offsets = Eigen::VectorXd::Zero(model.nv), armature = offsets;
  for (const int r : driven) {
    friction.viscous[r] = rng.uniform(0, 2);
    friction.coulomb[r] = rng.uniform(0, 2);
    offsets[r] = rng.uniform(-1, 1);
    armature[r] = rng.uniform(0, 1);
  }
  for (const double smoothing : {0.0, 0.01}) {
    INFO("smoothing " << smoothing);
    const DriveParameters drive = all_drive_columns(smoothing);
    friction.smoothing = smoothing;
    const int first = 10 * (model.njoints - 1);
    Eigen::MatrixXd Y(model.nv, regressor_columns(model, drive));
    REQUIRE(Y.cols() == first + 4 * static_cast<int>(driven.size()));
    joint_torque_regressor(model, data, q, v, a, Y, drive);
    const std::vector<std::string> names = regressor_parameter_names(model, drive);
    // fv, fc, fo, ia of the k-th driven coordinate: the columns 4 k .. 4 k + 3 after the bodies'
    Eigen::VectorXd pi = Eigen::VectorXd::Zero(Y.cols());
    for (size_t k = 0; k < driven.size(); ++k) {
      const int r = driven[k], col = first + 4 * static_cast<int>(k);
      CHECK(names[col] == model.v_names[r] + ".fv");
      CHECK(names[col + 3] == model.v_names[r] + ".ia");
      pi.segment<4>(col) << friction.viscous[r], friction.coulomb[r], offsets[r], armature[r];
    }
    Eigen::VectorXd expected(model.nv);
    friction_torque(friction, v, expected);
    expected += offsets + armature.cwiseProduct(a);
    CHECK_THAT(Y * pi, AllClose(expected, kTolRoundoff, kTolRoundoff));
    // the inertial columns do not change with the drive columns on
    Eigen::MatrixXd inertial(model.nv, regressor_columns(model));
    joint_torque_regressor(model, data, q, v, a, inertial);
    CHECK_THAT(Y.leftCols(first), AllClose(inertial, 0, 0));
  }
}

TEST_CASE("regressor: the model's own drive parameters give rnea plus friction", "[regressor]") {
  const Model model = load_model(kDataDir + "/mjcf/armature.xml");
  Rng rng(5);
  Data data(model);
  const Eigen::VectorXd q = random_configuration(model, rng);
  const Eigen::VectorXd v = random_tangent(model, rng, 2.0);
  const Eigen::VectorXd a = random_tangent(model, rng, 5.0);
  DriveParameters drive = all_drive_columns(0.05);
  drive.offset = false;
  Eigen::MatrixXd Y(model.nv, regressor_columns(model, drive));
  joint_torque_regressor(model, data, q, v, a, Y, drive);
  Friction friction = Friction::from_model(model);
  friction.smoothing = drive.smoothing;
  Eigen::VectorXd expected(model.nv);
  friction_torque(friction, v, expected);
  expected += rnea(model, data, q, v, a);
  REQUIRE(model.armature.cwiseAbs().maxCoeff() > 0);
  CHECK_THAT(Y * regressor_parameters(model, drive),
             AllClose(expected, kTolRoundoff, kTolRoundoff));
}

TEST_CASE("regressor: a floating base's free-flyer has no drive columns", "[regressor]") {
  LoadOptions options;
  options.floating_base = true;
  const Model model = load_urdf(kRobotsDir + "/solo12.urdf", options);
  DriveParameters drive;
  drive.viscous = true;
  CHECK(regressor_columns(model, drive) == 10 * (model.njoints - 1) + (model.nv - 6));
  const std::vector<std::string> names = regressor_parameter_names(model, drive);
  CHECK(names[0] == model.root_link + ".m");
  CHECK(names[10 * (model.njoints - 1)] == model.v_names[6] + ".fv");
}

TEST_CASE("regressor: inertial parameters and back", "[regressor]") {
  Inertia body;
  body.m = 2.5;
  body.c = Vec3(0.1, -0.2, 0.3);
  body.I_c << 0.4, 0.01, -0.02, 0.01, 0.5, 0.03, -0.02, 0.03, 0.6;
  const InertialParameters pi = inertial_parameters(body);
  // I_o = I_c + m ((c . c) 1 - c c^T): Ixx = 0.4 + 2.5 (0.04 + 0.09), Ixy = 0.01 - 2.5 (0.1)(-0.2)
  CHECK(pi[0] == 2.5);
  CHECK(pi[1] == Approx(0.25).epsilon(1e-15));
  CHECK(pi[4] == Approx(0.4 + 2.5 * 0.13).epsilon(1e-15));
  CHECK(pi[5] == Approx(0.01 + 2.5 * 0.02).epsilon(1e-15));
  CHECK(pi[9] == Approx(0.6 + 2.5 * 0.05).epsilon(1e-15));
  const Inertia back = inertia_from_parameters(pi);
  CHECK(back.m == body.m);
  CHECK_THAT(back.c, AllClose(body.c, kTolRoundoff, kTolRoundoff));
  CHECK_THAT(back.I_c, AllClose(body.I_c, kTolRoundoff, kTolRoundoff));
}

TEST_CASE("regressor: wrong sizes are refused, no allocation per call",
          "[regressor]" EOM_ALLOCATION_TAG) {
  const Model model = load_model(kRobotsDir + "/iiwa14.urdf");
  Data data(model);
  const Eigen::VectorXd q = neutral(model), v = Eigen::VectorXd::Ones(model.nv);
  const DriveParameters drive = all_drive_columns(0);
  Eigen::MatrixXd Y(model.nv, regressor_columns(model, drive));
  CHECK(allocations_during([&] { joint_torque_regressor(model, data, q, v, v, Y, drive); }) == 0);
  Eigen::MatrixXd wrong(model.nv, regressor_columns(model));
  CHECK_THROWS_WITH(joint_torque_regressor(model, data, q, v, v, wrong, drive),
                    Catch::Contains("the regressor's columns has"));
}

TEST_CASE("regressor: a mass that is not positive is said in %g form, not 309 digits",
          "[regressor]") {
  const Model model = load_model(kRobotsDir + "/iiwa14.urdf");
  const DriveParameters drive{};
  Eigen::VectorXd pi = regressor_parameters(model, drive);
  pi[0] = -1e308;
  CHECK_THROWS_WITH(model_with_parameters(model, drive, pi),
                    Catch::EndsWith(": mass -1e+308 is not positive: no inertia has these "
                                    "parameters"));
}
