// Spatial algebra on fixed-size Eigen types.
//
// Ordering contract: every 6-vector is LINEAR FIRST. A motion (twist) is [v; ω], a force (wrench)
// is [f; n], matching Pinocchio and eom's tables. Featherstone's book (Rigid Body Dynamics
// Algorithms, 2008) writes angular first; the cross-product formulas below are his crm/crf with
// the blocks reordered.
#pragma once

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace eom {

using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;

/// Skew-symmetric matrix [w]x with [w]x u = w x u.
inline Mat3 skew(const Vec3& w) {
  Mat3 s;
  s << 0, -w.z(), w.y(), w.z(), 0, -w.x(), -w.y(), w.x(), 0;
  return s;
}

/// Spatial motion vector (twist or spatial acceleration) [v; ω], linear first.
struct Motion {
  Vec3 lin = Vec3::Zero();
  Vec3 ang = Vec3::Zero();

  static Motion Zero() { return {}; }
  Vec6 vector() const { return (Vec6() << lin, ang).finished(); }
  static Motion from(const Vec6& x) { return {x.head<3>(), x.tail<3>()}; }
  Motion operator+(const Motion& o) const { return {lin + o.lin, ang + o.ang}; }
  Motion operator-(const Motion& o) const { return {lin - o.lin, ang - o.ang}; }
  Motion operator-() const { return {-lin, -ang}; }
  Motion operator*(double s) const { return {lin * s, ang * s}; }
  Motion& operator+=(const Motion& o) {
    lin += o.lin;
    ang += o.ang;
    return *this;
  }
  Motion& operator-=(const Motion& o) {
    lin -= o.lin;
    ang -= o.ang;
    return *this;
  }
};

/// Spatial force vector (wrench) [f; n], linear first.
struct Force {
  Vec3 lin = Vec3::Zero();
  Vec3 ang = Vec3::Zero();

  static Force Zero() { return {}; }
  Vec6 vector() const { return (Vec6() << lin, ang).finished(); }
  static Force from(const Vec6& x) { return {x.head<3>(), x.tail<3>()}; }
  Force operator+(const Force& o) const { return {lin + o.lin, ang + o.ang}; }
  Force operator-(const Force& o) const { return {lin - o.lin, ang - o.ang}; }
  Force operator-() const { return {-lin, -ang}; }
  Force operator*(double s) const { return {lin * s, ang * s}; }
  Force& operator+=(const Force& o) {
    lin += o.lin;
    ang += o.ang;
    return *this;
  }
  Force& operator-=(const Force& o) {
    lin -= o.lin;
    ang -= o.ang;
    return *this;
  }
  /// Power of this force on a motion: f . v + n . ω.
  double dot(const Motion& m) const { return lin.dot(m.lin) + ang.dot(m.ang); }
};

/// Rigid transform aMb: the placement of frame b in frame a. R maps b coordinates to a
/// coordinates and p is the origin of b expressed in a.
struct SE3 {
  Mat3 R = Mat3::Identity();
  Vec3 p = Vec3::Zero();

  static SE3 Identity() { return {}; }
  /// aMc = aMb * bMc.
  SE3 operator*(const SE3& bMc) const { return {R * bMc.R, R * bMc.p + p}; }
  SE3 inverse() const { return {R.transpose(), -(R.transpose() * p)}; }
  /// Point given in b, expressed in a.
  Vec3 act(const Vec3& x_b) const { return R * x_b + p; }

  /// Motion given in b, expressed in a: ω_a = R ω_b, v_a = R v_b + p x ω_a.
  Motion act(const Motion& m) const {
    const Vec3 ang = R * m.ang;
    return {R * m.lin + p.cross(ang), ang};
  }
  /// Motion given in a, expressed in b (the Xup of Featherstone when aMb = liMi).
  Motion act_inv(const Motion& m) const {
    return {R.transpose() * (m.lin - p.cross(m.ang)), R.transpose() * m.ang};
  }
  /// Force given in b, expressed in a: f_a = R f_b, n_a = R n_b + p x f_a.
  Force act(const Force& f) const {
    const Vec3 lin = R * f.lin;
    return {lin, R * f.ang + p.cross(lin)};
  }
  /// Force given in a, expressed in b.
  Force act_inv(const Force& f) const {
    return {R.transpose() * f.lin, R.transpose() * (f.ang - p.cross(f.lin))};
  }
  /// 6x6 motion transform matrix X with X [v_b; ω_b] = [v_a; ω_a].
  Mat6 action() const {
    Mat6 X;
    X << R, skew(p) * R, Mat3::Zero(), R;
    return X;
  }
};

/// A placement as the 7 numbers tables use: x y z qx qy qz qw (unit quaternion, qw >= 0 so each
/// rotation has one spelling).
using PoseVector = Eigen::Matrix<double, 7, 1>;
PoseVector pose_vector(const SE3& M);
/// The placement of a pose vector; the quaternion is normalised.
SE3 from_pose_vector(const PoseVector& pose);

/// Rotation from roll, pitch, yaw as URDF defines them: R = Rz(yaw) Ry(pitch) Rx(roll).
Mat3 rpy_to_matrix(const Vec3& rpy);
/// Inverse of rpy_to_matrix, with pitch in [-pi/2, pi/2].
Vec3 matrix_to_rpy(const Mat3& R);

/// Spatial inertia by its moments about the frame origin: mass m, first moment h = m c and
/// rotational inertia I_o = I_c + m [c]x^T [c]x. Bodies expressed in one frame add entry by entry
/// (no centre of mass to recompute), which suits composite inertias (CRBA).
struct InertiaMoments {
  double m = 0;
  Vec3 h = Vec3::Zero();
  Mat3 I_o = Mat3::Zero();

  /// Momentum of the body moving with twist [v; ω]: [m v - h x ω; I_o ω + h x v].
  Force operator*(const Motion& x) const {
    return {m * x.lin - h.cross(x.ang), I_o * x.ang + h.cross(x.lin)};
  }
  InertiaMoments& operator+=(const InertiaMoments& o) {
    m += o.m;
    h += o.h;
    // by columns, as products read them (a mismatched re-read of fresh stores stalls)
    for (int c = 0; c < 3; ++c) I_o.col(c) += o.I_o.col(c);
    return *this;
  }
};

/// Spatial inertia of a rigid body about its frame origin: mass m, centre of mass c (in the body
/// frame) and rotational inertia I_c about the centre of mass, in body axes.
struct Inertia {
  double m = 0;
  Vec3 c = Vec3::Zero();
  Mat3 I_c = Mat3::Zero();

  static Inertia Zero() { return {}; }
  /// Momentum of the body moving with twist [v; ω]: h = m (v + ω x c), k = I_c ω + c x h.
  Force operator*(const Motion& m_) const {
    const Vec3 h = m * (m_.lin + m_.ang.cross(c));
    return {h, I_c * m_.ang + c.cross(h)};
  }
  /// Sum of two bodies' inertias expressed in the same frame (parallel-axis theorem).
  Inertia operator+(const Inertia& o) const;
  Inertia& operator+=(const Inertia& o) { return *this = *this + o; }
  /// This inertia, given in frame b, expressed in frame a (aMb.act).
  Inertia transformed(const SE3& aMb) const {
    return {m, aMb.act(c), aMb.R * I_c * aMb.R.transpose()};
  }
  /// Rotational inertia about the frame origin: I_c + m [c]x^T [c]x.
  Mat3 about_origin() const {
    return I_c + m * (c.squaredNorm() * Mat3::Identity() - c * c.transpose());
  }
  /// This inertia, given in frame b, as moments about the origin of frame a in a's axes, into
  /// out (an output argument: copying a returned value that was just written stalls the store
  /// forwarding).
  void moments(const SE3& aMb, InertiaMoments& out) const {
    // c_a = R c + p, h = m c_a, I_o = R I_c R^T + (h . c_a) 1 - h c_a^T
    const Vec3 c_a = aMb.act(c);
    out.m = m;
    out.h = m * c_a;
    out.I_o.noalias() = aMb.R * I_c * aMb.R.transpose();
    out.I_o.noalias() -= out.h * c_a.transpose();
    out.I_o.diagonal().array() += out.h.dot(c_a);
  }
  /// 6x6 matrix of the inertia in linear-first coordinates.
  Mat6 matrix() const;
};

/// v x m: the spatial cross product of two motions (Featherstone's crm, linear first).
inline Motion cross(const Motion& v, const Motion& m) {
  return {v.ang.cross(m.lin) + v.lin.cross(m.ang), v.ang.cross(m.ang)};
}

/// v x* f: the spatial cross product of a motion with a force (Featherstone's crf, linear first).
inline Force cross_force(const Motion& v, const Force& f) {
  return {v.ang.cross(f.lin), v.ang.cross(f.ang) + v.lin.cross(f.lin)};
}

/// Exponential of a rotation vector: rotation by |w| about w/|w| (Rodrigues).
Mat3 exp3(const Vec3& w);
/// Logarithm of a rotation matrix: the rotation vector w with exp3(w) = R, |w| in [0, pi].
Vec3 log3(const Mat3& R);
/// Exponential map of se(3): the placement reached after unit time at constant body twist xi.
SE3 exp6(const Motion& xi);
/// Logarithm of SE(3): the body twist xi with exp6(xi) = M.
Motion log6(const SE3& M);

}  // namespace eom
