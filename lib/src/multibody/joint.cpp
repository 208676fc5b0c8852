// Everything that depends on the kind of a joint lives here (MuJoCo's one-switch rule).

#include "eom/multibody/joint.hpp"

#include <array>
#include <cmath>

#include "eom/multibody/component_names.hpp"
#include "core/tolerances.hpp"

namespace eom {

Joint Joint::make(JointKind kind, const Vec3& axis, int idx_q, int idx_v, bool bounded,
                  double scale) {
  Joint j;
  j.kind = kind;
  j.axis = axis.stableNormalized();  // stable: an axis "1e308 1e308 0" has no finite norm
  j.idx_q = idx_q;
  j.idx_v = idx_v;
  j.bounded = bounded;
  switch (kind) {
    case JointKind::revolute:
      j.nq = j.nv = 1;
      j.scale = scale;
      j.s = {Vec3::Zero(), scale * j.axis};
      break;
    case JointKind::prismatic:
      j.nq = j.nv = 1;
      j.scale = scale;
      j.s = {scale * j.axis, Vec3::Zero()};
      break;
    case JointKind::planar: {
      j.nq = j.nv = 3;
      // in-plane basis: e1 the coordinate axis least aligned with n, made orthogonal to it
      Eigen::Index k;
      j.axis.cwiseAbs().minCoeff(&k);
      j.e1 = (Vec3::Unit(k) - j.axis * j.axis[k]).normalized();
      j.e2 = j.axis.cross(j.e1);
      j.S.setZero(6, 3);
      j.S.block<3, 1>(0, 0) = j.e1;
      j.S.block<3, 1>(0, 1) = j.e2;
      j.S.block<3, 1>(3, 2) = j.axis;
      break;
    }
    case JointKind::floating:
      j.nq = 7;
      j.nv = 6;
      j.bounded = false;
      j.S = Mat6::Identity();
      break;
    case JointKind::ball:
      // rotation about the child origin: S = (0; 1), spatial.hpp's linear-first order
      j.nq = 4;
      j.nv = 3;
      j.bounded = false;
      j.S.setZero(6, 3);
      j.S.bottomRows<3>().setIdentity();
      break;
  }
  if (j.nv == 1) {
    j.S = j.s.vector();
    // a coordinate axis (the common URDF case) makes rotations cheap: see turn_about
    for (int k = 0; k < 3; ++k) {
      if (j.axis == Vec3::Unit(k) || j.axis == -Vec3::Unit(k)) {
        j.axis_index = k;
        j.axis_sign = j.axis[k];
      }
    }
  }
  return j;
}

const char* joint_type_name(const Joint& joint) {
  switch (joint.kind) {
    case JointKind::revolute:
      return joint.bounded ? "revolute" : "continuous";
    case JointKind::prismatic:
      return "prismatic";
    case JointKind::planar:
      return "planar";
    case JointKind::floating:
      return "floating";
    case JointKind::ball:
      return "ball";
  }
  return "";  // unreachable: every kind is named above
}

namespace {
// the quaternion stored at q[i..i+3] as x y z w
Eigen::Quaterniond quaternion_at(ConstVec q, int i) {
  // Eigen's constructor takes w first
  return Eigen::Quaterniond(q[i + 3], q[i], q[i + 1], q[i + 2]);
}
void store_quaternion(const Eigen::Quaterniond& r, VecRef q, int i) {
  q.segment<4>(i) = r.coeffs();  // coeffs() is x y z w
}
// rotation by angle t about unit axis n (Rodrigues)
Mat3 axis_rotation(const Vec3& n, double t) {
  const double s = std::sin(t), c = std::cos(t);
  Mat3 R = c * Mat3::Identity() + s * skew(n) + (1 - c) * n * n.transpose();
  return R;
}
// R <- R Rot(e_k, t) for t = sign q: only the columns a, b other than k turn,
// [r_a r_b] <- [c r_a + s r_b, c r_b - s r_a]
void turn_about(Mat3& R, const Joint& j, double q) {
  const double t = j.axis_sign * q;
  const double s = std::sin(t), c = std::cos(t);
  const int a = (j.axis_index + 1) % 3, b = (j.axis_index + 2) % 3;
  const Vec3 r_a = R.col(a);
  R.col(a) = c * r_a + s * R.col(b);
  R.col(b) = c * R.col(b) - s * r_a;
}
}  // namespace

SE3 joint_transform(const Joint& j, ConstVec q) {
  const int i = j.idx_q;
  switch (j.kind) {
    case JointKind::revolute:
      return {axis_rotation(j.axis, j.scale * q[i]), Vec3::Zero()};
    case JointKind::prismatic:
      return {Mat3::Identity(), j.axis * (j.scale * q[i])};
    case JointKind::planar:
      return {axis_rotation(j.axis, q[i + 2]), q[i] * j.e1 + q[i + 1] * j.e2};
    case JointKind::floating:
      return {quaternion_at(q, i + 3).normalized().toRotationMatrix(), q.segment<3>(i)};
    case JointKind::ball:
      return {quaternion_at(q, i).normalized().toRotationMatrix(), Vec3::Zero()};
  }
  return {};
}

SE3 joint_placement(const Joint& j, const SE3& placement, ConstVec q) {
  // one result object, so that it is built in place (the copy of a freshly written matrix stalls)
  const int i = j.idx_q;
  SE3 M = placement;
  switch (j.kind) {
    case JointKind::revolute:
      // rotation only: the origin stays at the placement's
      if (j.axis_index >= 0) {
        turn_about(M.R, j, j.scale * q[i]);
      } else {
        M.R = placement.R * axis_rotation(j.axis, j.scale * q[i]);
      }
      break;
    case JointKind::prismatic:
      // translation only: R is the placement's
      M.p += placement.R * (j.axis * (j.scale * q[i]));
      break;
    case JointKind::ball:
      // rotation only: the origin stays at the placement's
      M.R = placement.R * quaternion_at(q, i).normalized().toRotationMatrix();
      break;
    case JointKind::planar:
    case JointKind::floating:
      M = placement * joint_transform(j, q);
      break;
  }
  return M;
}

void joint_column(const Joint& j, int k, const SE3& aMc, Motion& out) {
  // the joint axis in a's axes: a column of R for a coordinate axis
  // (times the scale: the column is s, scale * the unit axis)
  auto axis_in = [&j](const Mat3& R) -> Vec3 {
    return j.axis_index >= 0 ? Vec3((j.scale * j.axis_sign) * R.col(j.axis_index))
                             : Vec3(R * (j.scale * j.axis));
  };
  switch (j.kind) {
    case JointKind::revolute:
      // rotation about the axis through the child origin: [p x a; a]
      out.ang = axis_in(aMc.R);
      out.lin = aMc.p.cross(out.ang);
      return;
    case JointKind::prismatic:
      out.lin = axis_in(aMc.R);
      out.ang.setZero();
      return;
    case JointKind::planar:
      out = aMc.act(Motion::from(j.S.col(k)));
      return;
    case JointKind::ball:
      // rotation about child axis k through the child origin: [p x e_k; e_k]
      out.ang = aMc.R.col(k);
      out.lin = aMc.p.cross(out.ang);
      return;
    case JointKind::floating: {
      // S = 1: translation along, then rotation about, the child axes
      const Vec3 e = aMc.R.col(k % 3);
      if (k < 3) {
        out.lin = e;
        out.ang.setZero();
      } else {
        out.lin = aMc.p.cross(e);
        out.ang = e;
      }
      return;
    }
  }
}

Vec6 joint_force(const Joint& j, const Force& f) {
  Vec6 t = Vec6::Zero();
  switch (j.kind) {
    case JointKind::revolute:
    case JointKind::prismatic:
      t[0] = f.dot(j.s);
      break;
    case JointKind::planar:
      t.head<3>() << j.e1.dot(f.lin), j.e2.dot(f.lin), j.axis.dot(f.ang);
      break;
    case JointKind::floating:  // S = 1
      t << f.lin, f.ang;
      break;
    case JointKind::ball:  // S = (0; 1): the moment
      t.head<3>() = f.ang;
      break;
  }
  return t;
}

void joint_integrate(const Joint& j, ConstVec q, ConstVec v, VecRef q_out) {
  const int iq = j.idx_q, iv = j.idx_v;
  switch (j.kind) {
    case JointKind::revolute:
    case JointKind::prismatic:
      q_out[iq] = q[iq] + v[iv];
      return;
    case JointKind::planar: {
      // constant child-frame twist (vx e1 + vy e2, w n): the SE(2) exponential
      const double x = v[iv], y = v[iv + 1], w = v[iv + 2], theta = q[iq + 2];
      double a = 1, b = 0;  // sin(w)/w, (1 - cos(w))/w
      if (std::abs(w) > detail::kSmallTurn) {
        a = std::sin(w) / w;
        b = (1 - std::cos(w)) / w;
      } else {
        b = w / 2;
      }
      const double dx = a * x - b * y, dy = b * x + a * y;  // displacement in the start frame
      const double c = std::cos(theta), s = std::sin(theta);
      q_out[iq] = q[iq] + c * dx - s * dy;
      q_out[iq + 1] = q[iq + 1] + s * dx + c * dy;
      q_out[iq + 2] = theta + w;
      return;
    }
    case JointKind::floating: {
      // q (+) v = q * exp6(v): body-frame twist, the right perturbation
      const SE3 M{quaternion_at(q, iq + 3).normalized().toRotationMatrix(), q.segment<3>(iq)};
      const SE3 Mv = M * exp6(Motion::from(v.segment<6>(iv)));
      q_out.segment<3>(iq) = Mv.p;
      Eigen::Quaterniond r(Mv.R);
      // keep the quaternion on the side of the input, so integrate is continuous in v
      if (r.coeffs().dot(quaternion_at(q, iq + 3).coeffs()) < 0) r.coeffs() *= -1;
      store_quaternion(r.normalized(), q_out, iq + 3);
      return;
    }
    case JointKind::ball: {
      // q (+) w = q * exp(w): child-frame angular velocity, the right perturbation on SO(3)
      const Eigen::Quaterniond q0 = quaternion_at(q, iq).normalized();
      Eigen::Quaterniond r(q0.toRotationMatrix() * exp3(v.segment<3>(iv)));
      // keep the quaternion on the side of the input, so integrate is continuous in v
      if (r.coeffs().dot(q0.coeffs()) < 0) r.coeffs() *= -1;
      store_quaternion(r.normalized(), q_out, iq);
      return;
    }
  }
}

void joint_difference(const Joint& j, ConstVec q0, ConstVec q1, VecRef v_out) {
  const int iq = j.idx_q, iv = j.idx_v;
  switch (j.kind) {
    case JointKind::revolute:
    case JointKind::prismatic:
      v_out[iv] = q1[iq] - q0[iq];
      return;
    case JointKind::planar: {
      const double w = q1[iq + 2] - q0[iq + 2];
      const double c = std::cos(q0[iq + 2]), s = std::sin(q0[iq + 2]);
      const double ex = q1[iq] - q0[iq], ey = q1[iq + 1] - q0[iq + 1];
      const double dx = c * ex + s * ey, dy = -s * ex + c * ey;  // in the q0 frame
      // invert the SE(2) exponential's [a -b; b a]
      double a = 1, b = 0;
      if (std::abs(w) > detail::kSmallTurn) {
        a = std::sin(w) / w;
        b = (1 - std::cos(w)) / w;
      } else {
        b = w / 2;
      }
      const double det = a * a + b * b;
      v_out[iv] = (a * dx + b * dy) / det;
      v_out[iv + 1] = (-b * dx + a * dy) / det;
      v_out[iv + 2] = w;
      return;
    }
    case JointKind::floating: {
      const SE3 M0{quaternion_at(q0, iq + 3).normalized().toRotationMatrix(), q0.segment<3>(iq)};
      const SE3 M1{quaternion_at(q1, iq + 3).normalized().toRotationMatrix(), q1.segment<3>(iq)};
      v_out.segment<6>(iv) = log6(M0.inverse() * M1).vector();
      return;
    }
    case JointKind::ball: {
      const Mat3 R0 = quaternion_at(q0, iq).normalized().toRotationMatrix();
      const Mat3 R1 = quaternion_at(q1, iq).normalized().toRotationMatrix();
      v_out.segment<3>(iv) = log3(R0.transpose() * R1);
      return;
    }
  }
}

void joint_neutral(const Joint& j, VecRef q_out) {
  q_out.segment(j.idx_q, j.nq).setZero();
  if (has_quaternion(j)) q_out[j.idx_q + quaternion_offset(j) + 3] = 1;  // w of the identity
}

bool joint_normalize(const Joint& j, VecRef q) {
  if (!has_quaternion(j)) return true;
  const int i = j.idx_q + quaternion_offset(j);
  const double n = q.segment<4>(i).norm();
  if (!(n > detail::kZeroQuaternion) || !std::isfinite(n)) return false;
  q.segment<4>(i) /= n;
  return true;
}

namespace {

template <size_t N>
std::vector<std::string> to_strings(const std::array<const char*, N>& components) {
  return {components.begin(), components.end()};
}

}  // namespace
bool coordinate_is_angle(const Joint& j, int k) {
  switch (j.kind) {
    case JointKind::revolute:
      return j.scale == 1;  // a scaled one turns a whole turn every 2 pi / scale
    case JointKind::planar:
      return k == 2;
    case JointKind::prismatic:
    case JointKind::floating:
    case JointKind::ball:
      return false;
  }
  return false;
}

double quaternion_deviation(const Joint& j, ConstVec q) {
  if (!has_quaternion(j)) return 0;
  return std::abs(q.segment<4>(j.idx_q + quaternion_offset(j)).norm() - 1);
}

std::vector<std::string> joint_suffixes(JointKind kind, Space space) {
  switch (kind) {
    case JointKind::revolute:
    case JointKind::prismatic:
      return {};
    case JointKind::planar:
      if (space == Space::q) return to_strings(kPlanarConfiguration);
      if (space == Space::v) return to_strings(kPlanarVelocity);
      return to_strings(kPlanarForce);
    case JointKind::floating:
      if (space == Space::q) return to_strings(kPoseComponents);
      if (space == Space::v) return to_strings(kTwistComponents);
      return to_strings(kWrenchComponents);
    case JointKind::ball:  // the rotational halves of the free-flyer's
      if (space == Space::q) return to_strings(kQuaternionComponents);
      if (space == Space::v) return {kTwistComponents.begin() + 3, kTwistComponents.end()};
      return {kWrenchComponents.begin() + 3, kWrenchComponents.end()};
  }
  return {};
}

}  // namespace eom
