// Inverse kinematics: IkSolver round trips, masks, relative targets, restarts, bad input, no
// allocation. The velocity level is test_differential_ik.cpp.

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/multibody/configuration.hpp>
#include <eom/core/errors.hpp>
#include <eom/solvers/ik.hpp>
#include <eom/solvers/ik_path.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

namespace {

bool within_limits(const Model& model, const Eigen::VectorXd& q) {
  for (int k = 0; k < model.nq; ++k) {
    if (!(q[k] >= model.lower_limit[k] && q[k] <= model.upper_limit[k])) return false;
  }
  return true;
}

// pose error of frame f at q against target (world), measured independently of the solver
void pose_error(const Model& model, const Eigen::VectorXd& q, int f, const SE3& target,
                double& position, double& orientation) {
  Data data(model);
  frame_placements(model, data, q);
  position = (data.oMf[f].p - target.p).norm();
  orientation = log3(data.oMf[f].R.transpose() * target.R).norm();
}

struct Arm {
  const char* path;
  const char* tip;
};

}  // namespace

TEST_CASE("IK round trip: FK of a random configuration is reached within limits", "[ik]") {
  const Arm arms[] = {{"/robots/ur5.urdf", "tool0"},
                      {"/robots/panda.urdf", "panda_hand_tcp"},
                      {"/robots/iiwa14.urdf", "iiwa_link_ee"},
                      {"/tests/data/robots/kinova.urdf", "j2s6s200_end_effector"},
                      {"/tests/data/robots/z1.urdf", "gripperStator"},
                      {"/tests/data/robots/talos_left_arm.urdf", "wrist_left_ft_tool_link"}};
  for (const Arm& arm : arms) {
    SECTION(arm.path) {
      const Model model = load_urdf(kSourceDir + arm.path);
      Data data(model);
      IkSolver solver(model);
      IkProblem problem;
      problem.frame = model.require_frame(arm.tip);  // a fixed-joint frame on every arm
      const Eigen::VectorXd seed = nominal_seed(model);
      IkOptions options;
      options.timeout = 0;  // the deterministic budget alone
      Rng rng(11);
      for (int s = 0; s < 50; ++s) {
        const Eigen::VectorXd q = random_configuration(model, rng);
        frame_placements(model, data, q);
        problem.target = data.oMf[problem.frame];
        options.random_seed = s;
        const IkResult& r = solver.solve(problem, seed, options);
        INFO("sample " << s);
        REQUIRE(r.converged());
        CHECK(within_limits(model, r.q));
        double pe, oe;
        pose_error(model, r.q, problem.frame, problem.target, pe, oe);
        CHECK(pe <= options.position_tolerance * (1 + 1e-9));
        CHECK(oe <= options.orientation_tolerance * (1 + 1e-9));
        CHECK(r.position_error == Approx(pe).margin(1e-12));
      }
    }
  }
}

TEST_CASE("IK from the solution converges at once; same seed, same bits", "[ik]") {
  const Model model = load_urdf(kRobotsDir + "/panda.urdf");
  Data data(model);
  IkSolver solver(model);
  Rng rng(5);
  const Eigen::VectorXd q = random_configuration(model, rng);
  frame_placements(model, data, q);
  IkProblem problem;
  problem.frame = model.require_frame("panda_link8");
  problem.target = data.oMf[problem.frame];
  const IkResult& at_solution = solver.solve(problem, q);
  CHECK(at_solution.converged());
  CHECK(at_solution.iterations == 0);
  CHECK(at_solution.q == q);
  CHECK(at_solution.jump == 0);

  // a target out of reach exercises every restart; two runs agree bit for bit
  problem.target.p = Eigen::Vector3d(3, 0, 0.5);
  IkOptions options;
  options.timeout = 0;
  options.random_seed = 99;
  options.max_total_iterations = 400;
  const IkResult first = solver.solve(problem, nominal_seed(model), options);
  const IkResult second = solver.solve(problem, nominal_seed(model), options);
  CHECK(first.q == second.q);
  CHECK(first.iterations == second.iterations);
  CHECK(first.restarts == second.restarts);
  CHECK(first.restarts > 0);
  CHECK(first.iterations <= 400);
}

TEST_CASE("IK: an unreachable target fails with the best residual", "[ik]") {
  const Model model = load_urdf(kRobotsDir + "/ur5.urdf");
  IkSolver solver(model);
  IkProblem problem;
  problem.frame = model.require_frame("tool0");
  problem.target.p = Eigen::Vector3d(5, 0, 0);  // the UR5 reaches under 1 m
  problem.weights = ik_mask_weights("position");
  IkOptions options;
  options.timeout = 0;
  options.max_total_iterations = 500;
  const IkResult& r = solver.solve(problem, nominal_seed(model), options);
  CHECK_FALSE(r.converged());
  CHECK(within_limits(model, r.q));
  // the best residual: the arm stretched towards the target, about 5 m - reach
  double pe, oe;
  pose_error(model, r.q, problem.frame, problem.target, pe, oe);
  CHECK(r.position_error == Approx(pe).margin(1e-12));
  CHECK(pe > 3.9);
  CHECK(pe < 4.2);
}

TEST_CASE("IK masks: position only, chosen axes, weights", "[ik]") {
  const Model model = load_urdf(kRobotsDir + "/iiwa14.urdf");
  Data data(model);
  IkSolver solver(model);
  Rng rng(8);
  const Eigen::VectorXd q = random_configuration(model, rng);
  frame_placements(model, data, q);
  IkProblem problem;
  problem.frame = model.require_frame("iiwa_link_ee");
  problem.target = data.oMf[problem.frame];
  problem.target.R = exp3(Vec3(0.3, -2, 1)) * problem.target.R;  // unreachable with the position

  SECTION("position only") {
    problem.weights = ik_mask_weights("position");
    const IkResult& r = solver.solve(problem, nominal_seed(model));
    REQUIRE(r.converged());
    frame_placements(model, data, r.q);
    CHECK((data.oMf[problem.frame].p - problem.target.p).norm() <= 1e-6);
    CHECK(r.orientation_error == 0);  // nothing selected, nothing measured
  }
  SECTION("chosen axes: x and z of the position, rotation about z") {
    problem.weights = ik_mask_weights("x, z, rz");
    problem.target.p.y() += 10;  // y is free
    const IkResult& r = solver.solve(problem, nominal_seed(model));
    REQUIRE(r.converged());
    frame_placements(model, data, r.q);
    CHECK(std::abs(data.oMf[problem.frame].p.x() - problem.target.p.x()) <= 1e-6);
    CHECK(std::abs(data.oMf[problem.frame].p.z() - problem.target.p.z()) <= 1e-6);
    const Vec3 w = log3(problem.target.R * data.oMf[problem.frame].R.transpose());
    CHECK(std::abs(w.z()) <= 1e-6);
  }
  SECTION("weights scale the components") {
    const Vec6 w = ik_mask_weights("x,rx", 2, 0.5);
    CHECK(w == (Vec6() << 2, 0, 0, 0.5, 0, 0).finished());
    CHECK(ik_mask_weights("") == Vec6::Ones());
    CHECK(ik_mask_weights("orientation") == (Vec6() << 0, 0, 0, 1, 1, 1).finished());
  }
}

TEST_CASE("IK: a target relative to another moving frame", "[ik]") {
  const Model model = load_urdf(kRobotsDir + "/panda.urdf");
  Data data(model);
  IkSolver solver(model);
  Rng rng(21);
  const Eigen::VectorXd q = random_configuration(model, rng);
  frame_placements(model, data, q);
  IkProblem problem;
  problem.frame = model.require_frame("panda_hand_tcp");
  problem.reference = model.require_frame("panda_link2");
  problem.target = data.oMf[problem.reference].inverse() * data.oMf[problem.frame];
  IkOptions options;
  options.timeout = 0;
  const IkResult& r = solver.solve(problem, nominal_seed(model), options);
  REQUIRE(r.converged());
  frame_placements(model, data, r.q);
  const SE3 rMf = data.oMf[problem.reference].inverse() * data.oMf[problem.frame];
  CHECK((rMf.p - problem.target.p).norm() <= 1e-6);
  CHECK(log3(rMf.R.transpose() * problem.target.R).norm() <= 1e-6);
  // joints above panda_link2 do not change the relative pose: they keep the seed
  CHECK(r.q[model.joints[model.joint_index("panda_joint1")].idx_q] ==
        nominal_seed(model)[model.joints[model.joint_index("panda_joint1")].idx_q]);
}

TEST_CASE("IK: continuous joints end on the turn nearest the seed", "[ik]") {
  const Model model = load_urdf(kDataDir + "/robots/kinova.urdf");
  Data data(model);
  IkSolver solver(model);
  Rng rng(4);
  const Eigen::VectorXd q = random_configuration(model, rng);
  frame_placements(model, data, q);
  IkProblem problem;
  problem.frame = model.require_frame("j2s6s200_end_effector");
  problem.target = data.oMf[problem.frame];
  Eigen::VectorXd seed = q;
  int continuous = 0;
  for (int i = 1; i < model.njoints; ++i) {
    if (!model.joints[i].bounded) {
      seed[model.joints[i].idx_q] += 4 * M_PI + 0.01;  // two turns away, slightly off
      ++continuous;
    }
  }
  REQUIRE(continuous > 0);
  const IkResult& r = solver.solve(problem, seed);
  REQUIRE(r.converged());
  CHECK(r.jump <= M_PI);
  for (int i = 1; i < model.njoints; ++i) {
    if (!model.joints[i].bounded) {
      const int iq = model.joints[i].idx_q;
      CHECK(std::abs(r.q[iq] - seed[iq]) <= M_PI);
    }
  }
}

TEST_CASE("IK null space: a posture objective keeps the primary task", "[ik]") {
  const Model model = load_urdf(kRobotsDir + "/iiwa14.urdf");
  Data data(model);
  IkSolver solver(model);
  Rng rng(13);
  const Eigen::VectorXd q = random_configuration(model, rng);
  frame_placements(model, data, q);
  IkProblem problem;
  problem.frame = model.require_frame("iiwa_link_ee");
  problem.target = data.oMf[problem.frame];
  // start at the solution: only the secondary objective moves q, along the self-motion
  IkOptions options;
  options.position_tolerance = options.orientation_tolerance = 1e-9;
  options.null_space = NullSpaceObjective::posture;
  options.posture = nominal_seed(model);
  options.null_space_gain = 0.5;
  problem.target.p.x() += 1e-3;  // a small move so that it iterates
  const IkResult& r = solver.solve(problem, q, options);
  REQUIRE(r.converged());
  CHECK(r.position_error <= 1e-9);
  const double moved_with = (r.q - options.posture).norm();
  options.null_space = NullSpaceObjective::none;
  const IkResult& plain = solver.solve(problem, q, options);
  REQUIRE(plain.converged());
  CHECK(moved_with < (plain.q - options.posture).norm());
}

TEST_CASE("IK bad input: clear errors", "[ik]") {
  const Model model = load_urdf(kRobotsDir + "/ur5.urdf");
  IkSolver solver(model);
  const Eigen::VectorXd seed = nominal_seed(model);
  IkProblem problem;
  problem.frame = model.require_frame("tool0");

  CHECK_THROWS_WITH(model.require_frame("tool1"), Catch::Contains("tool0"));
  problem.weights.setZero();
  CHECK_THROWS_WITH(solver.solve(problem, seed), Catch::Contains("selects nothing"));
  CHECK_THROWS_WITH(ik_mask_weights("x", 0, 1), Catch::Contains("selects nothing"));
  CHECK_THROWS_WITH(ik_mask_weights("x,w"), Catch::Contains("'w'"));
  problem.weights.setOnes();
  problem.frame = model.require_frame("base_link");  // welded to the world
  CHECK_THROWS_WITH(solver.solve(problem, seed), Catch::Contains("no moving joint above it"));
  problem.frame = model.require_frame("tool0");
  problem.reference = model.require_frame("ee_link");  // same body as tool0
  CHECK_THROWS_WITH(solver.solve(problem, seed), Catch::Contains("rigidly attached"));
  problem.reference = -1;
  CHECK_THROWS_AS(solver.solve(problem, Eigen::VectorXd::Zero(3)), InputError);

  bool renormalised = true;
  const Mat3 R = checked_quaternion(0, 0, 0, 1, renormalised);
  CHECK_FALSE(renormalised);
  CHECK(R == Mat3::Identity());
  checked_quaternion(0, 0, 0.6, 0.8 * (1 + 1e-5), renormalised);
  CHECK(renormalised);
  CHECK_THROWS_WITH(checked_quaternion(0, 0, 0, 2, renormalised), Catch::Contains("norm"));
  CHECK_THROWS_AS(checked_quaternion(0, 0, 0, 0, renormalised), InputError);
  const Mat3 Rn = checked_rotation_matrix(exp3(Vec3(0.1, 0.2, 0.3)) * (1 + 1e-6), renormalised);
  CHECK(renormalised);
  CHECK((Rn.transpose() * Rn - Mat3::Identity()).norm() < 1e-14);
  CHECK_THROWS_AS(checked_rotation_matrix(2 * Mat3::Identity(), renormalised), InputError);
  CHECK_THROWS_AS(checked_rotation_matrix(-Mat3::Identity(), renormalised), InputError);
}

TEST_CASE("IkSolver::solve allocates nothing", "[ik]" EOM_ALLOCATION_TAG) {
  const Model model = load_urdf(kRobotsDir + "/panda.urdf");
  Data data(model);
  IkSolver solver(model);
  Rng rng(2);
  const Eigen::VectorXd q = random_configuration(model, rng);
  frame_placements(model, data, q);
  IkProblem problem;
  problem.frame = model.require_frame("panda_hand_tcp");
  problem.target = data.oMf[problem.frame];
  const Eigen::VectorXd seed = nominal_seed(model);
  IkOptions options;
  options.null_space = NullSpaceObjective::centre;
  solver.solve(problem, seed, options);  // warm
  CHECK(allocations_during([&] { solver.solve(problem, seed, options); }) == 0);
  // restarts, a relative target and a mask too
  problem.target.p = Vec3(3, 0, 0);
  problem.reference = model.require_frame("panda_link1");
  problem.weights = ik_mask_weights("x,y,z,rz");
  options.max_total_iterations = 300;
  CHECK(allocations_during([&] { solver.solve(problem, seed, options); }) == 0);
  CHECK(solver.result().restarts > 0);
}

// Hutter et al., Robot Dynamics Lecture Notes, example 2.9.1: 3-DOF planar arm with unit links at
// q = (pi/6, pi/3, pi/3); the end-effector Jacobian of eq. (2.224), velocity (1, 1), and a task
// keeping joints 1 and 2 still. The notes print three decimals.
TEST_CASE("IK with a floating base: the free-flyer moves, its quaternion stays unit", "[ik]") {
  LoadOptions urdf;
  urdf.floating_base = true;
  const Model model = load_urdf(kRobotsDir + "/solo12.urdf", urdf);
  Data data(model);
  IkSolver solver(model);
  Rng rng(9);
  const Eigen::VectorXd q = random_configuration(model, rng);
  frame_placements(model, data, q);
  IkProblem problem;
  problem.frame = model.require_frame("FL_FOOT");
  problem.target = data.oMf[problem.frame];
  IkOptions options;
  options.timeout = 0;
  const IkResult& r = solver.solve(problem, neutral(model), options);
  REQUIRE(r.converged());
  CHECK(std::abs(r.q.segment<4>(3).norm() - 1) < 1e-12);
  double pe, oe;
  pose_error(model, r.q, problem.frame, problem.target, pe, oe);
  CHECK(pe <= 1e-6);
  CHECK(oe <= 1e-6);
  // relative to the base the foot needs only the leg: the base keeps the seed
  problem.reference = model.require_frame("base_link");
  problem.target = data.oMf[problem.reference].inverse() * data.oMf[problem.frame];
  const IkResult& leg = solver.solve(problem, neutral(model), options);
  REQUIRE(leg.converged());
  CHECK(leg.q.head<7>() == neutral(model).head<7>());
}
