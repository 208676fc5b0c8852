// eom ik's output tables read back and checked with the library's forward kinematics (an oracle
// independent of the solver): the shipped circle, round trips from eom fk on the shipped arms,
// the three orientation forms, --relative-to, q columns as seeds, reproducibility.

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <Eigen/Geometry>

#include <eom/multibody/data.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/io/column_names.hpp>
#include <eom/io/table.hpp>
#include <eom/parsers/urdf.hpp>

#include "paths.hpp"
#include "scratch.hpp"

using namespace eom;

namespace {

std::string temp_path(const std::string& name) { return test::scratch_path(name + ".csv"); }

// run a shell command line of eom invocations (EOM stands for the binary) in the source tree,
// writing the last one's output to a file; returns its text
std::string run(std::string line, const std::string& name, int expected_rc = 0) {
  for (size_t at = line.find("EOM"); at != std::string::npos; at = line.find("EOM", at)) {
    line.replace(at, 3, "'" EOM_BINARY "'");
  }
  const std::string out = temp_path(name);
  const std::string command =
      "cd '" + test::kSourceDir + "' && " + line + " -o '" + out + "' 2> /dev/null";
  const int status = std::system(command.c_str());
  REQUIRE(WEXITSTATUS(status) == expected_rc);
  std::ifstream in(out, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  std::filesystem::remove(out);
  return text.str();
}

Table table_of(const std::string& text, const std::string& name) {
  const std::string path = temp_path(name + "_read");
  std::ofstream(path, std::ios::binary) << text;
  Table t = read_table(path, Format::csv);
  std::filesystem::remove(path);
  return t;
}

double at(const Table& t, int row, const std::string& name) {
  const int c = t.header.index(name);
  INFO(name);
  REQUIRE(c >= 0);
  return t.at(row, c);
}

Eigen::VectorXd q_of(const Model& model, const Table& t, int row) {
  Eigen::VectorXd q(model.nq);
  for (int k = 0; k < model.nq; ++k) q[k] = at(t, row, column_name("q", model.q_names[k]));
  return q;
}

// the pose columns <frame>.x ... .qw of a row
SE3 pose_of(const Table& t, int row, const std::string& frame) {
  SE3 M;
  const std::vector<std::string> c = pose_columns(frame);  // x y z qx qy qz qw
  M.p = Vec3(at(t, row, c[0]), at(t, row, c[1]), at(t, row, c[2]));
  M.R = Eigen::Quaterniond(at(t, row, c[6]), at(t, row, c[3]), at(t, row, c[4]), at(t, row, c[5]))
            .normalized()
            .toRotationMatrix();
  return M;
}

double position_distance(const SE3& a, const SE3& b) { return (a.p - b.p).norm(); }
double rotation_distance(const SE3& a, const SE3& b) {
  return Eigen::AngleAxisd(a.R.transpose() * b.R).angle();
}

// every row converged, reaches its target (world frame) and stays within the limits
void check_reaches(const Model& model, const Table& targets, const Table& out,
                   const std::string& frame) {
  Data data(model);
  const int f = model.require_frame(frame);
  REQUIRE(out.rows() == targets.rows());
  for (int r = 0; r < out.rows(); ++r) {
    INFO("row " << r);
    REQUIRE(at(out, r, "ik.status") == 1);
    const Eigen::VectorXd q = q_of(model, out, r);
    frame_placements(model, data, q);
    const SE3 target = pose_of(targets, r, frame);
    // the solver's tolerances, 1e-6 m and 1e-6 rad
    CHECK(position_distance(data.oMf[f], target) <= 1e-6);
    CHECK(rotation_distance(data.oMf[f], target) <= 1e-6);
    for (int k = 0; k < model.nq; ++k) {
      CHECK(q[k] >= model.lower_limit[k]);
      CHECK(q[k] <= model.upper_limit[k]);
    }
  }
}

// the largest change of any joint between consecutive rows
double largest_step(const Model& model, const Table& out) {
  double step = 0;
  for (int r = 1; r < out.rows(); ++r) {
    step = std::max(step, (q_of(model, out, r) - q_of(model, out, r - 1)).cwiseAbs().maxCoeff());
  }
  return step;
}

}  // namespace

TEST_CASE("eom ik: the iiwa circle converges on every row into a continuous joint path",
          "[cli][ik]") {
  const Model model = load_urdf(test::kRobotsDir + "/iiwa14.urdf");
  const Table targets =
      read_table(test::kSourceDir + "/trajectories/iiwa_circle_targets.csv", Format::csv);
  const std::string args =
      "EOM ik robots/iiwa14.urdf trajectories/iiwa_circle_targets.csv --frame iiwa_link_ee";
  for (const char* posture : {"none", "seed", "centre"}) {
    INFO("--posture " << posture);
    const Table out = table_of(run(args + " --posture " + posture, "circle"), "circle");
    check_reaches(model, targets, out, "iiwa_link_ee");
    // consecutive targets are 4.7 mm apart; the wrist centre stays 0.4 to 0.75 m from the
    // shoulder, so no joint needs more than about 0.02 rad per row; a branch change (elbow or
    // wrist flip) moves joints by radians: 0.05 rad separates the two with margin
    CHECK(largest_step(model, out) < 0.05);
    for (int r = 0; r < out.rows(); ++r) CHECK(at(out, r, "ik.restarts") == 0);
    if (std::string(posture) == "centre") {
      // the point of the solution set nearest the centre is a function of the pose: the path
      // closes where the circle closes
      CHECK((q_of(model, out, out.rows() - 1) - q_of(model, out, 0)).cwiseAbs().maxCoeff() < 1e-5);
    }
  }
}

TEST_CASE("eom ik: eom fk -> eom ik -> eom fk round trips on the shipped arms", "[cli][ik]") {
  struct Arm {
    const char* robot;
    const char* trajectory;
    const char* frame;
    bool floating;
  };
  // and a foot of Solo12 with its free-flying base: the base joins the redundant chain
  const Arm arms[] = {{"ur5", "ur5_wave", "tool0", false},
                      {"panda", "panda_wave", "panda_hand_tcp", false},
                      {"iiwa14", "iiwa14_wave", "iiwa_link_ee", false},
                      {"solo12", "solo12_floating_walk", "FL_FOOT", true}};
  for (const Arm& arm : arms) {
    INFO(arm.robot);
    const std::string robot =
        std::string("robots/") + arm.robot + ".urdf" + (arm.floating ? " --floating-base" : "");
    const std::string fk =
        "EOM fk " + robot + " trajectories/" + arm.trajectory + ".csv --frames " + arm.frame;
    const Table poses = table_of(run(fk, "poses"), "poses");
    // through pipes, as a user chains them: t passes through, each row seeded by the previous
    const Table back = table_of(run(fk + " | EOM ik " + robot + " - --frame " + arm.frame +
                                        " | EOM fk " + robot + " - --frames " + arm.frame,
                                    "back"),
                                "back");
    REQUIRE(back.rows() == poses.rows());
    for (int r = 0; r < poses.rows(); ++r) {
      INFO("row " << r);
      REQUIRE(at(back, r, "t") == at(poses, r, "t"));
      CHECK(position_distance(pose_of(back, r, arm.frame), pose_of(poses, r, arm.frame)) <= 1e-6);
      CHECK(rotation_distance(pose_of(back, r, arm.frame), pose_of(poses, r, arm.frame)) <= 1e-6);
    }
    // and the q columns of eom ik, checked with the library's forward kinematics
    LoadOptions options;
    options.floating_base = arm.floating;
    const Model model = load_urdf(test::kSourceDir + "/robots/" + arm.robot + ".urdf", options);
    const Table q = table_of(run(fk + " | EOM ik " + robot + " - --frame " + arm.frame, "q"), "q");
    check_reaches(model, poses, q, arm.frame);
    // a path of poses: no jumps (the trajectories move joints by at most 2 mrad per row)
    CHECK(largest_step(model, q) < 0.05);
  }
}

TEST_CASE("eom ik: quaternion, rotation matrix and roll-pitch-yaw name the same target",
          "[cli][ik]") {
  const Model model = load_urdf(test::kRobotsDir + "/iiwa14.urdf");
  Data data(model);
  const int f = model.require_frame("iiwa_link_ee");
  // the fixtures' rotation: a quarter turn about y (the tool's z axis along world +x)
  const Mat3 expected = Eigen::AngleAxisd(M_PI / 2, Vec3::UnitY()).toRotationMatrix();
  const Vec3 positions[] = {{0.6, 0, 0.5}, {0.6, 0.1, 0.6}};
  for (const char* form : {"quaternion", "matrix", "rpy"}) {
    INFO(form);
    const Table out = table_of(run(std::string("EOM ik robots/iiwa14.urdf tests/data/ik/iiwa_") +
                                       form + ".csv --frame iiwa_link_ee",
                                   form),
                               form);
    REQUIRE(out.rows() == 2);
    for (int r = 0; r < 2; ++r) {
      REQUIRE(at(out, r, "ik.status") == 1);
      frame_placements(model, data, q_of(model, out, r));
      CHECK((data.oMf[f].p - positions[r]).norm() <= 1e-6);
      CHECK(Eigen::AngleAxisd(expected.transpose() * data.oMf[f].R).angle() <= 1e-6);
    }
  }
}

TEST_CASE("eom ik --relative-to: a target in a moving frame", "[cli][ik]") {
  const Model model = load_urdf(test::kRobotsDir + "/iiwa14.urdf");
  Data data(model);
  const int f = model.require_frame("iiwa_link_ee"), ref = model.require_frame("iiwa_link_3");
  const Table wave = read_table(test::kSourceDir + "/trajectories/iiwa14_wave.csv", Format::csv);
  // the placement of the tool in link 3 along the wave, every 100th row, without t (independent
  // rows from the default seed)
  Table targets;
  targets.header.names = pose_columns("iiwa_link_ee");
  for (int r = 0; r < wave.rows(); r += 100) {
    frame_placements(model, data, q_of(model, wave, r));
    const PoseVector pose = pose_vector(data.oMf[ref].inverse() * data.oMf[f]);
    for (int c = 0; c < 7; ++c) targets.values.push_back(pose[c]);
  }
  const std::string path = temp_path("relative_targets");
  write_table(targets, path, Format::csv);
  const Table out = table_of(
      run("EOM ik robots/iiwa14.urdf '" + path + "' --frame iiwa_link_ee --relative-to iiwa_link_3",
          "relative"),
      "relative");
  std::filesystem::remove(path);
  REQUIRE(out.rows() == targets.rows());
  for (int r = 0; r < out.rows(); ++r) {
    INFO("row " << r);
    REQUIRE(at(out, r, "ik.status") == 1);
    frame_placements(model, data, q_of(model, out, r));
    const SE3 relative = data.oMf[ref].inverse() * data.oMf[f];
    CHECK(position_distance(relative, pose_of(targets, r, "iiwa_link_ee")) <= 1e-6);
    CHECK(rotation_distance(relative, pose_of(targets, r, "iiwa_link_ee")) <= 1e-6);
  }
}

TEST_CASE("eom ik: q columns seed their rows", "[cli][ik]") {
  // eom fk --keep-input keeps the true q beside each pose: seeded there, every row has converged
  // before the first iteration and returns its seed
  const Model model = load_urdf(test::kRobotsDir + "/iiwa14.urdf");
  const Table wave = read_table(test::kSourceDir + "/trajectories/iiwa14_wave.csv", Format::csv);
  const Table out =
      table_of(run("EOM fk robots/iiwa14.urdf trajectories/iiwa14_wave.csv --frames iiwa_link_ee "
                   "--keep-input | EOM ik robots/iiwa14.urdf - --frame iiwa_link_ee",
                   "seeded"),
               "seeded");
  REQUIRE(out.rows() == wave.rows());
  for (int r = 0; r < out.rows(); r += 10) {
    INFO("row " << r);
    CHECK(at(out, r, "ik.iterations") == 0);
    CHECK((q_of(model, out, r) - q_of(model, wave, r)).cwiseAbs().maxCoeff() == 0);
  }
}

TEST_CASE("eom ik: the same --seed gives the same output, byte for byte", "[cli][ik]") {
  // the iteration budget decides (--timeout 0 takes the wall-clock cap away); the unreachable
  // row uses every restart
  const std::string failing =
      "EOM ik robots/iiwa14.urdf tests/data/ik/iiwa_unreachable.csv --frame iiwa_link_ee "
      "--allow-failures --timeout 0 --seed 7";
  const std::string first = run(failing, "seed_a");
  CHECK(!first.empty());
  CHECK(run(failing, "seed_b") == first);
  const std::string circle =
      "EOM ik robots/iiwa14.urdf trajectories/iiwa_circle_targets.csv --frame iiwa_link_ee "
      "--posture centre --seed 3";
  CHECK(run(circle, "circle_a") == run(circle, "circle_b"));
}
