#include "eom/multibody/spatial.hpp"

#include <cmath>

#include "core/tolerances.hpp"

namespace eom {

PoseVector pose_vector(const SE3& M) {
  Eigen::Quaterniond r(M.R);
  if (r.w() < 0) r.coeffs() *= -1;
  PoseVector out;
  out << M.p, r.coeffs();  // coeffs() is x y z w
  return out;
}

SE3 from_pose_vector(const PoseVector& pose) {
  // Eigen's constructor takes w first
  const Eigen::Quaterniond r(pose[6], pose[3], pose[4], pose[5]);
  return {r.normalized().toRotationMatrix(), pose.head<3>()};
}

Mat3 rpy_to_matrix(const Vec3& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Vec3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vec3::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Vec3::UnitX()))
      .toRotationMatrix();
}

Vec3 matrix_to_rpy(const Mat3& R) {
  // R = Rz(y) Ry(p) Rx(r): first column (cy cp, sy cp, -sp), last row (-sp, cp sr, cp cr)
  const double cp = std::hypot(R(0, 0), R(1, 0));
  const double pitch = std::atan2(-R(2, 0), cp);
  if (cp == 0) return {std::atan2(-R(1, 2), R(1, 1)), pitch, 0.0};  // gimbal lock: yaw 0
  const double yaw = std::atan2(R(1, 0), R(0, 0));
  if (cp > 0.5) return {std::atan2(R(2, 1), R(2, 2)), pitch, yaw};
  // Near gimbal lock cp sr and cp cr are tiny and their rounding would misplace roll against
  // yaw, which only the large entries fix: [R01; R11] = [sp cy, -sy; sp sy, cy] [sr; cr], whose
  // inverse gives roll consistent with the yaw just taken (sp ~ +-1 here, far from 0)
  const double sp = -R(2, 0), cy = std::cos(yaw), sy = std::sin(yaw);
  return {std::atan2((cy * R(0, 1) + sy * R(1, 1)) / sp, cy * R(1, 1) - sy * R(0, 1)), pitch, yaw};
}

Inertia Inertia::operator+(const Inertia& o) const {
  const double mass = m + o.m;
  // massless sum: no centre of mass; keep the rotational parts, which are then about any point
  if (mass == 0) return {0.0, Vec3::Zero(), I_c + o.I_c};
  const Vec3 com = (m * c + o.m * o.c) / mass;
  // parallel-axis theorem: I_com = sum I_c,k + m_k ([d_k]x^T [d_k]x), d_k = c_k - com
  auto shift = [](double mk, const Vec3& d) {
    return mk * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  };
  return {mass, com, I_c + o.I_c + shift(m, c - com) + shift(o.m, o.c - com)};
}

Mat6 Inertia::matrix() const {
  // [m I, -m [c]x; m [c]x, I_c - m [c]x [c]x] in linear-first coordinates
  const Mat3 C = skew(c);
  Mat6 out;
  out << m * Mat3::Identity(), -m * C, m * C, I_c - m * C * C;
  return out;
}

Mat3 exp3(const Vec3& w) {
  const double theta2 = w.squaredNorm();
  const double theta = std::sqrt(theta2);
  const Mat3 W = skew(w);
  // Rodrigues: R = I + sin(t)/t W + (1 - cos(t))/t^2 W^2, Taylor series near t = 0
  double a, b;
  if (theta < detail::kSeriesAngle) {
    a = 1 - theta2 / 6;
    b = 0.5 - theta2 / 24;
  } else {
    a = std::sin(theta) / theta;
    b = (1 - std::cos(theta)) / theta2;
  }
  return Mat3::Identity() + a * W + b * W * W;
}

Vec3 log3(const Mat3& R) {
  const Eigen::AngleAxisd aa(R);
  return aa.angle() * aa.axis();
}

namespace {
// V(w) with exp6([v; w]).p = V v:  V = I + (1 - cos t)/t^2 W + (t - sin t)/t^3 W^2
Mat3 left_jacobian3(const Vec3& w) {
  const double theta2 = w.squaredNorm();
  const double theta = std::sqrt(theta2);
  const Mat3 W = skew(w);
  double b, c;
  if (theta < detail::kSeriesAngle) {
    b = 0.5 - theta2 / 24;
    c = 1.0 / 6 - theta2 / 120;
  } else {
    b = (1 - std::cos(theta)) / theta2;
    c = (theta - std::sin(theta)) / (theta2 * theta);
  }
  return Mat3::Identity() + b * W + c * W * W;
}
}  // namespace

SE3 exp6(const Motion& xi) { return {exp3(xi.ang), left_jacobian3(xi.ang) * xi.lin}; }

Motion log6(const SE3& M) {
  const Vec3 w = log3(M.R);
  return {left_jacobian3(w).inverse() * M.p, w};
}

}  // namespace eom
