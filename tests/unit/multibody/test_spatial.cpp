// Spatial algebra against hand-computed cases and its defining identities.

#include <catch2/catch.hpp>

#include <cmath>

#include <eom/multibody/spatial.hpp>

#include "matchers.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {
const double kHalfTurn = std::acos(-1.0);
Mat3 rot_z90() {
  Mat3 R;
  R << 0, -1, 0, 1, 0, 0, 0, 0, 1;
  return R;
}
}  // namespace

TEST_CASE("rpy follows URDF: R = Rz(yaw) Ry(pitch) Rx(roll)", "[spatial]") {
  Mat3 Rx;
  Rx << 1, 0, 0, 0, 0, -1, 0, 1, 0;
  CHECK_THAT(rpy_to_matrix(Vec3(kHalfTurn / 2, 0, 0)), AllClose(Rx, kTolRoundoff));
  CHECK_THAT(rpy_to_matrix(Vec3(0, 0, kHalfTurn / 2)), AllClose(rot_z90(), kTolRoundoff));
  // roll then yaw: x axis stays x under roll, then goes to y under yaw
  const Mat3 R = rpy_to_matrix(Vec3(kHalfTurn / 2, 0, kHalfTurn / 2));
  CHECK_THAT(R * Vec3::UnitX(), AllClose(Vec3::UnitY(), kTolRoundoff));
  CHECK_THAT(R * Vec3::UnitY(), AllClose(Vec3::UnitZ(), kTolRoundoff));
  const Vec3 rpy(0.3, -0.7, 2.1);
  CHECK_THAT(matrix_to_rpy(rpy_to_matrix(rpy)), AllClose(rpy, kTolRoundoff));
  // near and at gimbal lock (pitch +-pi/2: Baxter's URDF writes 1.57079632679) roll and yaw are
  // not separately well determined, but the rotation they rebuild must be the same one
  for (const double pitch : {1.57079632679, kHalfTurn / 2, -kHalfTurn / 2 + 1e-9, 1.2, -1.0}) {
    const Mat3 near_lock = rpy_to_matrix(Vec3(1.57079632679, pitch, -0.4));
    CHECK_THAT(rpy_to_matrix(matrix_to_rpy(near_lock)), AllClose(near_lock, kTolRoundoff));
  }
}

TEST_CASE("SE3 moves motions and forces between frames", "[spatial]") {
  // frame b at (1, 0, 0) in a, rotated 90 degrees about z
  const SE3 aMb{rot_z90(), Vec3(1, 0, 0)};
  // b's origin moving along its own x while turning about z: a pure rotation about a's z axis
  const Motion m_b{Vec3(1, 0, 0), Vec3(0, 0, 1)};
  const Motion m_a = aMb.act(m_b);
  CHECK_THAT(m_a.lin, AllClose(Vec3::Zero(), kTolRoundoff));
  CHECK_THAT(m_a.ang, AllClose(Vec3(0, 0, 1), kTolRoundoff));
  CHECK_THAT(aMb.act_inv(m_a).vector(), AllClose(m_b.vector(), kTolRoundoff));
  CHECK_THAT((aMb.action() * m_b.vector()).eval(), AllClose(m_a.vector(), kTolRoundoff));

  // a unit force along b's y at b's origin: along -x in a, with moment p x f = (1,0,0) x (-1,0,0) = 0
  const Force f_b{Vec3(0, 1, 0), Vec3::Zero()};
  const Force f_a = aMb.act(f_b);
  CHECK_THAT(f_a.lin, AllClose(Vec3(-1, 0, 0), kTolRoundoff));
  CHECK_THAT(f_a.ang, AllClose(Vec3::Zero(), kTolRoundoff));
  // a force along b's x: along a's y, moment (1,0,0) x (0,1,0) = (0,0,1)
  const Force g_a = aMb.act(Force{Vec3(1, 0, 0), Vec3::Zero()});
  CHECK_THAT(g_a.ang, AllClose(Vec3(0, 0, 1), kTolRoundoff));
  CHECK_THAT(aMb.act_inv(g_a).vector(),
             AllClose(Vec6((Vec6() << 1, 0, 0, 0, 0, 0).finished()), kTolRoundoff));

  // power is frame independent
  const Motion m{Vec3(0.3, -1.2, 0.5), Vec3(2.0, 0.1, -0.4)};
  const Force f{Vec3(-0.7, 0.2, 1.1), Vec3(0.5, 0.9, -2.0)};
  CHECK(aMb.act(f).dot(aMb.act(m)) == Approx(f.dot(m)).epsilon(1e-14));
  // composition and inverse
  const SE3 bMc{rpy_to_matrix(Vec3(0.1, 0.2, 0.3)), Vec3(0.4, -0.5, 0.6)};
  CHECK_THAT((aMb * bMc).act(m).vector(), AllClose(aMb.act(bMc.act(m)).vector(), kTolRoundoff));
  const SE3 identity = aMb * aMb.inverse();
  CHECK_THAT(identity.R, AllClose(Mat3::Identity(), kTolRoundoff));
  CHECK_THAT(identity.p, AllClose(Vec3::Zero(), kTolRoundoff));
}

TEST_CASE("spatial cross products", "[spatial]") {
  const Motion v{Vec3(0.3, -1.2, 0.5), Vec3(2.0, 0.1, -0.4)};
  const Motion m{Vec3(1.5, 0.2, -0.3), Vec3(-0.6, 0.8, 0.25)};
  const Force f{Vec3(-0.7, 0.2, 1.1), Vec3(0.5, 0.9, -2.0)};
  CHECK_THAT(cross(v, v).vector(), AllClose(Vec6::Zero(), kTolRoundoff));
  // crf = -crm^T: (v x* f) . m = -f . (v x m)
  CHECK(cross_force(v, f).dot(m) == Approx(-f.dot(cross(v, m))).epsilon(1e-14));
  // hand case: rotation about z crossed with a translation along x gives a translation along y
  const Motion w{Vec3::Zero(), Vec3(0, 0, 1)};
  const Motion tx{Vec3(1, 0, 0), Vec3::Zero()};
  CHECK_THAT(cross(w, tx).lin, AllClose(Vec3(0, 1, 0), kTolRoundoff));
}

TEST_CASE("spatial inertia", "[spatial]") {
  // two 1 kg point masses at x = +-1: mass 2, com 0, inertia diag(0, 2, 2)
  const Inertia a{1, Vec3(1, 0, 0), Mat3::Zero()};
  const Inertia b{1, Vec3(-1, 0, 0), Mat3::Zero()};
  const Inertia sum = a + b;
  CHECK(sum.m == 2);
  CHECK_THAT(sum.c, AllClose(Vec3::Zero(), kTolRoundoff));
  CHECK_THAT(sum.I_c, AllClose(Vec3(0, 2, 2).asDiagonal().toDenseMatrix(), kTolRoundoff));
  // momentum of a unit point mass at (1,0,0) turning about z at 1 rad/s: p = (0,1,0), k = c x p = (0,0,1)
  const Force h = a * Motion{Vec3::Zero(), Vec3(0, 0, 1)};
  CHECK_THAT(h.lin, AllClose(Vec3(0, 1, 0), kTolRoundoff));
  CHECK_THAT(h.ang, AllClose(Vec3(0, 0, 1), kTolRoundoff));
  // the 6x6 matrix acts as operator*, and transforms as X^-T I X^-1
  Mat3 Ic;
  Ic << 0.3, 0.01, -0.02, 0.01, 0.2, 0.03, -0.02, 0.03, 0.25;
  const Inertia I{2.5, Vec3(0.1, -0.2, 0.3), Ic};
  const Motion m{Vec3(0.3, -1.2, 0.5), Vec3(2.0, 0.1, -0.4)};
  CHECK_THAT((I.matrix() * m.vector()).eval(), AllClose((I * m).vector(), kTolRoundoff));
  const SE3 aMb{rpy_to_matrix(Vec3(0.4, -0.3, 1.2)), Vec3(0.5, 0.6, -0.7)};
  const Mat6 Xinv = aMb.inverse().action();
  CHECK_THAT(I.transformed(aMb).matrix(),
             AllClose((Xinv.transpose() * I.matrix() * Xinv).eval(), 1e-13));
  // about_origin: parallel axis theorem
  const Mat3 expected = Ic + 2.5 * (I.c.squaredNorm() * Mat3::Identity() - I.c * I.c.transpose());
  CHECK_THAT(I.about_origin(), AllClose(expected, kTolRoundoff));
}

TEST_CASE("exponential and logarithm maps", "[spatial]") {
  CHECK_THAT(exp3(Vec3(0, 0, kHalfTurn / 2)), AllClose(rot_z90(), kTolRoundoff));
  CHECK_THAT(exp3(Vec3(1e-9, 0, 0)), AllClose(Mat3::Identity(), 1e-8));
  const Vec3 w(0.3, -1.1, 0.8);
  CHECK_THAT(log3(exp3(w)), AllClose(w, kTolRoundoff));
  // a pure translation integrates to itself; a screw about z by pi/2 with unit pitch
  const SE3 T = exp6(Motion{Vec3(1, 2, 3), Vec3::Zero()});
  CHECK_THAT(T.p, AllClose(Vec3(1, 2, 3), kTolRoundoff));
  const SE3 S = exp6(Motion{Vec3(0, 0, 1), Vec3(0, 0, kHalfTurn / 2)});
  CHECK_THAT(S.p, AllClose(Vec3(0, 0, 1), kTolRoundoff));
  CHECK_THAT(S.R, AllClose(rot_z90(), kTolRoundoff));
  const Motion xi{Vec3(0.5, -0.2, 0.9), Vec3(0.7, 0.4, -1.3)};
  CHECK_THAT(log6(exp6(xi)).vector(), AllClose(xi.vector(), 1e-12));
}

TEST_CASE("pose vectors: x y z qx qy qz qw with qw >= 0", "[spatial]") {
  // 90 degrees about z: q = (0, 0, sin 45, cos 45)
  const PoseVector pose = pose_vector(SE3{rot_z90(), Vec3(1, 2, 3)});
  const double h = std::sqrt(0.5);
  CHECK_THAT(pose, AllClose((PoseVector() << 1, 2, 3, 0, 0, h, h).finished(), kTolRoundoff));
  // 270 degrees about z is -90: qw stays positive
  const PoseVector back = pose_vector(SE3{rot_z90().transpose(), Vec3::Zero()});
  CHECK(back[6] > 0);
  CHECK(back[5] == Approx(-h));
  const SE3 M{rpy_to_matrix(Vec3(0.3, -1.2, 2.5)), Vec3(-1, 0.5, 2)};
  const SE3 round = from_pose_vector(pose_vector(M));
  CHECK_THAT(round.R, AllClose(M.R, kTolRoundoff));
  CHECK_THAT(round.p, AllClose(M.p, kTolRoundoff));
}
