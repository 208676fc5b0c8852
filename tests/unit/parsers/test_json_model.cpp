// JSON robot models: the product-of-exponentials format against Modern Robotics' worked example
// (its software's InverseDynamics, GravityForces and ForwardDynamics examples, chapter 8 of the
// book, section 9.3 of the seed text), the PoE forward kinematics, and refusals by JSON path.

#include <random>

#include <catch2/catch.hpp>

#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/core/errors.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/json_model.hpp>

#include "matchers.hpp"
#include "paths.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {

const std::string kTextbook = kDataDir + "/models/textbook_3link.json";

Model textbook(std::vector<Diagnostic>* warnings = nullptr) {
  LoadOptions options;
  options.gravity = Vec3(0, 0, -9.8);  // the example's g
  return load_model(kTextbook, options, warnings);
}

// the book prints its results to 8 decimals
constexpr double kPrinted = 5e-9;

// tau = M a + c + g + J_tip^T F_tip (the software's InverseDynamics), with F_tip = (m, f) the
// wrench the end-effector applies ON the environment, in frame {n+1}. eom's external
// wrenches act on the robot, so the environment's wrench on the end-effector is -F_tip, and
// external_torque's sum J^T F of it enters tau with a minus: tau = rnea + J^T F_tip in the end-
// effector's own axes (ReferenceFrame::local), F ordered linear first.
Eigen::VectorXd tip_torque(const Model& model, Data& data, const Eigen::VectorXd& q) {
  const Vec6 F_tip_book = Vec6::Ones();  // (m, f) = (1, 1, 1, 1, 1, 1)
  Vec6 F_tip;
  F_tip << F_tip_book.tail<3>(), F_tip_book.head<3>();  // linear first
  Eigen::VectorXd out = Eigen::VectorXd::Zero(model.nv);
  external_torque(model, data, q, {model.require_frame("ee")}, F_tip, ReferenceFrame::local, out);
  return out;
}

}  // namespace

TEST_CASE("JSON PoE: the textbook's 3-link arm loads with one warning for its scaled S1",
          "[json_model]") {
  std::vector<Diagnostic> warnings;
  const Model model = textbook(&warnings);
  REQUIRE(model.nq == 3);
  REQUIRE(model.nv == 3);
  CHECK(model.joint_names[1] == "joint1");
  CHECK(model.joint_names[3] == "joint3");
  CHECK(model.total_mass == Approx(3.7 + 8.393 + 2.275));
  for (const char* frame : {"world", "base", "link1", "link2", "link3", "ee"}) {
    CHECK(model.frame_index(frame) >= 0);
  }
  // S1 = (1, 0, 1, 0, 1, 0): |omega| = sqrt 2
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].message.find("S[0]") == 0);
  CHECK(model.joints[1].scale == Approx(std::sqrt(2.0)).epsilon(1e-15));
  CHECK(model.joints[2].scale == 1);
}

TEST_CASE("JSON PoE: the textbook's inverse dynamics, gravity forces and forward dynamics",
          "[json_model]") {
  const Model model = textbook();
  Data data(model);
  const Eigen::Vector3d q(0.1, 0.1, 0.1), v(0.1, 0.2, 0.3), a(2, 1.5, 1);

  SECTION("InverseDynamics with the tip wrench (1, 1, 1, 1, 1, 1)") {
    const Eigen::VectorXd tau = rnea(model, data, q, v, a) + tip_torque(model, data, q);
    CHECK_THAT(tau, AllClose(Eigen::Vector3d(74.69616155, -33.06766016, -3.23057314), kPrinted));
  }
  SECTION("GravityForces") {
    CHECK_THAT(gravity_torque(model, data, q),
               AllClose(Eigen::Vector3d(28.40331262, -37.64094817, -5.4415892), kPrinted));
  }
  SECTION("ForwardDynamics with tau = (0.5, 0.6, 0.7) and the same tip wrench") {
    // M a + c + g + J^T F_tip = tau
    const Eigen::VectorXd tau = Eigen::Vector3d(0.5, 0.6, 0.7) - tip_torque(model, data, q);
    CHECK_THAT(aba(model, data, q, v, tau),
               AllClose(Eigen::Vector3d(-0.97392907, 25.58466784, -32.91499212), kPrinted));
  }
}

TEST_CASE("JSON PoE: frames follow the product of exponentials", "[json_model]") {
  const Model model = textbook();
  Data data(model);
  // M = M01 M12 M23 M34 by hand: R = [0 0 1; 0 1 0; -1 0 0],
  // p = (0.28 + 0.395 + 0.14225, 0.13585 - 0.1197, 0.089159)
  const SE3 M{(Mat3() << 0, 0, 1, 0, 1, 0, -1, 0, 0).finished(), Vec3(0.81725, 0.01615, 0.089159)};
  const Motion S1{Vec3(0, 1, 0), Vec3(1, 0, 1)}, S2{Vec3(-0.089, 0, 0), Vec3(0, 1, 0)},
      S3{Vec3(-0.089, 0, 0.425), Vec3(0, 1, 0)};
  for (const Eigen::Vector3d& q : {Eigen::Vector3d(0, 0, 0), Eigen::Vector3d(0.1, 0.1, 0.1),
                                   Eigen::Vector3d(-1.2, 2.5, 0.7)}) {
    frame_placements(model, data, q);
    // T = e^[S1]q1 e^[S2]q2 e^[S3]q3 M (Modern Robotics eq. 9.36), each exponential of the scaled
    // twist as given
    const SE3 T = exp6(S1 * q[0]) * exp6(S2 * q[1]) * exp6(S3 * q[2]) * M;
    const SE3& ee = data.oMf[model.require_frame("ee")];
    CHECK_THAT(ee.R, AllClose(T.R, kTolKinematics));
    CHECK_THAT(ee.p, AllClose(T.p, kTolKinematics));
  }
}

TEST_CASE("JSON PoE: a prismatic joint from a zero angular part, limits", "[json_model]") {
  const std::string text = R"({"format": "poe", "joints": [
      {"name": "slide", "type": "prismatic", "lower": -0.5, "upper": 0.5, "effort": 100}],
    "M": [[[1,0,0,0],[0,1,0,0],[0,0,1,1],[0,0,0,1]], [[1,0,0,0],[0,1,0,0],[0,0,1,0.5],[0,0,0,1]]],
    "S": [[0, 0, 0, 0, 0, 1]],
    "G": [[[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,2,0,0],[0,0,0,0,2,0],[0,0,0,0,0,2]]],
    "links": ["carriage", "tip"]})";
  const Model model = build_json_model(text, "models/slide.json");
  CHECK(model.name == "slide");  // no "name": the file's stem
  REQUIRE(model.nv == 1);
  CHECK(model.joint_type_name(1) == std::string("prismatic"));
  CHECK(model.lower_limit[0] == -0.5);
  CHECK(model.effort_limit[0] == 100);
  Data data(model);
  // a = 0, v = 0: the slide holds 2 kg against gravity
  CHECK(gravity_torque(model, data, Eigen::VectorXd::Constant(1, 0.3))[0] ==
        Approx(2 * 9.81).epsilon(1e-15));
  frame_placements(model, data, Eigen::VectorXd::Constant(1, 0.3));
  CHECK_THAT(data.oMf[model.require_frame("tip")].p, AllClose(Vec3(0, 0, 1.8), kTolKinematics));
  CHECK(model.armature[0] == 0);
}

TEST_CASE("JSON PoE: an optional armature per joint adds to M's diagonal", "[json_model]") {
  // a 2 kg slide along z with a 0.5 kg-equivalent rotor: M = 2.5, tau = 2.5 a + 2 g
  const std::string text = R"({"format": "poe", "joints": [
      {"name": "slide", "type": "prismatic", "armature": 0.5}],
    "M": [[[1,0,0,0],[0,1,0,0],[0,0,1,1],[0,0,0,1]], [[1,0,0,0],[0,1,0,0],[0,0,1,0.5],[0,0,0,1]]],
    "S": [[0, 0, 0, 0, 0, 1]],
    "G": [[[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,2,0,0],[0,0,0,0,2,0],[0,0,0,0,0,2]]]})";
  const Model model = build_json_model(text, "geared.json");
  CHECK(model.armature[0] == 0.5);
  Data data(model);
  const Eigen::VectorXd q = Eigen::VectorXd::Zero(1), v = Eigen::VectorXd::Zero(1);
  CHECK(crba(model, data, q)(0, 0) == Approx(2.5).epsilon(1e-15));
  CHECK(rnea(model, data, q, v, Eigen::VectorXd::Constant(1, 4))[0] ==
        Approx(2.5 * 4 + 2 * 9.81).epsilon(1e-15));
  std::string negative = text;
  negative.replace(negative.find("0.5}"), 3, "-0.25");
  CHECK_THROWS_WITH(build_json_model(negative, "geared.json"),
                    "geared.json: joints[0].armature: must be non-negative, not -0.25");
}

TEST_CASE("JSON models: refusals name the JSON path", "[json_model]") {
  const std::string one = "[[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,0,1]]";
  const std::string M2 = "[" + one + "," + one + "]";
  const std::string G1 =
      R"([[[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,2,0,0],[0,0,0,0,2,0],[0,0,0,0,0,2]]])";
  auto poe = [&](const std::string& joint, const std::string& M, const std::string& S,
                 const std::string& G) {
    return R"({"format": "poe", "joints": [)" + joint + R"(], "M": )" + M + R"(, "S": )" + S +
           R"(, "G": )" + G + "}";
  };
  const std::string hinge = R"({"name": "j", "type": "revolute"})";
  auto refused = [](const std::string& text) {
    try {
      build_json_model(text, "m.json");
    } catch (const ModelError& e) {
      return std::string(e.what());
    }
    return std::string("(loaded)");
  };
  CHECK(refused(poe(R"({"name": "j", "type": "spherical"})", M2, "[[0,0,1,0,0,0]]", G1)) ==
        "m.json: joints[0].type: 'spherical' is not revolute or prismatic");
  CHECK(refused(poe(hinge, M2, "[[0,0,1,0,0,0],[0,0,1,0,0,0]]", G1)) ==
        "m.json: S: expected 1 entries (one screw axis per joint), not 2");
  CHECK(refused(poe(hinge, "[" + one + "]", "[[0,0,1,0,0,0]]", G1))
            .find("m.json: M: expected 2 entries (n + 1 placements") == 0);
  // a rotation by 0.1 rad written with cos 0.1 ~ 1: not orthonormal
  CHECK(refused(poe(hinge, R"([[[1,-0.1,0,0],[0.1,1,0,0],[0,0,1,0],[0,0,0,1]],)" + one + "]",
                    "[[0,0,1,0,0,0]]", G1))
            .find("m.json: M[0]: not a rigid placement") == 0);
  CHECK(refused(poe(hinge, M2, "[[0,0,1,0,0,0]]", R"([[[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,-1,0,0,0],
        [0,0,0,2,0,0],[0,0,0,0,2,0],[0,0,0,0,0,2]]])"))
            .find("m.json: G[0]: not positive definite") == 0);
  CHECK(refused(poe(hinge, M2, "[[0,0,1,0,0,0]]", R"([[[1,0.5,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],
        [0,0,0,2,0,0],[0,0,0,0,2,0],[0,0,0,0,0,2]]])")) == "m.json: G[0]: not symmetric");
  CHECK(refused(poe(hinge, M2, "[[0,0,1,0,0,0.5]]", G1))
            .find("m.json: S[0]: a screw axis with "
                  "pitch 0.5") == 0);
  CHECK(refused(poe(hinge, M2, "[[0,0,0,0,0,1]]", G1))
            .find("m.json: S[0]: a sliding screw axis "
                  "for 'j', which is revolute") == 0);
  CHECK(refused(R"({"format": "urdf"})") ==
        "m.json: format: 'urdf' is not a model format eom reads (poe, dh or mdh)");
  CHECK(refused(R"({"joints": []})").find("m.json: a JSON model needs a \"format\"") == 0);
  CHECK(refused("{\n  \"format\": \"poe\",\n  ]").find("m.json:3:") == 0);
  // a key given twice would keep its last value: refused; a number beyond a double, at its place
  CHECK(refused(R"({"format": "poe", "format": "dh"})") ==
        "m.json: malformed JSON: the key 'format' appears twice in one object");
  CHECK(refused("{\"format\": \"poe\",\n \"joints\": [1e400]}")
            .find("m.json:2:13: '1e400' is out of the range of a double (beyond 1.8e308)") == 0);
  CHECK(refused(R"({"format": "dh", "joints": [{"name": "j", "type": "revolute", "a": 0,
      "alpha": 0, "theta": 0, "mass": 1, "com": [0,0,0], "inertia": [[1,0,0],[0,1,0],[0,0,1]]}]})") ==
        "m.json: joints[0]: missing field \"d\"");
  CHECK(refused(poe(R"({"name": "j", "type": "revolute", "lowr": 0})", M2, "[[0,0,1,0,0,0]]",
                    G1)) == "m.json: joints[0]: unknown field 'lowr' (did you mean 'lower'?)");
}

TEST_CASE("JSON models nested 100,000 deep are refused, not a stack overflow", "[json_model]") {
  // a name or a DH joint's "a" as lists nested 100,000 deep: a message quoting the value would
  // once have serialised it by recursion
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  for (const std::string& text :
       {R"({"format": "dh", "name": )" + deep + "}",
        R"({"format": "dh", "joints": [{"name": "j", "type": "revolute", "a": )" + deep +
            R"(, "alpha": 0, "d": 0, "theta": 0}]})"}) {
    try {
      build_json_model(text, "deep.json");
      FAIL("loaded");
    } catch (const ModelError& e) {
      CHECK(e.line() == 1);
      CHECK(e.message() == "objects and lists nested more than 100 deep, the most eom reads");
    }
  }
}

// A six-axis arm (PUMA-560 kinematics, made-up but physical masses) as a standard and as a
// modified DH table, against URDFs written from the DH definitions: the standard one turns each
// joint about z_{i-1} (a massless <link> on the joint) and reaches frame {i} by a fixed joint
// Tz(d) Tx(a) Rx(alpha); the modified one places link i's frame at Rx(alpha) Tx(a) Rz(theta) Tz(d).
TEST_CASE("JSON DH and MDH: the same M, inverse dynamics and frames as the equivalent URDF",
          "[json_model]") {
  for (const char* table : {"puma_like.dh", "puma_like.mdh"}) {
    INFO(table);
    const Model dh = load_model(kDataDir + "/models/" + table + ".json");
    const Model urdf = load_model(kDataDir + "/models/" + table + ".urdf");
    REQUIRE(dh.nv == 6);
    REQUIRE(urdf.nv == 6);
    for (int i = 1; i <= 6; ++i) REQUIRE(dh.joint_names[i] == urdf.joint_names[i]);
    CHECK(dh.total_mass == Approx(urdf.total_mass).epsilon(1e-15));
    CHECK(dh.upper_limit[2] == 3);
    Data a_data(dh), b_data(urdf);
    std::mt19937 rng(23);
    std::uniform_real_distribution<double> uniform(-3, 3);
    auto random = [&] {
      Eigen::VectorXd x(6);
      for (int k = 0; k < 6; ++k) x[k] = uniform(rng);
      return x;
    };
    for (int trial = 0; trial < 20; ++trial) {
      const Eigen::VectorXd q = random(), v = random(), a = random();
      const Eigen::MatrixXd M = crba(urdf, b_data, q);
      CHECK_THAT(crba(dh, a_data, q), AllClose(M, kTolRoundoff * (1 + M.norm())));
      const Eigen::VectorXd tau = rnea(urdf, b_data, q, v, a);
      CHECK_THAT(rnea(dh, a_data, q, v, a), AllClose(tau, kTolRoundoff * (1 + tau.norm())));
      frame_placements(dh, a_data, q);
      frame_placements(urdf, b_data, q);
      for (const char* frame :
           {"base", "link1", "link2", "link3", "link4", "link5", "link6", "tool"}) {
        INFO(frame);
        const SE3& x = a_data.oMf[dh.require_frame(frame)];
        const SE3& y = b_data.oMf[urdf.require_frame(frame)];
        CHECK_THAT(x.R, AllClose(y.R, kTolKinematics));
        CHECK_THAT(x.p, AllClose(y.p, kTolKinematics));
      }
    }
  }
}

TEST_CASE("JSON DH and MDH: a prismatic joint slides d along z by the definitions",
          "[json_model]") {
  const std::string joints = R"([
      {"name": "turn", "type": "revolute", "a": 0.3, "alpha": 0.4, "d": 0.2, "theta": 0.5,
       "mass": 1, "com": [0, 0, 0], "inertia": [[1,0,0],[0,1,0],[0,0,1]]},
      {"name": "slide", "type": "prismatic", "a": 0.1, "alpha": -0.7, "d": 0.6, "theta": 0.25,
       "mass": 2, "com": [0.1, 0, 0], "inertia": [[1,0,0],[0,1,0],[0,0,1]]}])";
  auto Rx = [](double t) {
    return SE3{Eigen::AngleAxisd(t, Vec3::UnitX()).toRotationMatrix(), Vec3::Zero()};
  };
  auto Rz = [](double t) {
    return SE3{Eigen::AngleAxisd(t, Vec3::UnitZ()).toRotationMatrix(), Vec3::Zero()};
  };
  auto T = [](double x, double z) { return SE3{Mat3::Identity(), Vec3(x, 0, z)}; };
  const Eigen::Vector2d q(0.8, -0.35);
  for (const bool modified : {false, true}) {
    INFO((modified ? "mdh" : "dh"));
    const Model model =
        build_json_model(std::string(R"({"format": ")") + (modified ? "mdh" : "dh") +
                             R"(", "joints": )" + joints + "}",
                         "arm.json");
    CHECK(model.joint_type_name(2) == std::string("prismatic"));
    Data data(model);
    frame_placements(model, data, q);
    // standard: Rz(theta) Tz(d) Tx(a) Rx(alpha); modified: Rx(alpha) Tx(a) Rz(theta) Tz(d)
    const SE3 link1 = modified ? Rx(0.4) * T(0.3, 0) * Rz(0.5 + q[0]) * T(0, 0.2)
                               : Rz(0.5 + q[0]) * T(0, 0.2) * T(0.3, 0) * Rx(0.4);
    const SE3 link2 = link1 * (modified ? Rx(-0.7) * T(0.1, 0) * Rz(0.25) * T(0, 0.6 + q[1])
                                        : Rz(0.25) * T(0, 0.6 + q[1]) * T(0.1, 0) * Rx(-0.7));
    CHECK_THAT(data.oMf[model.require_frame("link1")].R, AllClose(link1.R, kTolKinematics));
    CHECK_THAT(data.oMf[model.require_frame("link1")].p, AllClose(link1.p, kTolKinematics));
    CHECK_THAT(data.oMf[model.require_frame("tool")].R, AllClose(link2.R, kTolKinematics));
    CHECK_THAT(data.oMf[model.require_frame("tool")].p, AllClose(link2.p, kTolKinematics));
    // the centre of mass of link 2 is at (0.1, 0, 0) in its DH frame
    const int body = model.frames[model.require_frame("link2")].parent;
    CHECK_THAT(data.oMi[body].act(model.inertia[body].c),
               AllClose(link2.act(Vec3(0.1, 0, 0)), kTolKinematics));
  }
}

TEST_CASE("JSON PoE: a scaled sliding screw axis moves |v| per unit of q", "[json_model]") {
  const std::string text = R"({"format": "poe", "joints": [{"name": "slide", "type": "prismatic"}],
    "M": [[[1,0,0,0],[0,1,0,0],[0,0,1,1],[0,0,0,1]], [[1,0,0,0],[0,1,0,0],[0,0,1,0.5],[0,0,0,1]]],
    "S": [[0, 0, 0, 0, 0, 2]],
    "G": [[[1,0,0,0,0,0],[0,1,0,0,0,0],[0,0,1,0,0,0],[0,0,0,2,0,0],[0,0,0,0,2,0],[0,0,0,0,0,2]]]})";
  std::vector<Diagnostic> warnings;
  const Model model = build_json_model(text, "slide.json", {}, &warnings);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].message.find("S[0]: the linear part has norm 2.0, not 1") == 0);
  Data data(model);
  const Eigen::VectorXd q = Eigen::VectorXd::Constant(1, 0.3);
  frame_placements(model, data, q);
  // e^[S] q M: the tip 2 q above its home height 1.5
  CHECK_THAT(data.oMf[model.require_frame("ee")].p, AllClose(Vec3(0, 0, 2.1), kTolKinematics));
  // tau = S^T F: twice the weight of the 2 kg link
  CHECK(gravity_torque(model, data, q)[0] == Approx(2 * 2 * 9.81).epsilon(1e-15));
}
