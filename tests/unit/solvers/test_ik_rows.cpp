// IK over the rows of a table: targets from named columns (position, quaternion, roll-pitch-yaw,
// rotation matrix, weights), the nominal seed, NAME=VALUE coordinates, and IkPath's seeding
// policy and row statistics on the planar 3R arm (unit links in the world x-z plane).

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/algorithm/kinematics.hpp>
#include <eom/core/errors.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/solvers/ik_path.hpp>
#include <eom/solvers/ik_target.hpp>

#include "matchers.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

namespace {

const Vec6 kAll = Vec6::Ones();
const Vec6 kPosition = (Vec6() << 1, 1, 1, 0, 0, 0).finished();

}  // namespace

TEST_CASE("a target from roll-pitch-yaw columns", "[ik_rows]") {
  const Header header{{"t", "ee.x", "ee.y", "ee.z", "ee.roll", "ee.pitch", "ee.yaw"}};
  IkTargetColumns target(header, "ee", kAll, "targets.csv");
  CHECK(target.orientation() == TargetOrientation::rpy);
  CHECK(target.columns() == std::vector<int>{1, 2, 3, 4, 5, 6});
  IkProblem problem;
  target.read({0, 1, 2, 3, 0, 0, M_PI / 2}, 2, 0, problem);
  CHECK_THAT(problem.target.p, AllClose(Eigen::Vector3d(1, 2, 3), 0));
  // yaw pi/2 about world z: the quaternion (0, 0, sin pi/4, cos pi/4)
  const Eigen::Quaterniond q(problem.target.R);
  CHECK_THAT(q.coeffs(), AllClose(Eigen::Vector4d(0, 0, std::sqrt(0.5), std::sqrt(0.5)), 1e-15));
  CHECK_THAT(problem.weights, AllClose(kAll, 0));
  CHECK(target.normalised().rows == 0);
}

TEST_CASE("a target quaternion a little off unit norm is normalised and counted", "[ik_rows]") {
  const Header header{{"ee.x", "ee.y", "ee.z", "ee.qx", "ee.qy", "ee.qz", "ee.qw"}};
  IkTargetColumns target(header, "ee", kAll, "targets.csv");
  IkProblem problem;
  target.read({0, 0, 0, 0, 0, 0, 1}, 2, 0.5, problem);
  target.read({0, 0, 0, 0, 0, 0, 1.0001}, 3, 1.0, problem);
  CHECK_THAT(problem.target.R, AllClose(Mat3::Identity(), 1e-15));
  CHECK(target.normalised().rows == 1);
  CHECK(target.normalised().first_line == 3);
  CHECK(target.normalised().worst == Approx(1e-4));
  CHECK_THROWS_AS(target.read({0, 0, 0, 0, 0, 0, 1.1}, 4, 1.5, problem), InputError);
}

TEST_CASE("a target rotation matrix and per-row weights", "[ik_rows]") {
  const Header header{{"ee.x", "ee.y", "ee.z", "ee.R.x.x", "ee.R.x.y", "ee.R.x.z", "ee.R.y.x",
                       "ee.R.y.y", "ee.R.y.z", "ee.R.z.x", "ee.R.z.y", "ee.R.z.z", "ik.weight.rz"}};
  IkTargetColumns target(header, "ee", kAll, "targets.csv");
  CHECK(target.orientation() == TargetOrientation::matrix);
  IkProblem problem;
  // a quarter turn about z, row by row
  target.read({1, 0, 0, 0, -1, 0, 1, 0, 0, 0, 0, 1, 0.25}, 2, 0, problem);
  Mat3 R;
  R << 0, -1, 0, 1, 0, 0, 0, 0, 1;
  CHECK_THAT(problem.target.R, AllClose(R, 1e-15));
  CHECK_THAT(problem.weights, AllClose((Vec6() << 1, 1, 1, 1, 1, 0.25).finished(), 0));
  CHECK_THROWS_AS(target.read({1, 0, 0, 0, -1, 0, 1, 0, 0, 0, 0, 1, -1}, 3, 0, problem),
                  InputError);
}

TEST_CASE("target columns: position only, two orientations, none", "[ik_rows]") {
  IkProblem problem;
  IkTargetColumns position(Header{{"ee.x", "ee.y", "ee.z"}}, "ee", kPosition, "a.csv");
  position.read({1, 2, 3}, 2, 0, problem);
  CHECK_THAT(problem.target.R, AllClose(Mat3::Identity(), 0));
  CHECK_THAT(problem.weights, AllClose(kPosition, 0));
  CHECK_THROWS_WITH(IkTargetColumns(Header{{"ee.x", "ee.y", "ee.z"}}, "ee", kAll, "a.csv"),
                    Catch::Contains("a.csv:1: missing the target orientation of ee"));
  CHECK_THROWS_WITH(
      IkTargetColumns(Header{{"ee.x", "ee.y", "ee.z", "ee.qw", "ee.roll"}}, "ee", kAll, "a.csv"),
      Catch::Contains("given both as quaternion and as roll-pitch-yaw"));
}

TEST_CASE("the nominal seed and NAME=VALUE coordinates", "[ik_rows]") {
  const Model panda = load_urdf(kRobotsDir + "/panda.urdf");
  const Eigen::VectorXd seed = nominal_seed(panda);
  // panda_joint4 is limited to [-3.0718, -0.0698]
  CHECK(seed[3] == Approx(-1.5708));
  const auto [k, value] = coordinate_value(panda, "panda_joint4=1.5", "--q0");
  CHECK(k == 3);
  CHECK(value == 1.5);
  CHECK_THROWS_WITH(coordinate_value(panda, "panda_joint4", "--q0"),
                    "--q0 panda_joint4: expected NAME=VALUE");
  CHECK_THROWS_WITH(coordinate_value(panda, "elbow=1", "--q0"),
                    Catch::StartsWith("--q0 elbow=1: the model has no joint coordinate 'elbow'"));
  const Eigen::VectorXd q =
      with_coordinate_values(panda, seed, {"panda_joint1=0.5", "panda_joint4=-1"}, "--q0");
  CHECK(q[0] == 0.5);
  CHECK(q[3] == -1);
  CHECK(q[1] == seed[1]);

  CHECK(parse_null_space_objective("seed") == NullSpaceObjective::seed);
  CHECK(parse_null_space_objective("center") == NullSpaceObjective::centre);
  CHECK(parse_null_space_objective("none") == NullSpaceObjective::none);
  CHECK_FALSE(parse_null_space_objective("middle"));
}

TEST_CASE("IkPath: which rows are a path", "[ik_rows]") {
  const Model model = load_urdf(kRobotsDir + "/planar_3r.urdf");
  const Eigen::VectorXd seed = Eigen::VectorXd::Zero(3);
  CHECK(IkPath(model, seed, Header{{"t", "ee.x"}}, "t", false, 0.3).is_path());
  CHECK_FALSE(IkPath(model, seed, Header{{"t", "ee.x"}}, "t", true, 0.3).is_path());
  CHECK_FALSE(IkPath(model, seed, Header{{"ee.x"}}, "t", false, 0.3).is_path());
  CHECK_FALSE(IkPath(model, seed, Header{{"t", "q.joint2", "ee.x"}}, "t", false, 0.3).is_path());
}

TEST_CASE("IkPath: seeds from the table's q columns", "[ik_rows]") {
  const Model model = load_urdf(kRobotsDir + "/planar_3r.urdf");
  Data data(model);
  IkProblem problem;
  problem.frame = model.require_frame("ee");
  problem.weights = kPosition;
  // the target is where the seed (0, 0.5, 0) puts the end effector: solved where it starts
  const Eigen::Vector3d start(0, 0.5, 0);
  frame_placements(model, data, start);
  problem.target = SE3{Mat3::Identity(), data.oMf[problem.frame].p};
  IkPath path(model, Eigen::VectorXd::Zero(3), Header{{"q.joint2", "ee.x"}}, "t", false, 0.3);
  const IkResult& r = path.solve(problem, Eigen::Vector3d(7, 0.5, 7), 2, 0, IkOptions{});
  CHECK(r.converged());
  CHECK_THAT(r.q, AllClose(start, 1e-12));
}

TEST_CASE("IkPath: a path's jumps and failures are counted", "[ik_rows]") {
  const Model model = load_urdf(kRobotsDir + "/planar_3r.urdf");
  IkProblem problem;
  problem.frame = model.require_frame("ee");
  problem.weights = kPosition;
  IkOptions options;
  options.max_restarts = 2;
  IkPath path(model, Eigen::VectorXd::Zero(3), Header{{"t", "ee.x", "ee.z"}}, "t", false, 0.3);
  REQUIRE(path.is_path());
  const Eigen::Vector3d unused = Eigen::Vector3d::Zero();
  const auto at = [&](double x, double z, int line) {
    problem.target = SE3{Mat3::Identity(), Vec3(x, 0, z)};
    return path.solve(problem, unused, line, 0.1 * line, options).converged();
  };
  CHECK(at(2, 1, 2));
  CHECK(at(2, 1, 3));         // from the previous solution: no jump
  CHECK(at(2, -1, 4));        // across the x axis: the joints jump
  CHECK_FALSE(at(10, 0, 5));  // 10 m away, the arm reaches 3
  const IkRowStatistics& s = path.statistics();
  CHECK(s.rows == 4);
  CHECK(s.converged == 3);
  CHECK(s.jumps.rows == 1);
  CHECK(s.jumps.first_line == 4);
  CHECK(s.jumps.worst > 0.3);
  CHECK(s.failures.rows == 1);
  CHECK(s.failures.first_line == 5);
  CHECK(s.first_failure_position_error == Approx(7).epsilon(1e-3));
  CHECK(s.solve_time_us.count() == 4);
}

TEST_CASE("IkPath: a +-2 pi joint driven through its limit unwinds a turn, the arm stays",
          "[ik_rows]") {
  // the UR5's shoulder pan spans +-2 pi: a path turning it from 5.9 rad past 2 pi (6.28) must
  // come out as the same arm with the pan a turn back (issue 38 item 25), not a restart onto
  // another configuration (elbow or wrist flipped: several radians on other joints)
  const double kTurn = 2 * EIGEN_PI;
  const Model model = load_urdf(kRobotsDir + "/ur5.urdf");
  Data data(model);
  IkProblem problem;
  problem.frame = model.require_frame("ee_link");
  problem.weights = kAll;
  Eigen::VectorXd q(6);
  q << 5.9, -1.1, 1.4, -0.9, 1.2, 0.4;
  IkPath path(model, q, Header{{"t", "ee.x"}}, "t", false, 0.3);
  REQUIRE(path.is_path());
  const Eigen::VectorXd others = q.tail(5);
  double previous = q[0];
  for (int row = 0; row <= 20; ++row) {
    q[0] = 5.9 + 0.04 * row;  // past 2 pi at row 10
    frame_placements(model, data, q);
    problem.target = data.oMf[problem.frame];
    const IkResult& r = path.solve(problem, q, row + 2, 0.01 * row, IkOptions{});
    CAPTURE(row, r.q.transpose());
    REQUIRE(r.converged());  // every target reached
    CHECK(r.restarts == 0);  // from the previous row, no search elsewhere
    // the same arm: the other joints as they were made, the pan the same angle within a turn
    // (to what the pose tolerance, 1e-6 m and rad at the tool, leaves on the joints: 4e-6 rad)
    CHECK_THAT(r.q.tail(5), AllClose(others, 1e-4));
    CHECK(std::abs(std::remainder(r.q[0] - q[0], kTurn)) < 1e-4);
    CHECK(r.q[0] >= model.lower_limit[0]);
    CHECK(r.q[0] <= model.upper_limit[0]);
    // continuous but for the one turn back at the limit
    CHECK(std::abs(std::remainder(r.q[0] - previous, kTurn)) < 0.05);
    previous = r.q[0];
  }
  CHECK(previous == Approx(5.9 + 0.8 - kTurn).margin(1e-4));
  CHECK(path.statistics().jumps.rows == 1);  // the turn back, said as a jump
}

TEST_CASE("IkPath: a path starting at a singular pose takes the member the next rows go on from",
          "[ik_rows]") {
  // the UR5 stretched at the wrist (wrist_2 = 0: wrist_1 and wrist_3 parallel) reaches its first
  // pose for every split of a turn between them; the path then leaves the singularity, which
  // fixes the split. Seeded on another member (wrist_1 0.5 higher, wrist_3 0.5 lower, the same
  // pose), the second row jumps back by 0.5 rad; the first row solved again from the second's
  // solution is the member next to it (issue 38 item 25)
  const Model model = load_urdf(kRobotsDir + "/ur5.urdf");
  Data data(model);
  IkProblem problem;
  problem.frame = model.require_frame("ee_link");
  problem.weights = kAll;
  const auto path_q = [](int row) {
    Eigen::VectorXd q(6);
    q << 0.3, -1.2, 1.5, -0.8 + 0.3 * 0.02 * row, 0.6 * 0.02 * row, 0.4;
    return q;
  };
  const auto target_of = [&](int row) {
    frame_placements(model, data, path_q(row));
    return data.oMf[problem.frame];
  };
  Eigen::VectorXd seed = path_q(0);
  seed[3] += 0.5;
  seed[5] -= 0.5;
  problem.target = target_of(0);
  const IkProblem first = problem;
  IkPath fresh(model, seed, Header{{"t", "ee.x"}}, "t", false, 0.3);
  const IkResult& r1 = fresh.solve(first, seed, 2, 0, IkOptions{});
  REQUIRE(r1.converged());
  CHECK(r1.q[3] == Approx(seed[3]).margin(0.05));  // the seed's member, 0.5 from the path's
  problem.target = target_of(1);
  const Eigen::VectorXd second = fresh.solve(problem, seed, 3, 0.02, IkOptions{}).q;
  CHECK_THAT(second, AllClose(path_q(1), 1e-4));  // the singularity left: the path's own split
  REQUIRE(fresh.statistics().jumps.rows == 1);    // 0.5 rad back
  const IkResult* amended = fresh.resolve_first(first, IkOptions{});
  REQUIRE(amended);
  CHECK(amended->converged());
  CHECK((amended->q - second).cwiseAbs().maxCoeff() < 0.05);  // next to the second row
  CHECK(fresh.statistics().jumps.rows == 0);                  // no jump left
  // a first row that is not singular stands: the second row does not jump from it
  IkPath regular(model, path_q(25), Header{{"t", "ee.x"}}, "t", false, 0.3);
  problem.target = target_of(25);
  REQUIRE(regular.solve(problem, path_q(25), 2, 0, IkOptions{}).converged());
  const IkProblem regular_first = problem;
  problem.target = target_of(26);
  REQUIRE(regular.solve(problem, path_q(25), 3, 0.02, IkOptions{}).converged());
  CHECK(regular.resolve_first(regular_first, IkOptions{}) == nullptr);
}
