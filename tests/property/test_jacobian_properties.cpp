// Frame Jacobians in every reference frame, their time derivative and the analytical Jacobians,
// against finite differences of forward kinematics on every model (fixed and floating base).

#include <catch2/catch.hpp>

#include <limits>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/core/errors.hpp>
#include <eom/algorithm/kinematics.hpp>

#include "matchers.hpp"
#include "models.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// central differences with step h on q (+) t dv; truncation ~ h^2, round-off ~ 1e-16 / h
constexpr double kStep = 1e-5;
constexpr double kTolFD = 1e-8;

// The frames to check: every frame not welded to the world (world-welded ones have J = 0,
// checked separately), at most 8 spread over the list.
std::vector<int> frames_to_check(const Model& model) {
  std::vector<int> all;
  for (int f = 0; f < static_cast<int>(model.frames.size()); ++f) {
    if (model.frames[f].parent > 0) all.push_back(f);
  }
  std::vector<int> out;
  const size_t step = std::max<size_t>(1, all.size() / 8);
  for (size_t k = 0; k < all.size(); k += step) out.push_back(all[k]);
  if (!all.empty() && out.back() != all.back()) out.push_back(all.back());
  return out;
}

SE3 placement_of(const Model& model, Data& data, const Eigen::VectorXd& q, int frame) {
  frame_placements(model, data, q);
  return data.oMf[frame];
}

// Column k of the Jacobian by central differences of the frame placement: [p_dot; omega] in world
// axes (local world aligned), from the placements at q (+) -h e_k and q (+) h e_k.
Vec6 fd_column(const Model& model, Data& data, const Eigen::VectorXd& q, int frame,
               const Eigen::VectorXd& direction, double h) {
  const SE3 plus = placement_of(model, data, integrate(model, q, h * direction), frame);
  const SE3 minus = placement_of(model, data, integrate(model, q, -h * direction), frame);
  Vec6 out;
  out << (plus.p - minus.p) / (2 * h), log3(plus.R * minus.R.transpose()) / (2 * h);
  return out;
}

// The local-world-aligned column expressed in another reference
Vec6 convert(const Vec6& lwa, const SE3& oMf, ReferenceFrame reference) {
  Vec6 out = lwa;
  if (reference == ReferenceFrame::world) {
    out.head<3>() = lwa.head<3>() - lwa.tail<3>().cross(oMf.p);
  } else if (reference == ReferenceFrame::local) {
    out.head<3>() = oMf.R.transpose() * lwa.head<3>();
    out.tail<3>() = oMf.R.transpose() * lwa.tail<3>();
  }
  return out;
}

const ReferenceFrame kReferences[] = {ReferenceFrame::world, ReferenceFrame::local,
                                      ReferenceFrame::local_world_aligned};

}  // namespace

TEST_CASE("frame_jacobian over the support path equals the whole-tree one",
          "[property][jacobian]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model), full(model);
  Rng rng(robot.seed);
  for (int s = 0; s < 3; ++s) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    forward_kinematics(model, full, q);
    for (int f = 0; f < static_cast<int>(model.frames.size()); ++f) {
      for (ReferenceFrame reference : kReferences) {
        INFO("frame " << model.frames[f].name << " reference " << static_cast<int>(reference));
        const Eigen::MatrixXd expected = frame_jacobian(model, full, f, reference);
        const Eigen::MatrixXd actual = frame_jacobian(model, data, q, f, reference);
        // the same operations give the same doubles, except at the frame of a floating-base
        // robot: the support path leaves the base's position out (its columns then do not see
        // where the base is), the whole tree's placements hold it, so the two differ by the
        // rounding of world coordinates, a few ulps of the base's distance from the origin
        const bool centred =
            model.floating_base && reference != ReferenceFrame::world && model.frames[f].parent > 0;
        const double rounding = centred ? 8 * std::numeric_limits<double>::epsilon() *
                                              (1 + q.head<3>().norm() + full.oMf[f].p.norm())
                                        : 0;
        CHECK_THAT(actual, AllClose(expected, rounding, 0));
        CHECK_THAT(data.oMf[f].p, AllClose(full.oMf[f].p, rounding, 0));
      }
    }
  }
}

TEST_CASE("frame Jacobians match finite differences of FK in every reference",
          "[property][jacobian]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model), fd(model);
  Rng rng(robot.seed + 100);
  for (int s = 0; s < 2; ++s) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    for (int f : frames_to_check(model)) {
      const SE3 oMf = placement_of(model, fd, q, f);
      Eigen::MatrixXd lwa(6, model.nv);
      for (int k = 0; k < model.nv; ++k) {
        lwa.col(k) = fd_column(model, fd, q, f, Eigen::VectorXd::Unit(model.nv, k), kStep);
      }
      for (ReferenceFrame reference : kReferences) {
        INFO("frame " << model.frames[f].name << " reference " << static_cast<int>(reference));
        Eigen::MatrixXd expected(6, model.nv);
        for (int k = 0; k < model.nv; ++k) expected.col(k) = convert(lwa.col(k), oMf, reference);
        const Eigen::MatrixXd actual = frame_jacobian(model, data, q, f, reference);
        CHECK_THAT(actual, AllClose(expected, kTolFD, kTolFD));
      }
    }
  }
}

TEST_CASE("a free-flyer's columns 1 km from the origin, turned: closed form and finite differences",
          "[property][jacobian]") {
  // frame_jacobian fills the free-flyer's six columns as one block: checked here where a wrong
  // sign, axis or reference point could not hide (base far away, turned about a skew axis)
  const TestModel robot = GENERATE(from_range(test_models()));
  const Model model = robot.load();
  if (!model.floating_base) return;
  INFO(robot.name);
  Data data(model), fd(model);
  Rng rng(robot.seed + 300);
  Eigen::VectorXd q = random_configuration(model, rng);
  q.head<3>() = Vec3(600, -480, 640);  // 1 km
  q.segment<4>(3) =
      Eigen::Quaterniond(Eigen::AngleAxisd(2.1, Vec3(1, -2, 2).normalized())).coeffs();  // x y z w
  // central differences of positions of 1e3 m: round-off ~ 1e3 * 1e-16 / h, truncation ~ h^2
  constexpr double h = 1e-4, tolerance = 1e-7;
  for (int f : frames_to_check(model)) {
    const SE3 oMf = placement_of(model, fd, q, f);
    for (ReferenceFrame reference : kReferences) {
      INFO("frame " << model.frames[f].name << " reference " << static_cast<int>(reference));
      const Eigen::MatrixXd J = frame_jacobian(model, data, q, f, reference);
      for (int k = 0; k < 6; ++k) {
        const Vec6 lwa = fd_column(model, fd, q, f, Eigen::VectorXd::Unit(model.nv, k), h);
        CHECK_THAT(J.col(k), AllClose(convert(lwa, oMf, reference), tolerance, tolerance));
      }
      if (reference != ReferenceFrame::local_world_aligned) continue;
      // S = 1 moved to the frame origin: [R, [p_base - p_frame]x R; 0, R]
      const SE3& oMb = data.oMi[1];
      Eigen::Matrix<double, 6, 6> expected = Eigen::Matrix<double, 6, 6>::Zero();
      expected.topLeftCorner<3, 3>() = oMb.R;
      expected.topRightCorner<3, 3>() = skew(oMb.p - data.oMf[f].p) * oMb.R;
      expected.bottomRightCorner<3, 3>() = oMb.R;
      CHECK_THAT(J.leftCols<6>(), AllClose(expected, kTolRoundoff, 0));
    }
  }
}

TEST_CASE("frames welded to the world have a zero Jacobian", "[property][jacobian]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  const Model model = robot.load();
  Data data(model);
  const Eigen::VectorXd q = neutral(model);
  for (int f = 0; f < static_cast<int>(model.frames.size()); ++f) {
    if (model.frames[f].parent != 0) continue;
    CHECK(frame_jacobian(model, data, q, f, ReferenceFrame::world).isZero(0));
  }
}

TEST_CASE("dJ/dt matches finite differences of J along the motion", "[property][jacobian]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model), fd(model);
  Rng rng(robot.seed + 200);
  for (int s = 0; s < 2; ++s) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    const Eigen::VectorXd v = random_tangent(model, rng);
    const Eigen::VectorXd qp = integrate(model, q, kStep * v);
    const Eigen::VectorXd qm = integrate(model, q, -kStep * v);
    for (int f : frames_to_check(model)) {
      for (ReferenceFrame reference : kReferences) {
        INFO("frame " << model.frames[f].name << " reference " << static_cast<int>(reference));
        // (copies: frame_jacobian returns data.J, which the next call overwrites)
        const Eigen::MatrixXd Jp = frame_jacobian(model, fd, qp, f, reference);
        const Eigen::MatrixXd Jm = frame_jacobian(model, fd, qm, f, reference);
        const Eigen::MatrixXd expected = (Jp - Jm) / (2 * kStep);
        const Eigen::MatrixXd J = frame_jacobian(model, fd, q, f, reference);
        const Eigen::MatrixXd dJ = frame_jacobian_time_variation(model, data, q, v, f, reference);
        CHECK_THAT(dJ, AllClose(expected, kTolFD, kTolFD));
        CHECK_THAT(Eigen::MatrixXd(data.J), AllClose(J, kTolRoundoff, kTolRoundoff));
      }
    }
  }
}

TEST_CASE("classical acceleration is the rate of [p_dot; omega]", "[property][jacobian]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model), fd(model);
  Rng rng(robot.seed + 300);
  const Eigen::VectorXd q = random_configuration(model, rng);
  const Eigen::VectorXd v = random_tangent(model, rng);
  const Eigen::VectorXd a = random_tangent(model, rng);
  // q(t) = q (+) (t v + t^2/2 a) has velocity v + t a + O(t^2) (the O(t) part of the
  // Baker-Campbell-Hausdorff term, [t v, v + t a] / 2, vanishes at first order)
  const double h = kStep;
  const Eigen::VectorXd qp = integrate(model, q, h * v + 0.5 * h * h * a);
  const Eigen::VectorXd qm = integrate(model, q, -h * v + 0.5 * h * h * a);
  for (int f : frames_to_check(model)) {
    INFO("frame " << model.frames[f].name);
    const auto lwa = ReferenceFrame::local_world_aligned;
    const Vec6 vp = frame_jacobian(model, fd, qp, f, lwa) * (v + h * a);
    const Vec6 vm = frame_jacobian(model, fd, qm, f, lwa) * (v - h * a);
    const Vec6 expected = (vp - vm) / (2 * h);
    const Vec6 actual = frame_classical_acceleration(model, data, q, v, a, f);
    CHECK_THAT(Eigen::VectorXd(actual), AllClose(expected, kTolFD, kTolFD));
    // a = 0: the velocity-product term dJ v
    const Vec6 bias =
        frame_classical_acceleration(model, data, q, v, Eigen::VectorXd::Zero(model.nv), f);
    CHECK_THAT(Eigen::VectorXd(bias), AllClose(data.dJ * v, kTolRoundoff, kTolRoundoff));
  }
}

TEST_CASE("analytical Jacobians match finite differences of the parametrised pose",
          "[property][jacobian]") {
  const TestModel robot = GENERATE(from_range(test_models()));
  INFO(robot.name);
  const Model model = robot.load();
  Data data(model), fd(model);
  Rng rng(robot.seed + 400);
  const OrientationParametrization kinds[] = {
      OrientationParametrization::euler_zyx, OrientationParametrization::euler_xyz,
      OrientationParametrization::quaternion, OrientationParametrization::rotation_vector};
  for (int s = 0; s < 2; ++s) {
    const Eigen::VectorXd q = random_configuration(model, rng);
    for (int f : frames_to_check(model)) {
      for (OrientationParametrization kind : kinds) {
        INFO("frame " << model.frames[f].name << " parametrisation " << static_cast<int>(kind));
        const int count = orientation_parameter_count(kind);
        Eigen::MatrixXd JA(3 + count, model.nv);
        try {
          analytical_jacobian(model, data, q, f, kind, JA);
        } catch (const NumericalError&) {
          continue;  // at a singularity of the parametrisation (random poses almost never are)
        }
        Eigen::MatrixXd expected(3 + count, model.nv);
        const Eigen::Vector4d c0 = orientation_parameters(kind, placement_of(model, fd, q, f).R);
        // central difference of the parametrised pose along tangent direction e with step h
        auto difference = [&](const Eigen::VectorXd& e, double h) {
          const SE3 plus = placement_of(model, fd, integrate(model, q, h * e), f);
          const SE3 minus = placement_of(model, fd, integrate(model, q, -h * e), f);
          Eigen::Vector4d cp = orientation_parameters(kind, plus.R);
          Eigen::Vector4d cm = orientation_parameters(kind, minus.R);
          // the quaternion's sign rule (qw >= 0) may flip one side near qw = 0: take the
          // spelling nearest the one at q
          if (kind == OrientationParametrization::quaternion) {
            if (cp.dot(c0) < 0) cp = -cp;
            if (cm.dot(c0) < 0) cm = -cm;
          }
          Eigen::VectorXd d(3 + count);
          d << (plus.p - minus.p) / (2 * h), ((cp - cm) / (2 * h)).head(count);
          return d;
        };
        for (int k = 0; k < model.nv; ++k) {
          // Richardson extrapolation (error h^4): near gimbal lock the parameters' third
          // derivatives are large
          const Eigen::VectorXd e = Eigen::VectorXd::Unit(model.nv, k);
          expected.col(k) = (4 * difference(e, kStep / 2) - difference(e, kStep)) / 3;
        }
        CHECK_THAT(JA, AllClose(expected, kTolFD, kTolFD));
      }
    }
  }
}

TEST_CASE("orientation parameters round-trip to the rotation", "[property][jacobian]") {
  Rng rng(7);
  for (int s = 0; s < 20; ++s) {
    const Vec3 w(rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5));
    const Mat3 R = exp3(w);
    const auto zyx = orientation_parameters(OrientationParametrization::euler_zyx, R);
    const Mat3 Rzyx =
        (Eigen::AngleAxisd(zyx[0], Vec3::UnitZ()) * Eigen::AngleAxisd(zyx[1], Vec3::UnitY()) *
         Eigen::AngleAxisd(zyx[2], Vec3::UnitX()))
            .toRotationMatrix();
    CHECK_THAT(Eigen::MatrixXd(Rzyx), AllClose(R, kTolRoundoff, 0));
    const auto xyz = orientation_parameters(OrientationParametrization::euler_xyz, R);
    const Mat3 Rxyz =
        (Eigen::AngleAxisd(xyz[0], Vec3::UnitX()) * Eigen::AngleAxisd(xyz[1], Vec3::UnitY()) *
         Eigen::AngleAxisd(xyz[2], Vec3::UnitZ()))
            .toRotationMatrix();
    CHECK_THAT(Eigen::MatrixXd(Rxyz), AllClose(R, kTolRoundoff, 0));
    const auto quat = orientation_parameters(OrientationParametrization::quaternion, R);
    CHECK_THAT(
        Eigen::MatrixXd(Eigen::Quaterniond(quat[3], quat[0], quat[1], quat[2]).toRotationMatrix()),
        AllClose(R, kTolRoundoff, 0));
    const auto phi = orientation_parameters(OrientationParametrization::rotation_vector, R);
    CHECK_THAT(Eigen::MatrixXd(exp3(phi.head<3>())), AllClose(R, kTolRoundoff, 0));
  }
}

TEST_CASE("Euler angles refuse gimbal lock", "[property][jacobian]") {
  const Mat3 R = exp3(Vec3(0, M_PI / 2, 0));
  CHECK_THROWS_AS(orientation_rate_map(OrientationParametrization::euler_zyx, R), NumericalError);
  CHECK_THROWS_AS(orientation_rate_map(OrientationParametrization::euler_xyz, R), NumericalError);
  CHECK_NOTHROW(orientation_rate_map(OrientationParametrization::quaternion, R));
}
