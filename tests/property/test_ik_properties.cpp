// IK properties: a Cartesian path becomes a continuous joint path; IK round-trips through FK on
// every arm with the deterministic budget; solutions prefer the seed's neighbourhood.

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/multibody/configuration.hpp>
#include <eom/solvers/ik.hpp>
#include <eom/solvers/ik_path.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/parsers/urdf.hpp>

#include "paths.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("IK trajectory: a circle of the iiwa's tool gives a continuous joint path", "[ik]") {
  const Model model = load_urdf(kRobotsDir + "/iiwa14.urdf");
  Data data(model);
  IkSolver solver(model);
  IkProblem problem;
  problem.frame = model.require_frame("iiwa_link_ee");
  // a start posture away from singularities; the circle lies in a vertical plane in front
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.nq);
  q << 0.2, 0.6, -0.1, -1.4, 0.1, 0.9, 0.3;
  frame_placements(model, data, q);
  const SE3 start = data.oMf[problem.frame];
  const double radius = 0.15;
  const Vec3 centre = start.p - Vec3(0, radius, 0);
  const int rows = 200;
  IkOptions options;
  options.timeout = 0;
  options.null_space = NullSpaceObjective::seed;  // the self-motion stays put
  double largest_jump = 0;
  for (int k = 0; k <= rows; ++k) {
    const double t = 2 * M_PI * k / rows;
    problem.target = start;
    problem.target.p = centre + radius * Vec3(0, std::cos(t), std::sin(t));
    const IkResult& r = solver.solve(problem, q, options);  // seed: the previous row
    INFO("row " << k);
    REQUIRE(r.converged());
    REQUIRE(r.restarts == 0);
    largest_jump = std::max(largest_jump, r.jump);
    q = r.q;
  }
  // a 2 pi / 200 step of a 0.15 m circle moves the tool 4.7 mm: joints move by a few mrad
  CHECK(largest_jump < 0.05);
  // and the path closes: back at the start pose near the start configuration
  frame_placements(model, data, q);
  CHECK((data.oMf[problem.frame].p - start.p).norm() < 1e-6);
}

TEST_CASE("IK round trip on every arm within the deterministic budget", "[ik]") {
  struct Arm {
    const char* path;
    const char* tip;
  };
  const Arm arms[] = {{"/robots/ur5.urdf", "tool0"},
                      {"/robots/panda.urdf", "panda_hand_tcp"},
                      {"/robots/iiwa14.urdf", "iiwa_link_ee"},
                      {"/tests/data/robots/kinova.urdf", "j2s6s200_end_effector"},
                      {"/tests/data/robots/z1.urdf", "gripperStator"},
                      {"/tests/data/robots/talos_left_arm.urdf", "wrist_left_ft_tool_link"}};
  for (const Arm& arm : arms) {
    const Model model = load_urdf(kSourceDir + arm.path);
    Data data(model);
    IkSolver solver(model);
    IkProblem problem;
    problem.frame = model.require_frame(arm.tip);
    IkOptions options;
    options.timeout = 0;
    options.position_tolerance = options.orientation_tolerance = 1e-5;
    const Eigen::VectorXd seed = nominal_seed(model);
    Rng rng(77);
    int converged = 0;
    const int samples = 200;
    for (int s = 0; s < samples; ++s) {
      const Eigen::VectorXd q = random_configuration(model, rng);
      frame_placements(model, data, q);
      problem.target = data.oMf[problem.frame];
      options.random_seed = s;
      const IkResult& r = solver.solve(problem, seed, options);
      converged += r.converged();
      for (int k = 0; k < model.nq; ++k) {
        REQUIRE(r.q[k] >= model.lower_limit[k]);
        REQUIRE(r.q[k] <= model.upper_limit[k]);
      }
    }
    INFO(arm.path);
    CHECK(converged == samples);
  }
}

TEST_CASE("IK prefers the solution nearest the seed", "[ik]") {
  // several converged solutions collected: the one returned is at least as near the seed as the
  // first one found
  const Model model = load_urdf(kRobotsDir + "/ur5.urdf");
  Data data(model);
  IkSolver solver(model);
  IkProblem problem;
  problem.frame = model.require_frame("tool0");
  Rng rng(3);
  for (int s = 0; s < 20; ++s) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    frame_placements(model, data, q);
    problem.target = data.oMf[problem.frame];
    const Eigen::VectorXd seed = random_configuration(model, rng);
    IkOptions options;
    options.timeout = 0;
    options.random_seed = s;
    const IkResult one = solver.solve(problem, seed, options);
    options.solutions = 8;
    const IkResult& best = solver.solve(problem, seed, options);
    REQUIRE(one.converged());
    REQUIRE(best.converged());
    CHECK(difference(model, seed, best.q).norm() <= difference(model, seed, one.q).norm() + 1e-12);
  }
}
