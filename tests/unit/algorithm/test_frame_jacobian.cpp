// FrameJacobianAnalysis: the planar 3R arm stretched along world x, worked by hand (joints about
// +y at x = 0, 1, 2, the end effector at x = 3); the names of references and parametrisations;
// the inverse condition; no allocation in a row of eom jac or eom ik.

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/algorithm/frame_jacobian.hpp>
#include <eom/parsers/urdf.hpp>
#include <eom/solvers/ik_path.hpp>
#include <eom/solvers/ik_target.hpp>
#include <eom/trajectory/singular_intervals.hpp>

#include "allocations.hpp"
#include "matchers.hpp"
#include "paths.hpp"

using namespace eom;
using namespace eom::test;

TEST_CASE("reference frames and orientation parametrisations by name", "[frame_jacobian]") {
  CHECK(parse_reference_frame("world") == ReferenceFrame::world);
  CHECK(parse_reference_frame("local") == ReferenceFrame::local);
  CHECK(parse_reference_frame("local-world-aligned") == ReferenceFrame::local_world_aligned);
  CHECK_FALSE(parse_reference_frame("global"));
  CHECK(std::string(reference_frame_name(ReferenceFrame::local_world_aligned)) ==
        "local-world-aligned");

  CHECK(parse_orientation_parametrization("euler-xyz") == OrientationParametrization::euler_xyz);
  CHECK(parse_orientation_parametrization("rotation-vector") ==
        OrientationParametrization::rotation_vector);
  CHECK_FALSE(parse_orientation_parametrization("euler-zxz"));
  CHECK(std::string(orientation_parametrization_name(OrientationParametrization::quaternion)) ==
        "quaternion");
  using Names = std::vector<std::string>;
  CHECK(orientation_parameter_names(OrientationParametrization::euler_zyx) ==
        Names{"ez", "ey", "ex"});
  CHECK(orientation_parameter_names(OrientationParametrization::euler_xyz) ==
        Names{"ex", "ey", "ez"});
  CHECK(orientation_parameter_names(OrientationParametrization::quaternion) ==
        Names{"qx", "qy", "qz", "qw"});
  CHECK(orientation_parameter_names(OrientationParametrization::rotation_vector) ==
        Names{"rx", "ry", "rz"});
}

TEST_CASE("inverse condition: sigma_p / sigma_1, 0 at a singularity", "[frame_jacobian]") {
  CHECK(inverse_condition(Eigen::Vector3d(4, 2, 1)) == 0.25);
  CHECK(inverse_condition(Eigen::Vector2d(3, 0)) == 0);
  CHECK(inverse_condition(Eigen::Vector2d(0, 0)) == 0);
  CHECK(inverse_condition(Eigen::VectorXd()) == 0);
}

TEST_CASE("the stretched planar 3R arm by hand", "[frame_jacobian]") {
  const Model model = load_urdf(kRobotsDir + "/planar_3r.urdf");
  FrameJacobianOptions options;
  options.frame = model.require_frame("ee");
  options.task = TaskRows::named({"vx", "vz", "wy"});
  options.time_variation = true;
  options.analytical = OrientationParametrization::euler_zyx;
  FrameJacobianAnalysis analysis(model, options);
  const Eigen::Vector3d q = Eigen::Vector3d::Zero();
  const Eigen::Vector3d v(1, 0, 0);  // the first joint turns at 1 rad/s
  analysis.compute(q, v);

  // v_ee = omega_y x (3 - x_i, 0, 0) = (0, 0, -(3 - x_i)), w_y = 1
  Eigen::Matrix3d J;
  J << 0, 0, 0, -3, -2, -1, 1, 1, 1;
  CHECK_THAT(analysis.jacobian(), AllClose(J, 1e-12));
  // the centripetal acceleration of the end effector, 3 m from the turning joint: -3 along x
  CHECK_THAT(analysis.jacobian_time_variation_v(), AllClose(Eigen::Vector3d(-3, 0, 0), 1e-12));
  // J_A: x y z rows from J's linear rows, ez ey ex from w at zero angles (ey = wy)
  Eigen::Matrix<double, 6, 3> JA = Eigen::Matrix<double, 6, 3>::Zero();
  JA.row(2) << -3, -2, -1;
  JA.row(4) << 1, 1, 1;
  CHECK_THAT(analysis.analytical_jacobian(), AllClose(JA, 1e-12));

  // singular values of [[-3 -2 -1]; [1 1 1]]: sqrt of the eigenvalues (17 +- sqrt(265)) / 2
  const SingularityAnalysis& s = analysis.singularity();
  REQUIRE(s.singular_values().size() == 3);
  CHECK(s.singular_values()[0] == Approx(4.0791433289417345).epsilon(1e-12));
  CHECK(s.singular_values()[1] == Approx(0.6004912172131637).epsilon(1e-12));
  CHECK(std::abs(s.singular_values()[2]) < 1e-12);
  CHECK(s.rank() == 2);
  CHECK(s.nullity() == 1);
  CHECK(inverse_condition(s.singular_values()) < 1e-12);

  analysis.compute_directions();
  CHECK(s.lost_count() == 1);
  CHECK(to_string(s.lost_description(0), "ee") == "linear motion along world x");
  // the null space: (1, -2, 1) / sqrt 6 (either sign), the rows past the nullity zero
  const Eigen::MatrixXd& N = analysis.null_space_rows();
  const Eigen::Vector3d n = Eigen::Vector3d(1, -2, 1) / std::sqrt(6.0);
  const double sign = N(0, 0) > 0 ? 1 : -1;
  CHECK_THAT(Eigen::Vector3d(sign * N.row(0).transpose()), AllClose(n, 1e-12));
  CHECK_THAT(N.bottomRows(2), AllClose(Eigen::MatrixXd::Zero(2, 3), 0));

  // vx cannot move: J M^-1 J^T has rank 2
  analysis.compute_dynamics(q, v);
  CHECK(analysis.dynamics().rank() == 2);
  CHECK(analysis.dynamics().singular());
}

TEST_CASE("a row of eom jac and eom ik allocates nothing", "[frame_jacobian]" EOM_ALLOCATION_TAG) {
  const Model model = load_urdf(kRobotsDir + "/planar_3r.urdf");
  FrameJacobianOptions options;
  options.frame = model.require_frame("ee");
  options.time_variation = true;
  options.analytical = OrientationParametrization::quaternion;
  FrameJacobianAnalysis analysis(model, options);
  SingularIntervalScan scan(SingularScanOptions{}, 3);
  const Eigen::Vector3d stretched = Eigen::Vector3d::Zero(), v(1, 2, 3);
  analysis.compute(stretched, v);
  analysis.compute_directions();
  scan.add(0, 2, analysis.singularity());  // opens an interval: its one allocation

  IkTargetColumns target(Header{{"ee.x", "ee.y", "ee.z", "ee.roll", "ee.pitch", "ee.yaw"}}, "ee",
                         Vec6::Ones(), "targets.csv");
  IkProblem problem;
  problem.frame = options.frame;
  IkPath path(model, Eigen::VectorXd::Zero(3), Header{{"t", "ee.x"}}, "t", false, 0.3);
  const std::vector<double> row = {2, 0, 1, 0, 0.3, 0};
  const long n = allocations_during([&] {
    for (int k = 0; k < 3; ++k) {
      analysis.compute(stretched, v);
      analysis.compute_directions();
      analysis.compute_dynamics(stretched, v);
      scan.add(0.1 * k, 3 + k, analysis.singularity());  // extends it
      target.read(row, 3 + k, 0.1 * k, problem);
      path.solve(problem, stretched, 3 + k, 0.1 * k, IkOptions{});
    }
  });
  CHECK(n == 0);
  CHECK(scan.intervals().size() == 1);
  CHECK(scan.intervals()[0].rows == 4);
}
