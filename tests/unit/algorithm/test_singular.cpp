// Singularity analysis: the lecture notes' planar Jacobian, known singular configurations of the
// UR5, the Panda and the planar 3R arm with their lost directions named, the rank rule and its
// stability, workspace sampling, and no allocation per row.

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/core/errors.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/algorithm/singular.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "matchers.hpp"
#include "paths.hpp"
#include "vectors.hpp"

using namespace eom;
using namespace eom::test;

namespace {

struct Analysed {
  Model model;
  Data data;
  SingularityAnalysis analysis;
  int frame;
  Analysed(const std::string& robot, const std::string& frame_name, TaskRows task,
           RankTolerance tolerance = {})
      : model(load_urdf(kRobotsDir + "/" + robot)),
        data(model),
        analysis(model.nv, task, tolerance),
        frame(model.require_frame(frame_name)) {}
  void at(const Eigen::VectorXd& q,
          ReferenceFrame reference = ReferenceFrame::local_world_aligned) {
    frame_jacobian(model, data, q, frame, reference);
    analysis.compute(data.J, reference, data.oMf[frame]);
  }
  std::string lost_text(int k) const {
    return to_string(analysis.lost_description(k), model.frames[frame].name);
  }
};

// the world axis of joint `name` (a revolute joint about a coordinate axis of its frame)
Vec3 joint_axis(const Model& model, const Data& data, const std::string& name) {
  const int i = model.joint_index(name);
  return data.oMi[i].R * model.joints[i].axis;
}
Vec3 joint_origin(const Model& model, const Data& data, const std::string& name) {
  return data.oMi[model.joint_index(name)].p;
}

}  // namespace

TEST_CASE("the lecture notes' planar 3-DOF Jacobian is reproduced", "[singular]") {
  // ETH Zurich, Robot Dynamics lecture notes, Example 2.8.8 (eq. 2.224): at q = (pi/6, pi/3,
  // pi/3) the x and z rows of the unit-link planar arm are 1/2 [0 -sqrt3 -sqrt3; -4 -3 -1]. The
  // notes' arm points up (+z) at q = 0, planar_3r's along +x, both turning about +y: eom's x is
  // the notes' z and eom's z is minus the notes' x.
  const Model model = load_urdf(kRobotsDir + "/planar_3r.urdf");
  Data data(model);
  const auto& J = frame_jacobian(model, data, vec({M_PI / 6, M_PI / 3, M_PI / 3}),
                                 model.require_frame("ee"), ReferenceFrame::local_world_aligned);
  Eigen::MatrixXd notes(2, 3);
  notes << 0, -std::sqrt(3.0), -std::sqrt(3.0), -4, -3, -1;
  notes /= 2;
  Eigen::MatrixXd expected(3, 3);
  expected << notes.row(1), -notes.row(0), 1, 1, 1;  // vx, vz, wy
  Eigen::MatrixXd actual(3, 3);
  actual << J.row(0), J.row(2), J.row(4);
  CHECK_THAT(actual, AllClose(expected, 1e-14, 0));
  CHECK(J.row(1).isZero(0));
  CHECK(J.row(3).isZero(0));
  CHECK(J.row(5).isZero(0));
}

TEST_CASE("planar 3R stretched: motion along the arm is lost", "[singular]") {
  Analysed a("planar_3r.urdf", "ee", TaskRows::named({"vx", "vz", "wy"}));
  a.at(Eigen::VectorXd::Zero(3));
  CHECK(a.analysis.rank() == 2);
  CHECK(a.analysis.nullity() == 1);
  REQUIRE(a.analysis.lost_count() == 1);
  CHECK(a.lost_text(0) == "linear motion along world x");
  // away from it, full rank
  a.at(vec({0.3, 0.4, -0.2}));
  CHECK(a.analysis.rank() == 3);
  CHECK(a.analysis.lost_count() == 0);
}

TEST_CASE("planar 3R, full task: every lost direction is an axis", "[singular]") {
  Analysed a("planar_3r.urdf", "ee", TaskRows::full());
  a.at(Eigen::VectorXd::Zero(3));
  // the columns span linear z and rotation about y only
  REQUIRE(a.analysis.lost_count() == 4);
  std::vector<std::string> lost;
  for (int k = 0; k < 4; ++k) lost.push_back(a.lost_text(k));
  CHECK(lost == std::vector<std::string>{"linear motion along world x",
                                         "linear motion along world y", "rotation about world x",
                                         "rotation about world z"});
  // in local axes the same directions are frame axes, named as world ones where they coincide
  a.at(Eigen::VectorXd::Zero(3), ReferenceFrame::local);
  REQUIRE(a.analysis.lost_count() == 4);
  CHECK(a.lost_text(0) == "linear motion along world x");
}

TEST_CASE("UR5: elbow stretched loses motion along the arm", "[singular]") {
  Analysed a("ur5.urdf", "tool0", TaskRows::full());
  // elbow at 0, the wrist away from its own singularity
  a.at(vec({0.3, -1.0, 0.0, -0.7, 1.1, 0.4}));
  CHECK(a.analysis.rank() == 5);
  REQUIRE(a.analysis.lost_count() == 1);
  const DirectionDescription& d = a.analysis.lost_description(0);
  CHECK(d.kind == MotionKind::linear);
  // the upper arm and forearm lie on one line: shoulder-lift joint to wrist-1 joint
  // (the UR5's joints are offset along their common axis, which does not count)
  const Vec3 axis = joint_axis(a.model, a.data, "elbow_joint");
  const Vec3 offset = joint_origin(a.model, a.data, "wrist_1_joint") -
                      joint_origin(a.model, a.data, "shoulder_lift_joint");
  const Vec3 arm = (offset - offset.dot(axis) * axis).normalized();
  const Vec3 lin = d.world.head<3>().normalized();
  // u . [a x (p - p_i); a] must not depend on where p_i lies on that line, so the linear part has
  // no component across the arm in its plane; the UR5's wrist is not spherical, so the wrist
  // joints tilt it slightly towards the common axis a
  CHECK(std::abs(lin.dot(axis.cross(arm))) < 1e-9);
  CHECK(std::abs(lin.dot(arm)) > 0.98);
  CHECK(a.lost_text(0).rfind("linear motion along world (", 0) == 0);
  // the same arm with the elbow bent is regular
  a.at(vec({0.3, -1.0, 0.5, -0.7, 1.1, 0.4}));
  CHECK(a.analysis.rank() == 6);
}

TEST_CASE("UR5: wrist 2 at 0 aligns the wrist axes", "[singular]") {
  Analysed a("ur5.urdf", "tool0", TaskRows::full());
  a.at(vec({0.3, -1.0, 1.2, -0.7, 0.0, 0.4}));
  CHECK(a.analysis.rank() == 5);
  REQUIRE(a.analysis.lost_count() == 1);
  // the four parallel axes (shoulder lift, elbow, wrist 1, wrist 3 = tool z) span every rotation
  // about them and every linear motion across them: the lost twist [v; w] has v along the axis
  // and w across it (u . [a x r; a] = 0 for all four forces it)
  const Vec3 axis = joint_axis(a.model, a.data, "wrist_3_joint");
  CHECK(std::abs(axis.dot(joint_axis(a.model, a.data, "wrist_1_joint"))) ==
        Approx(1).margin(1e-12));
  const DirectionDescription& d = a.analysis.lost_description(0);
  CHECK(d.world.head<3>().cross(axis).norm() == Approx(0).margin(1e-9));
  CHECK(d.world.tail<3>().dot(axis) == Approx(0).margin(1e-9));
  CHECK(d.kind == MotionKind::mixed);
  CHECK(a.lost_text(0).rfind("mixed: linear motion along the tool0 z axis", 0) == 0);
}

TEST_CASE("UR5: shoulder singularity loses sideways motion", "[singular]") {
  // UR5 DH parameters: a2 = -0.425, a3 = -0.39225, d5 = 0.09465. The wrist point lies on the
  // shoulder-pan axis when a2 c2 + a3 c23 + d5 s234 = 0; with q2 = -pi/2 and q4 = 0.3 solve for q3
  const double a3 = -0.39225, d5 = 0.09465, q2 = -M_PI / 2, q4 = 0.3;
  auto f = [&](double q3) { return a3 * std::cos(q2 + q3) + d5 * std::sin(q2 + q3 + q4); };
  double lo = -0.3, hi = -0.2;
  REQUIRE(f(lo) * f(hi) < 0);
  for (int k = 0; k < 200; ++k) {
    const double mid = (lo + hi) / 2;
    (f(lo) > 0) == (f(mid) > 0) ? lo = mid : hi = mid;
  }
  Analysed a("ur5.urdf", "tool0", TaskRows::full());
  a.at(vec({0.3, q2, lo, q4, 1.0, 0.4}));
  CHECK(a.analysis.rank() == 5);
  REQUIRE(a.analysis.lost_count() == 1);
  const DirectionDescription& d = a.analysis.lost_description(0);
  CHECK(d.kind == MotionKind::linear);
  // the lost motion is sideways: along the shoulder-lift axis, across the arm's plane
  const Vec3 side = joint_axis(a.model, a.data, "shoulder_lift_joint");
  CHECK(std::abs(d.world.head<3>().normalized().dot(side)) == Approx(1).margin(1e-9));
  // 0.01 rad away the rank is full and the same direction is the weakest
  a.at(vec({0.3, q2, lo - 0.01, q4, 1.0, 0.4}));
  CHECK(a.analysis.rank() == 6);
  CHECK(std::abs(a.analysis.weakest_description().world.head<3>().normalized().dot(side)) > 0.99);
}

TEST_CASE("Panda at its zero pose cannot rotate about world x", "[singular]") {
  // at q = 0 every Panda axis is vertical (z) or along y: no joint turns about x
  Analysed a("panda.urdf", "panda_hand_tcp", TaskRows::full());
  a.at(Eigen::VectorXd::Zero(a.model.nq));
  CHECK(a.analysis.rank() == 5);
  REQUIRE(a.analysis.lost_count() == 1);
  CHECK(a.lost_text(0) == "rotation about world x");
  CHECK(a.analysis.nullity() == a.model.nv - 5);
  // the null space moves nothing
  CHECK((a.analysis.task_jacobian() * a.analysis.null_space()).norm() < 1e-12);
}

TEST_CASE("rank decisions are stable within the rank margin", "[singular]") {
  Analysed a("ur5.urdf", "tool0", TaskRows::full());
  Rng rng(5);
  for (double elbow : {0.0, 1e-9, 1e-8, 1e-3, 1e-2}) {
    a.at(vec({0.3, -1.0, elbow, -0.7, 1.1, 0.4}));
    const int rank = a.analysis.rank();
    const double margin = a.analysis.rank_margin();
    INFO("elbow " << elbow << " rank " << rank << " margin " << margin);
    // sigma_6 grows like 0.04 elbow here: the default relative 1e-6 (threshold ~2e-6) calls
    // elbow angles below ~5e-5 rad singular
    CHECK(rank == (elbow < 1e-6 ? 5 : 6));
    // random perturbations of J below the margin (2-norm <= Frobenius norm) keep the rank
    SingularityAnalysis perturbed(a.model.nv);
    for (int k = 0; k < 20; ++k) {
      Eigen::Matrix<double, 6, Eigen::Dynamic> dJ(6, a.model.nv);
      for (int i = 0; i < dJ.size(); ++i) dJ.data()[i] = rng.uniform(-1, 1);
      dJ *= 0.99 * margin / dJ.norm();
      perturbed.compute(a.data.J + dJ, ReferenceFrame::local_world_aligned, a.data.oMf[a.frame]);
      CHECK(perturbed.rank() == rank);
    }
  }
}

TEST_CASE("the tolerance: absolute, relative, and the threshold reported", "[singular]") {
  Eigen::Matrix<double, 6, Eigen::Dynamic> J = Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, 6);
  J.diagonal() << 2, 1, 0.5, 1e-3, 1e-7, 0;
  SingularityAnalysis relative(6);
  relative.compute(J, ReferenceFrame::local_world_aligned, SE3::Identity());
  CHECK(relative.threshold() == 2e-6);
  CHECK(relative.rank() == 4);
  CHECK(relative.condition() == std::numeric_limits<double>::infinity());
  CHECK(relative.manipulability() == 0);
  SingularityAnalysis absolute(6, TaskRows::full(), {1e-2, 0});
  absolute.compute(J, ReferenceFrame::local_world_aligned, SE3::Identity());
  CHECK(absolute.threshold() == 1e-2);
  CHECK(absolute.rank() == 3);
  // lost directions of a diagonal J are its axes, in order of preference (world, linear first)
  CHECK(to_string(absolute.lost_description(0), "f") == "rotation about world x");
  CHECK(to_string(absolute.lost_description(1), "f") == "rotation about world y");
  CHECK(to_string(absolute.lost_description(2), "f") == "rotation about world z");
  J.diagonal() << 2, 1, 0.5, 0.25, 0.2, 0.1;
  absolute.compute(J, ReferenceFrame::local_world_aligned, SE3::Identity());
  CHECK(absolute.condition() == Approx(20).epsilon(1e-14));
  CHECK(absolute.manipulability() == Approx(2 * 1 * 0.5 * 0.25 * 0.2 * 0.1).epsilon(1e-14));
  CHECK(to_string(absolute.weakest_description(), "f") == "rotation about world z");
}

TEST_CASE("task rows by name", "[singular]") {
  const TaskRows t = TaskRows::named({"wz", "vx"});
  CHECK(t.size == 2);
  CHECK(t.rows[0] == 0);
  CHECK(t.rows[1] == 5);
  CHECK_THROWS_AS(TaskRows::named({"vq"}), InputError);
  CHECK_THROWS_AS(TaskRows::named({"vx", "vx"}), InputError);
  CHECK_THROWS_AS(TaskRows::named({}), InputError);
}

TEST_CASE("directions in words", "[singular]") {
  // a frame turned 90 degrees about world z: its x axis is world y
  SE3 oMf;
  oMf.R = exp3(Vec3(0, 0, M_PI / 2));
  Eigen::VectorXd u = Eigen::VectorXd::Zero(6);
  u[3] = 1;  // rotation about x of the reference axes
  CHECK(to_string(describe_direction(TaskRows::full(), u, ReferenceFrame::local, oMf), "tool") ==
        "rotation about world y");
  oMf.R = exp3(Vec3(0.3, 0.2, 0.1));
  CHECK(to_string(describe_direction(TaskRows::full(), u, ReferenceFrame::local, oMf), "tool") ==
        "rotation about the tool x axis");
  u << 1, 1, 0, 0, 0, 0;
  u /= u.norm();
  CHECK(to_string(describe_direction(TaskRows::full(), u, ReferenceFrame::local_world_aligned,
                                     SE3::Identity()),
                  "tool") == "linear motion along world (0.707, 0.707, 0)");
  u << 0.8, 0, 0, 0, 0, 0.6;
  CHECK(to_string(describe_direction(TaskRows::full(), u, ReferenceFrame::local_world_aligned,
                                     SE3::Identity()),
                  "tool") ==
        "mixed: linear motion along world x (64%) with rotation about world z");
}

TEST_CASE("workspace sampling refuses more samples than it keeps", "[singular]") {
  const Model model = load_urdf(kRobotsDir + "/ur5.urdf");
  WorkspaceSampleOptions options;
  options.samples = kMaxWorkspaceSamples + 1;  // refused before a sample is drawn
  CHECK_THROWS_WITH(sample_workspace(model, model.require_frame("tool0"), options),
                    Catch::Contains("at most 10000000 samples") && Catch::Contains("10000001"));
  options.samples = 0;
  CHECK_THROWS_AS(sample_workspace(model, model.require_frame("tool0"), options), InputError);
}

TEST_CASE("workspace sampling is deterministic and consistent", "[singular]") {
  const Model model = load_urdf(kRobotsDir + "/ur5.urdf");
  WorkspaceSampleOptions options;
  options.samples = 200;
  options.seed = 3;
  options.worst = 4;
  const int frame = model.require_frame("tool0");
  const WorkspaceSampleResult r = sample_workspace(model, frame, options);
  const WorkspaceSampleResult again = sample_workspace(model, frame, options);
  REQUIRE(r.manipulability.size() == r.probabilities.size());
  CHECK(r.manipulability == again.manipulability);
  CHECK(r.condition == again.condition);
  for (size_t k = 1; k < r.probabilities.size(); ++k) {
    CHECK(r.manipulability[k] >= r.manipulability[k - 1]);
    CHECK(r.condition[k] >= r.condition[k - 1]);
  }
  REQUIRE(r.worst.size() == 4);
  CHECK(r.worst[0].manipulability == r.manipulability.front());  // the minimum
  for (size_t k = 1; k < r.worst.size(); ++k) {
    CHECK(r.worst[k].manipulability >= r.worst[k - 1].manipulability);
  }
  // the worst configurations are the seed's samples, within limits, and re-analyse the same
  Data data(model);
  SingularityAnalysis analysis(model.nv);
  Rng rng(options.seed);
  std::vector<double> all;
  for (int s = 0; s < options.samples; ++s) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    frame_jacobian(model, data, q, frame, options.reference);
    analysis.compute(data.J, options.reference, data.oMf[frame]);
    all.push_back(analysis.manipulability());
  }
  std::sort(all.begin(), all.end());
  for (size_t k = 0; k < r.worst.size(); ++k) {
    CHECK(r.worst[k].manipulability == all[k]);
    CHECK((r.worst[k].q.array() >= model.lower_limit.array()).all());
    CHECK((r.worst[k].q.array() <= model.upper_limit.array()).all());
  }
  // the median as type-7 quantile of 200 values: halfway between the 100th and 101st
  CHECK(r.manipulability[3] == Approx((all[99] + all[100]) / 2).epsilon(1e-15));
}

TEST_CASE("workspace sampling keeps the K worst in order, earlier samples first on ties",
          "[singular]") {
  // planar_2r's tip under the full 6-row task: manipulability 0 at every sample, so the order is
  // by condition, and ties of both by sample order; --worst K is the first K of --worst N
  const Model model = load_urdf(kRobotsDir + "/planar_2r.urdf");
  const int frame = model.require_frame("tip");
  WorkspaceSampleOptions options;
  options.samples = 300;
  options.seed = 5;
  // the reference: every sample, stably sorted by the documented order
  Data data(model);
  SingularityAnalysis analysis(model.nv, options.task, options.tolerance);
  Rng rng(options.seed);
  std::vector<WorkspaceSamplePoint> all;
  for (int s = 0; s < options.samples; ++s) {
    WorkspaceSamplePoint point;
    point.q = random_configuration(model, rng);
    frame_jacobian(model, data, point.q, frame, options.reference);
    analysis.compute(data.J, options.reference, data.oMf[frame]);
    point.manipulability = analysis.manipulability();
    point.condition = analysis.condition();
    all.push_back(point);
  }
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    if (a.manipulability != b.manipulability) return a.manipulability < b.manipulability;
    return a.condition > b.condition;
  });
  for (const int worst : {1, 7, 300, 1000}) {
    options.worst = worst;
    const WorkspaceSampleResult r = sample_workspace(model, frame, options);
    REQUIRE(r.worst.size() == static_cast<size_t>(std::min(worst, options.samples)));
    for (size_t k = 0; k < r.worst.size(); ++k) {
      CHECK(r.worst[k].q == all[k].q);
      CHECK(r.worst[k].condition == all[k].condition);
    }
  }
}

TEST_CASE(
    "singular values alone: the Gram matrix agrees with the SVD, which takes over when "
    "ill conditioned",
    "[singular]") {
  Rng rng(17);
  for (const char* robot : {"panda.urdf", "ur5.urdf", "planar_3r.urdf"}) {
    const Model model = load_urdf(kRobotsDir + "/" + robot);
    Data data(model);
    const int frame = static_cast<int>(model.frames.size()) - 1;
    for (const TaskRows& task :
         {TaskRows::full(), TaskRows::position(), TaskRows::named({"vx", "wz"})}) {
      SingularityAnalysis svd(model.nv, task), values(model.nv, task);
      for (int k = 0; k < 200; ++k) {
        // random configurations, and the UR5 elbow near stretched (condition numbers past the
        // limit, where the values must come from the SVD)
        Eigen::VectorXd q = random_configuration(model, rng);
        if (model.nv == 6 && k % 2) q[2] = std::pow(10.0, -rng.uniform(1, 9));
        frame_jacobian(model, data, q, frame, ReferenceFrame::local_world_aligned);
        svd.compute(data.J, ReferenceFrame::local_world_aligned, data.oMf[frame]);
        values.compute_values(data.J);
        INFO(robot << " k " << k << " condition " << svd.condition());
        // |d sigma_i| <= 60 eps kappa sigma_1 below the limit
        const double kappa = std::min(svd.condition(), SingularityAnalysis::kGramConditionLimit);
        const double sigma_1 = svd.singular_values()[0];
        CHECK_THAT(values.singular_values(),
                   AllClose(svd.singular_values(), 60 * 2.3e-16 * kappa * sigma_1, 0));
        if (svd.condition() >= SingularityAnalysis::kGramConditionLimit) {
          CHECK(values.singular_values() == svd.singular_values());
        }
        CHECK(values.rank() == svd.rank());
        CHECK(values.threshold() == Approx(svd.threshold()).epsilon(1e-12));
        // the product of p values, each within 60 eps kappa^2 relative
        CHECK(values.manipulability() ==
              Approx(svd.manipulability()).epsilon(6 * 60 * 2.3e-16 * kappa * kappa));
      }
    }
  }
}

TEST_CASE("Jacobians and the singularity analysis allocate nothing",
          "[singular]" EOM_ALLOCATION_TAG) {
  const Model model = load_urdf(kRobotsDir + "/panda.urdf");
  Data data(model);
  const int frame = model.require_frame("panda_hand_tcp");
  Rng rng(11);
  const Eigen::VectorXd q = random_configuration(model, rng);
  const Eigen::VectorXd v = random_tangent(model, rng);
  const Eigen::VectorXd a = random_tangent(model, rng);
  const Eigen::VectorXd q0 = Eigen::VectorXd::Zero(model.nq);
  Eigen::MatrixXd JA(7, model.nv);
  SingularityAnalysis full(model.nv), position(model.nv, TaskRows::position()),
      rows(model.nv, TaskRows::named({"vx", "wz"}));
  const long n = allocations_during([&] {
    for (ReferenceFrame reference :
         {ReferenceFrame::world, ReferenceFrame::local, ReferenceFrame::local_world_aligned}) {
      frame_jacobian(model, data, q, frame, reference);
      full.compute(data.J, reference, data.oMf[frame]);
      position.compute(data.J, reference, data.oMf[frame]);
      rows.compute(data.J, reference, data.oMf[frame]);
      frame_jacobian_time_variation(model, data, q, v, frame, reference);
    }
    frame_classical_acceleration(model, data, q, v, a, frame);
    analytical_jacobian(model, data, q, frame, OrientationParametrization::quaternion, JA);
    // singular values alone, from the Gram matrix
    frame_jacobian(model, data, q, frame, ReferenceFrame::local_world_aligned);
    full.compute_values(data.J);
    rows.compute_values(data.J);
    // a singular configuration: the SVD fallback of compute_values; lost directions aligned and
    // described
    frame_jacobian(model, data, q0, frame, ReferenceFrame::local_world_aligned);
    full.compute_values(data.J);
    full.compute(data.J, ReferenceFrame::local_world_aligned, data.oMf[frame]);
  });
  CHECK(n == 0);
  CHECK(full.lost_count() == 1);
}
