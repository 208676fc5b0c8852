#include "eom/algorithm/kinematics.hpp"

#include <cmath>
#include <string>

#include "eom/core/errors.hpp"
#include "core/constants.hpp"
#include "core/sizes.hpp"
#include "core/tolerances.hpp"

namespace eom {

using detail::kPi;

void forward_kinematics(const Model& model, Data& data, ConstVec q) {
  detail::check_size(q.size(), model.nq, "q");
  data.oMi[0] = SE3::Identity();
  // oMi = oMparent * liMi, liMi = placement * joint transform
  for (int i = 1; i < model.njoints; ++i) place_joint(model, data, i, q);
}

void update_frame_placements(const Model& model, Data& data) {
  for (size_t k = 0; k < model.frames.size(); ++k) {
    const Frame& frame = model.frames[k];
    data.oMf[k] = data.oMi[frame.parent] * frame.placement;
  }
}

void frame_placements(const Model& model, Data& data, ConstVec q) {
  forward_kinematics(model, data, q);
  update_frame_placements(model, data);
}

namespace {

// The joints that support a frame into data.support, leaf first; returns how many.
int support_path(const Model& model, Data& data, int joint) {
  int n = 0;
  for (int i = joint; i > 0; i = model.parent[i]) data.support[n++] = i;
  return n;
}

// Whether a frame Jacobian in `reference` is taken with the floating base's position left out of
// the placements of the support path (BaseCentring). Quantities at the frame origin
// (local-world-aligned, local) do not depend on where the base is; computed from world
// coordinates, a column about the frame would come out as the difference of two terms of the
// size of the base's distance from the world origin, losing digits as the robot walks away (1e-11
// relative at 1 km, 1e-7 at 10,000 km). Without the base's position the placements carry only the
// robot's own dimensions, and the columns are the same bits wherever the base stands. Columns at
// the world origin (reference world) depend on the base position by definition: computed as given.
bool centred_on_base(const Model& model, ReferenceFrame reference, const Data& data, int n) {
  return model.floating_base && reference != ReferenceFrame::world && n > 0 &&
         data.support[n - 1] == 1;  // the free-flyer is joint 1, first on every support path
}

// The placement of the free-flyer (joint 1) with its translation set aside while the rest of the
// path is placed, and put back into every placement of the path afterwards, so that data.oMi and
// data.oMf hold world placements as for any other call.
class BaseCentring {
 public:
  BaseCentring(Data& data, bool active) : data_(data), active_(active) {}
  // after joint 1 is placed: its translation set aside
  void set_aside() {
    if (!active_) return;
    base_ = data_.oMi[1].p;
    data_.oMi[1].p.setZero();
  }
  // the path's placements and the frame's back in world coordinates
  void put_back(int n, int frame) {
    if (!active_) return;
    for (int k = 0; k < n; ++k) data_.oMi[data_.support[k]].p += base_;
    data_.oMf[frame].p += base_;
  }

 private:
  Data& data_;
  bool active_;
  Vec3 base_ = Vec3::Zero();
};

const Frame& frame_at(const Model& model, int frame) {
  if (frame < 0 || frame >= static_cast<int>(model.frames.size())) {
    throw InputError("frame index " + std::to_string(frame) + " is out of range (the model has " +
                     std::to_string(model.frames.size()) + " frames)");
  }
  return model.frames[frame];
}

// The six columns of a free-flyer placed at oMb (S = 1, so they are the action of oMb,
// [R, [p]x R; 0, R]) in `reference` for the frame at oMf: all at once rather than through six
// calls of joint_column, with the same operations column by column, so the same values. The
// translation columns are R's, which no shift to the frame origin changes (adding the zero
// moment of their zero angular part could only turn a -0 into +0).
void free_flyer_columns(const SE3& oMb, const SE3& oMf, ReferenceFrame reference,
                        Eigen::Block<Eigen::Matrix<double, 6, Eigen::Dynamic>, 6, 6, true> J) {
  const Mat3& R = oMb.R;
  J.topLeftCorner<3, 3>() = R;
  J.bottomRightCorner<3, 3>() = R;
  for (int k = 0; k < 3; ++k) J.block<3, 1>(0, 3 + k) = oMb.p.cross(R.col(k));
  if (reference == ReferenceFrame::world) return;
  // velocity of the frame origin: v_O + w x p
  for (int k = 0; k < 3; ++k) J.block<3, 1>(0, 3 + k) += R.col(k).cross(oMf.p);
  if (reference == ReferenceFrame::local) {
    for (int k = 0; k < 6; ++k) {
      const Vec3 lin = J.block<3, 1>(0, k), ang = J.block<3, 1>(3, k);
      J.block<3, 1>(0, k) = oMf.R.transpose() * lin;
      J.block<3, 1>(3, k) = oMf.R.transpose() * ang;
    }
  }
}

}  // namespace

const Eigen::Matrix<double, 6, Eigen::Dynamic>& frame_jacobian(const Model& model, Data& data,
                                                               ConstVec q, int frame,
                                                               ReferenceFrame reference) {
  detail::check_size(q.size(), model.nq, "q");
  // only the joints that support the frame move it: place those, not the whole tree
  const int n = support_path(model, data, frame_at(model, frame).parent);
  BaseCentring centring(data, centred_on_base(model, reference, data, n));
  data.oMi[0] = SE3::Identity();
  for (int k = n - 1; k >= 0; --k) {
    place_joint(model, data, data.support[k], q);
    if (k == n - 1) centring.set_aside();
  }
  frame_jacobian(model, data, frame, reference);
  centring.put_back(n, frame);
  return data.J;
}

const Eigen::Matrix<double, 6, Eigen::Dynamic>& frame_jacobian_time_variation(
    const Model& model, Data& data, ConstVec q, ConstVec v, int frame, ReferenceFrame reference) {
  detail::check_size(q.size(), model.nq, "q");
  detail::check_size(v.size(), model.nv, "v");
  const int n = support_path(model, data, frame_at(model, frame).parent);
  BaseCentring centring(data, centred_on_base(model, reference, data, n));
  data.oMi[0] = SE3::Identity();
  for (int k = n - 1; k >= 0; --k) {
    place_joint(model, data, data.support[k], q);
    if (k == n - 1) centring.set_aside();
  }
  frame_jacobian_time_variation(model, data, v, frame, reference);
  centring.put_back(n, frame);
  return data.dJ;
}

const Eigen::Matrix<double, 6, Eigen::Dynamic>& frame_jacobian_time_variation(
    const Model& model, Data& data, ConstVec v, int frame, ReferenceFrame reference) {
  detail::check_size(v.size(), model.nv, "v");
  const Frame& f = frame_at(model, frame);
  const int n = support_path(model, data, f.parent);
  data.ov[0] = Motion::Zero();
  data.J.setZero();
  data.dJ.setZero();
  // forward along the path: world columns S_i and body velocities v_i = v_p + S_i qd_i
  for (int k = n - 1; k >= 0; --k) {
    const int i = data.support[k];
    const Joint& j = model.joints[i];
    Motion vi = data.ov[model.parent[i]];
    for (int c = 0; c < j.nv; ++c) {
      Motion column;
      joint_column(j, c, data.oMi[i], column);
      vi += column * v[j.idx_v + c];
      data.J.col(j.idx_v + c) = column.vector();
    }
    data.ov[i] = vi;
  }
  const SE3 oMf = data.oMi[f.parent] * f.placement;
  data.oMf[frame] = oMf;
  // the frame moves with its body: angular velocity w, origin velocity p_dot
  const Motion& vf = data.ov[f.parent];
  const Vec3 w = vf.ang;
  const Vec3 p_dot = vf.lin + w.cross(oMf.p);
  for (int k = 0; k < n; ++k) {
    const int i = data.support[k];
    const Joint& j = model.joints[i];
    for (int c = 0; c < j.nv; ++c) {
      const int col = j.idx_v + c;
      Motion S = Motion::from(data.J.col(col));
      // world: d/dt S_i = v_i x S_i
      Motion dS = cross(data.ov[i], S);
      if (reference != ReferenceFrame::world) {
        // shift to the frame origin: lin + ang x p, whose rate adds dang x p + ang x p_dot
        dS.lin += dS.ang.cross(oMf.p) + S.ang.cross(p_dot);
        S.lin += S.ang.cross(oMf.p);
        if (reference == ReferenceFrame::local) {
          // R^T x has rate R^T (x_dot - w x x)
          dS = {oMf.R.transpose() * (dS.lin - w.cross(S.lin)),
                oMf.R.transpose() * (dS.ang - w.cross(S.ang))};
          S = {oMf.R.transpose() * S.lin, oMf.R.transpose() * S.ang};
        }
      }
      data.J.col(col) = S.vector();
      data.dJ.col(col) = dS.vector();
    }
  }
  return data.dJ;
}

Vec6 frame_velocity_product(const Model& model, Data& data, ConstVec v, int frame) {
  detail::check_size(v.size(), model.nv, "v");
  const Frame& f = frame_at(model, frame);
  const int n = support_path(model, data, f.parent);
  data.ov[0] = Motion::Zero();
  Motion acceleration = Motion::Zero();
  for (int k = n - 1; k >= 0; --k) {
    const int i = data.support[k];
    const Joint& j = model.joints[i];
    const Motion& parent = data.ov[model.parent[i]];
    Motion vi = parent;
    for (int c = 0; c < j.nv; ++c) {
      Motion column;
      joint_column(j, c, data.oMi[i], column);
      vi += column * v[j.idx_v + c];
    }
    data.ov[i] = vi;
    acceleration += cross(parent, vi);
  }
  const SE3 oMf = data.oMi[f.parent] * f.placement;
  data.oMf[frame] = oMf;
  const Motion& vf = data.ov[f.parent];
  const Vec3 p_dot = vf.lin + vf.ang.cross(oMf.p);
  Vec6 out;
  out << acceleration.lin + acceleration.ang.cross(oMf.p) + vf.ang.cross(p_dot), acceleration.ang;
  return out;
}

Vec6 frame_classical_acceleration(const Model& model, Data& data, ConstVec q, ConstVec v,
                                  ConstVec a, int frame) {
  detail::check_size(a.size(), model.nv, "a");
  frame_jacobian_time_variation(model, data, q, v, frame, ReferenceFrame::local_world_aligned);
  Vec6 out;
  out.noalias() = data.J * a;
  out.noalias() += data.dJ * v;
  return out;
}

int orientation_parameter_count(OrientationParametrization parametrization) {
  return parametrization == OrientationParametrization::quaternion ? 4 : 3;
}

Eigen::Vector4d orientation_parameters(OrientationParametrization parametrization, const Mat3& R) {
  Eigen::Vector4d chi = Eigen::Vector4d::Zero();
  switch (parametrization) {
    case OrientationParametrization::euler_zyx:
      // lecture notes (2.42)
      chi.head<3>() << std::atan2(R(1, 0), R(0, 0)),
          std::atan2(-R(2, 0), std::hypot(R(2, 1), R(2, 2))), std::atan2(R(2, 1), R(2, 2));
      break;
    case OrientationParametrization::euler_xyz:
      // lecture notes (2.45)
      chi.head<3>() << std::atan2(-R(1, 2), R(2, 2)),
          std::atan2(R(0, 2), std::hypot(R(0, 0), R(0, 1))), std::atan2(-R(0, 1), R(0, 0));
      break;
    case OrientationParametrization::quaternion: {
      Eigen::Quaterniond r(R);
      r.normalize();
      if (r.w() < 0) r.coeffs() *= -1;
      chi = r.coeffs();  // x y z w
      break;
    }
    case OrientationParametrization::rotation_vector:
      chi.head<3>() = log3(R);
      break;
  }
  return chi;
}

Eigen::Matrix<double, 4, 3> orientation_rate_map(OrientationParametrization parametrization,
                                                 const Mat3& R) {
  Eigen::Matrix<double, 4, 3> map = Eigen::Matrix<double, 4, 3>::Zero();
  const Eigen::Vector4d chi = orientation_parameters(parametrization, R);
  switch (parametrization) {
    case OrientationParametrization::euler_zyx: {
      // omega = E chi_dot with E = [e_z, Rz(z) e_y, Rz(z) Ry(y) e_x] (lecture notes 2.5.1)
      const double cz = std::cos(chi[0]), sz = std::sin(chi[0]);
      const double cy = std::cos(chi[1]), sy = std::sin(chi[1]);
      if (std::abs(cy) < detail::kEulerSingular) {
        throw NumericalError("Euler ZYX angles are singular at pitch +-90 degrees");
      }
      Mat3 E;
      E << 0, -sz, cy * cz, 0, cz, cy * sz, 1, 0, -sy;
      map.topRows<3>() = E.inverse();
      break;
    }
    case OrientationParametrization::euler_xyz: {
      // E = [e_x, Rx(x) e_y, Rx(x) Ry(y) e_z]
      const double cx = std::cos(chi[0]), sx = std::sin(chi[0]);
      const double cy = std::cos(chi[1]), sy = std::sin(chi[1]);
      if (std::abs(cy) < detail::kEulerSingular) {
        throw NumericalError("Euler XYZ angles are singular at y = +-90 degrees");
      }
      Mat3 E;
      E << 1, 0, sy, 0, cx, -cy * sx, 0, sx, cx * cy;
      map.topRows<3>() = E.inverse();
      break;
    }
    case OrientationParametrization::quaternion: {
      // xi_dot = 1/2 (0, omega) (x) xi for world omega: qv_dot = 1/2 (qw 1 - [qv]x) omega,
      // qw_dot = -1/2 qv . omega (lecture notes 2.57)
      const Vec3 qv = chi.head<3>();
      map.topRows<3>() = 0.5 * (chi[3] * Mat3::Identity() - skew(qv));
      map.row(3) = -0.5 * qv.transpose();
      break;
    }
    case OrientationParametrization::rotation_vector: {
      // omega = J_l(phi) phi_dot (left Jacobian of SO(3)); its inverse in closed form
      const Vec3 phi = chi.head<3>();
      const double theta = phi.norm();
      if (theta > kPi - detail::kRotationVectorSingular) {
        throw NumericalError("the rotation vector is singular at a rotation of 180 degrees");
      }
      // 1/theta^2 - (1 + cos) / (2 theta sin), which tends to 1/12 at theta = 0
      const double c =
          theta < detail::kSeriesAngle
              ? 1.0 / 12 + theta * theta / 720
              : 1 / (theta * theta) - (1 + std::cos(theta)) / (2 * theta * std::sin(theta));
      const Mat3 P = skew(phi);
      map.topRows<3>() = Mat3::Identity() - 0.5 * P + c * P * P;
      break;
    }
  }
  return map;
}

void analytical_jacobian(const Model& model, Data& data, ConstVec q, int frame,
                         OrientationParametrization parametrization,
                         Eigen::Ref<Eigen::MatrixXd> out) {
  const int count = orientation_parameter_count(parametrization);
  detail::check_size(out.rows(), 3 + count, "the analytical Jacobian's rows");
  detail::check_size(out.cols(), model.nv, "the analytical Jacobian's columns");
  frame_jacobian(model, data, q, frame, ReferenceFrame::local_world_aligned);
  const Eigen::Matrix<double, 4, 3> map = orientation_rate_map(parametrization, data.oMf[frame].R);
  out.topRows<3>() = data.J.topRows<3>();
  out.bottomRows(count).noalias() = map.topRows(count) * data.J.bottomRows<3>();
}

const Eigen::Matrix<double, 6, Eigen::Dynamic>& frame_jacobian(const Model& model, Data& data,
                                                               int frame,
                                                               ReferenceFrame reference) {
  const Frame& f = model.frames.at(frame);
  const SE3 oMf = data.oMi[f.parent] * f.placement;
  data.oMf[frame] = oMf;
  data.J.setZero();
  // columns of the joints that support the frame: S in world axes at the world origin
  for (int i = f.parent; i > 0; i = model.parent[i]) {
    const Joint& j = model.joints[i];
    if (is_floating(j)) {
      free_flyer_columns(data.oMi[i], oMf, reference, data.J.middleCols<6>(j.idx_v));
      continue;
    }
    for (int k = 0; k < j.nv; ++k) {
      Motion column;
      joint_column(j, k, data.oMi[i], column);
      if (reference != ReferenceFrame::world) {
        // velocity of the frame origin: v_O + w x p
        column.lin += column.ang.cross(oMf.p);
        if (reference == ReferenceFrame::local) {
          column = {oMf.R.transpose() * column.lin, oMf.R.transpose() * column.ang};
        }
      }
      data.J.col(j.idx_v + k) = column.vector();
    }
  }
  return data.J;
}

}  // namespace eom
