// Velocity-level multi-task IK (differential_ik.cpp): the lecture notes' example (Hutter et al.,
// Robot Dynamics Lecture Notes, §2.9.2) against closed forms derived by hand, weights, damping,
// frame velocity tasks, no allocation, bad tasks.

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/core/errors.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/solvers/ik.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("differential IK: the lecture notes' multi-task example", "[ik]") {
  const double s3 = std::sqrt(3.0);
  Eigen::MatrixXd JE(2, 3);
  JE << 0, -s3, -s3, -4, -3, -1;
  JE *= 0.5;
  VelocityTask end_effector{JE, Eigen::Vector2d(1, 1), {}};
  const Model model = load_urdf(kRobotsDir + "/planar_3r.urdf");
  const VelocityTask joints = joint_velocity_task(model, {0, 1}, Eigen::Vector2d(0, 0));

  const Eigen::VectorXd single = differential_ik_stacked({end_effector}, 3);
  CHECK(single[0] == Approx(0.069).margin(5e-4));
  CHECK(single[1] == Approx(-0.560).margin(5e-4));
  CHECK(single[2] == Approx(-0.595).margin(5e-4));
  CHECK((JE * single - end_effector.w).norm() < 1e-12);  // eq. (2.226)

  const Eigen::VectorXd stacked = differential_ik_stacked({end_effector, joints}, 3);
  CHECK(stacked[0] == Approx(-0.133).margin(5e-4));
  CHECK(stacked[1] == Approx(-0.067).margin(5e-4));
  CHECK(stacked[2] == Approx(-1.132).margin(5e-4));
  CHECK((JE * stacked - end_effector.w).squaredNorm() == Approx(0.0059).margin(5e-5));  // (2.232)

  const Eigen::VectorXd prioritized = differential_ik_prioritized({end_effector, joints}, 3);
  CHECK(prioritized[0] == Approx(-0.169).margin(5e-4));
  CHECK(prioritized[1] == Approx(-0.085).margin(5e-4));
  CHECK(prioritized[2] == Approx(-1.070).margin(5e-4));
  CHECK((JE * prioritized - end_effector.w).norm() < 1e-12);                 // eq. (2.239): exact
  CHECK(prioritized.head<2>().squaredNorm() == Approx(0.036).margin(5e-4));  // (2.240)

  // N1 of eq. (2.237)
  const Eigen::MatrixXd N1 = Eigen::MatrixXd::Identity(3, 3) - damped_pseudo_inverse(JE) * JE;
  Eigen::MatrixXd expected(3, 3);
  expected << 1, -2, 2, -2, 4, -4, 2, -4, 4;
  CHECK((N1 - expected / 9).norm() < 1e-12);
}

TEST_CASE("differential IK: weights, damping and frame velocity tasks", "[ik]") {
  const Model model = load_urdf(kRobotsDir + "/planar_3r.urdf");
  Data data(model);
  const Eigen::Vector3d q(M_PI / 6, M_PI / 3, M_PI / 3);
  const int ee = model.require_frame("ee");
  // x and z of the end-effector velocity, world axes
  const Vec6 twist = (Vec6() << 1, 0, 1, 0, 0, 0).finished();
  const Vec6 mask = (Vec6() << 1, 0, 1, 0, 0, 0).finished();
  const VelocityTask task =
      frame_velocity_task(model, data, q, ee, ReferenceFrame::local_world_aligned, twist, mask);
  REQUIRE(task.J.rows() == 2);
  const Eigen::VectorXd qdot = differential_ik_prioritized({task}, 3);
  const Eigen::Matrix<double, 6, Eigen::Dynamic> J =
      frame_jacobian(model, data, q, ee, ReferenceFrame::local_world_aligned);
  const Vec6 achieved = J * qdot;
  CHECK(achieved[0] == Approx(1).margin(1e-12));
  CHECK(achieved[2] == Approx(1).margin(1e-12));
  // damping shrinks the solution; a heavy weight on a task pulls the stacked solution to it
  const Eigen::VectorXd damped = differential_ik_stacked({task}, 3, 0.5);
  CHECK(damped.norm() < qdot.norm());
  VelocityTask joints = joint_velocity_task(model, {0, 1}, Eigen::Vector2d(0, 0));
  const Eigen::VectorXd equal = differential_ik_stacked({task, joints}, 3);
  joints.weights = Eigen::Vector2d(1e6, 1e6);
  const Eigen::VectorXd heavy = differential_ik_stacked({task, joints}, 3);
  CHECK(heavy.head<2>().norm() < 1e-3 * equal.head<2>().norm());
  CHECK_THROWS_AS(
      frame_velocity_task(model, data, q, ee, ReferenceFrame::world, twist, Vec6::Zero()),
      InputError);
}

// The same example through the workspace with the arm itself: planar_3r moves in the world x-z
// plane (joints about +y), so the notes' end-effector rows (2.224) are (-z, x) of `ee` and their
// velocity (1, 1) is vx = 1, vz = -1 in world axes. Closed forms by hand from J_E, w = (1, 1):
// single J^T (J J^T)^-1 w = ((8 s3 - 12)/27, -(7 s3 + 3)/27, (3 - 11 s3)/27); stacked
// (Jbar^T Jbar)^-1 J^T w with Jbar^T Jbar = [5 3 1; 3 4 1.5; 1 1.5 1] gives
// ((2 s3 - 6)/19, (s3 - 3)/19, (1 - 13 s3)/19); prioritized, N1 = n n^T with n = (1, -2, 2)/3,
// qdot = single - (u1 - 2 u2)/5 (1, -2, 2) = ((2 s3 - 6)/15, (s3 - 3)/15, (3 - 11 s3)/15).
TEST_CASE("DifferentialIk: the notes' example from the URDF, without allocating",
          "[ik]" EOM_ALLOCATION_TAG) {
  const Model model = load_urdf(kRobotsDir + "/planar_3r.urdf");
  const double s3 = std::sqrt(3.0);
  const Eigen::Vector3d q(M_PI / 6, M_PI / 3, M_PI / 3);
  const Eigen::Vector3d single((8 * s3 - 12) / 27, -(7 * s3 + 3) / 27, (3 - 11 * s3) / 27);
  const Eigen::Vector3d stacked((2 * s3 - 6) / 19, (s3 - 3) / 19, (1 - 13 * s3) / 19);
  const Eigen::Vector3d prioritized((2 * s3 - 6) / 15, (s3 - 3) / 15, (3 - 11 * s3) / 15);
  const Vec6 xz = (Vec6() << 1, 0, 1, 0, 0, 0).finished();
  const int ee = model.require_frame("ee");

  DifferentialIk alone(
      model, {VelocityTaskSpec::frame_velocity(ee, ReferenceFrame::local_world_aligned, xz)});
  REQUIRE(alone.rows(0) == 2);
  alone.target(0) = Eigen::Vector2d(1, -1);
  alone.update(q);
  CHECK((alone.solve_stacked() - single).norm() < 1e-12);
  CHECK((alone.solve_prioritized() - single).norm() < 1e-12);
  CHECK(alone.residual(0) < 1e-12);

  DifferentialIk ik(model,
                    {VelocityTaskSpec::frame_velocity(ee, ReferenceFrame::local_world_aligned, xz),
                     VelocityTaskSpec::joint_velocity({0, 1})});
  ik.target(0) = Eigen::Vector2d(1, -1);
  ik.update(q);
  CHECK((ik.solve_stacked() - stacked).norm() < 1e-12);
  // J_E qdot - w = ((s3 - 1)/19, (s3 - 3)/19), squared norm (16 - 8 s3)/361 = 0.0059 (2.232)
  CHECK(ik.residual(0) == Approx(std::sqrt(16 - 8 * s3) / 19).epsilon(1e-12));
  CHECK(ik.residual(1) == Approx(stacked.head<2>().norm()));
  CHECK((ik.solve_prioritized() - prioritized).norm() < 1e-12);
  CHECK(ik.residual(0) < 1e-12);
  CHECK(ik.residual(1) == Approx(prioritized.head<2>().norm()));
  // the free functions give the same
  Data data(model);
  const VelocityTask task =
      frame_velocity_task(model, data, q, ee, ReferenceFrame::local_world_aligned,
                          (Vec6() << 1, 0, -1, 0, 0, 0).finished(), xz);
  const VelocityTask joints = joint_velocity_task(model, {0, 1}, Eigen::Vector2d(0, 0));
  CHECK((differential_ik_stacked({task, joints}, 3) - stacked).norm() < 1e-12);
  CHECK((differential_ik_prioritized({task, joints}, 3) - prioritized).norm() < 1e-12);

  // per row: update and both solves allocate nothing, damped or not
  CHECK(allocations_during([&] {
          ik.target(0) = Eigen::Vector2d(0.5, 0.25);
          ik.update(q);
          ik.solve_stacked();
          ik.solve_prioritized(0.1);
          ik.solve_stacked(0.1);
          ik.solve_prioritized();
          (void)ik.residual(1);
        }) == 0);
}

TEST_CASE("DifferentialIk: bad tasks", "[ik]") {
  const Model model = load_urdf(kRobotsDir + "/planar_3r.urdf");
  const auto frame = [&](const Vec6& mask) {
    return VelocityTaskSpec::frame_velocity(model.require_frame("ee"),
                                            ReferenceFrame::local_world_aligned, mask);
  };
  CHECK_THROWS_WITH(DifferentialIk(model, {frame(Vec6::Zero())}),
                    Catch::Contains("the mask selects nothing"));
  CHECK_THROWS_WITH(DifferentialIk(model, {VelocityTaskSpec::joint_velocity({})}),
                    Catch::Contains("no joint selected"));
  CHECK_THROWS_WITH(DifferentialIk(model, {VelocityTaskSpec::joint_velocity({3})}),
                    Catch::Contains("velocity index 3 is out of range"));
  CHECK_THROWS_WITH(DifferentialIk(model, {VelocityTaskSpec::frame_velocity(
                                              999, ReferenceFrame::world, Vec6::Ones())}),
                    Catch::Contains("frame index 999 is out of range"));
  CHECK_THROWS_AS(DifferentialIk(3, {VelocityTaskSpec::frame_velocity(0, ReferenceFrame::world)}),
                  InputError);
}
