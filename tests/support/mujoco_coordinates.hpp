// eom's coordinates and MuJoCo's for one robot loaded in both (an MJCF file, or a URDF MuJoCo
// imports): shared by the MuJoCo comparison tests (tests/mujoco) and bench/bench_engines.cpp.
//
// Joints are matched by name, an unnamed MuJoCo joint by its place in MuJoCo's joint order (eom's
// MJCF loader keeps that order). A 1-DoF joint's coordinate is the same number in both. A free
// joint differs: MuJoCo's qpos is (x, y, z, qw, qx, qy, qz) and its qvel (world-frame linear
// velocity of the body origin, body-frame angular velocity); eom's q is (x, y, z, qx, qy, qz, qw)
// and its v the body-frame twist (linear, angular). With R the body's rotation and T =
// diag(R, 1) on a free joint's block (1 elsewhere): qvel = T v, and since the power tau . v is the
// same number, qfrc = T tau (T is orthogonal), M_eom = T^T M_mujoco T, and
// qacc = T a + (R (w x v_lin), 0): MuJoCo's linear acceleration is the derivative of the world
// velocity R v_lin. A ball joint's qpos is (qw, qx, qy, qz), eom's q (qx, qy, qz, qw); both
// take its v as the body-frame angular velocity, so v, a and tau are the same numbers.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <mujoco/mujoco.h>

#include <eom/multibody/model.hpp>

namespace eom::test {

/// The coordinates of one robot in eom and in MuJoCo, and the conversions between them.
class MujocoCoordinates {
 public:
  MujocoCoordinates(const Model& model, const mjModel* m) {
    if (m->nv != model.nv || m->nq != model.nq) {
      throw std::runtime_error("MuJoCo has nq " + std::to_string(m->nq) + " nv " +
                               std::to_string(m->nv) + ", eom nq " + std::to_string(model.nq) +
                               " nv " + std::to_string(model.nv));
    }
    for (int i = 1; i < model.njoints; ++i) {
      int id = mj_name2id(m, mjOBJ_JOINT, model.joint_names[i].c_str());
      if (id < 0 && i - 1 < m->njnt && m->name_jntadr[i - 1] >= 0 &&
          m->names[m->name_jntadr[i - 1]] == '\0') {
        id = i - 1;  // unnamed in MuJoCo: by order
      }
      if (id < 0) throw std::runtime_error("MuJoCo has no joint " + model.joint_names[i]);
      const Joint& j = model.joints[i];
      const bool free = m->jnt_type[id] == mjJNT_FREE, ball = m->jnt_type[id] == mjJNT_BALL;
      if (j.nv != (free ? 6 : ball ? 3 : 1) || j.nq != (free ? 7 : ball ? 4 : 1)) {
        throw std::runtime_error("joint " + model.joint_names[i] + ": not the same kind");
      }
      blocks_.push_back(
          {j.idx_q, j.idx_v, j.nv, m->jnt_qposadr[id], m->jnt_dofadr[id], free, ball});
    }
  }

  /// qpos and qvel of (q, v).
  void state_to_mujoco(const Eigen::VectorXd& q, const Eigen::VectorXd& v, mjtNum* qpos,
                       mjtNum* qvel) const {
    for (const Block& b : blocks_) {
      if (b.ball) {
        qpos[b.qpos] = q[b.q + 3];  // w first
        for (int k = 0; k < 3; ++k) qpos[b.qpos + 1 + k] = q[b.q + k];
      }
      if (!b.free) {
        if (!b.ball) qpos[b.qpos] = q[b.q];
        for (int k = 0; k < b.nv; ++k) qvel[b.dof + k] = v[b.v + k];
        continue;
      }
      for (int k = 0; k < 3; ++k) qpos[b.qpos + k] = q[b.q + k];
      qpos[b.qpos + 3] = q[b.q + 6];  // w first
      for (int k = 0; k < 3; ++k) qpos[b.qpos + 4 + k] = q[b.q + 3 + k];
      const Mat3 R = rotation(q, b);
      Eigen::Map<Vec3>(qvel + b.dof) = R * v.segment<3>(b.v);
      Eigen::Map<Vec3>(qvel + b.dof + 3) = v.segment<3>(b.v + 3);
    }
  }

  /// qacc of the acceleration a at (q, v).
  void acceleration_to_mujoco(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                              const Eigen::VectorXd& a, mjtNum* qacc) const {
    for (const Block& b : blocks_) {
      if (!b.free) {
        for (int k = 0; k < b.nv; ++k) qacc[b.dof + k] = a[b.v + k];
        continue;
      }
      const Mat3 R = rotation(q, b);
      const Vec3 w = v.segment<3>(b.v + 3);
      Eigen::Map<Vec3>(qacc + b.dof) = R * (a.segment<3>(b.v) + w.cross(v.segment<3>(b.v)));
      Eigen::Map<Vec3>(qacc + b.dof + 3) = a.segment<3>(b.v + 3);
    }
  }

  /// The acceleration a of MuJoCo's qacc at (q, v).
  void acceleration_from_mujoco(const Eigen::VectorXd& q, const Eigen::VectorXd& v,
                                const mjtNum* qacc, Eigen::VectorXd& a) const {
    for (const Block& b : blocks_) {
      if (!b.free) {
        for (int k = 0; k < b.nv; ++k) a[b.v + k] = qacc[b.dof + k];
        continue;
      }
      const Mat3 R = rotation(q, b);
      const Vec3 w = v.segment<3>(b.v + 3);
      a.segment<3>(b.v) =
          R.transpose() * Eigen::Map<const Vec3>(qacc + b.dof) - w.cross(v.segment<3>(b.v));
      a.segment<3>(b.v + 3) = Eigen::Map<const Vec3>(qacc + b.dof + 3);
    }
  }

  /// MuJoCo's generalized force qfrc of eom's tau at q.
  void force_to_mujoco(const Eigen::VectorXd& q, const Eigen::VectorXd& tau, mjtNum* qfrc) const {
    for (const Block& b : blocks_) {
      if (!b.free) {
        for (int k = 0; k < b.nv; ++k) qfrc[b.dof + k] = tau[b.v + k];
        continue;
      }
      Eigen::Map<Vec3>(qfrc + b.dof) = rotation(q, b) * tau.segment<3>(b.v);
      Eigen::Map<Vec3>(qfrc + b.dof + 3) = tau.segment<3>(b.v + 3);
    }
  }

  /// eom's tau of MuJoCo's qfrc at q.
  void force_from_mujoco(const Eigen::VectorXd& q, const mjtNum* qfrc, Eigen::VectorXd& tau) const {
    for (const Block& b : blocks_) {
      if (!b.free) {
        for (int k = 0; k < b.nv; ++k) tau[b.v + k] = qfrc[b.dof + k];
        continue;
      }
      tau.segment<3>(b.v) = rotation(q, b).transpose() * Eigen::Map<const Vec3>(qfrc + b.dof);
      tau.segment<3>(b.v + 3) = Eigen::Map<const Vec3>(qfrc + b.dof + 3);
    }
  }

  /// eom's Jacobian (rows x nv) of a MuJoCo one with its columns in qvel's space (row-major, as
  /// mj_jac writes it) at q: J T.
  void jacobian_from_mujoco(const Eigen::VectorXd& q, const mjtNum* jac, int rows,
                            Eigen::Ref<Eigen::MatrixXd> J) const {
    const int nv = static_cast<int>(J.cols());
    for (const Block& b : blocks_) {
      for (int r = 0; r < rows; ++r) {
        for (int k = 0; k < b.nv; ++k) J(r, b.v + k) = jac[r * nv + b.dof + k];
      }
      if (b.free) J.middleCols<3>(b.v) = J.middleCols<3>(b.v) * rotation(q, b);
    }
  }

  /// eom's M of MuJoCo's dense mass matrix (mj_fullM, row-major nv x nv) at q: T^T M T.
  void mass_matrix_from_mujoco(const Eigen::VectorXd& q, const mjtNum* dense,
                               Eigen::MatrixXd& M) const {
    const int nv = static_cast<int>(M.rows());
    for (const Block& r : blocks_) {
      for (const Block& c : blocks_) {
        for (int i = 0; i < r.nv; ++i) {
          for (int k = 0; k < c.nv; ++k) M(r.v + i, c.v + k) = dense[(r.dof + i) * nv + c.dof + k];
        }
      }
    }
    for (const Block& b : blocks_) {
      if (!b.free) continue;
      const Mat3 R = rotation(q, b);
      M.middleRows<3>(b.v) = R.transpose() * M.middleRows<3>(b.v);
      M.middleCols<3>(b.v) = M.middleCols<3>(b.v) * R;
    }
  }

 private:
  struct Block {
    int q, v, nv;   // eom's q and v index, and dofs
    int qpos, dof;  // MuJoCo's
    bool free, ball;
  };

  static Mat3 rotation(const Eigen::VectorXd& q, const Block& b) {
    return Eigen::Quaterniond(q[b.q + 6], q[b.q + 3], q[b.q + 4], q[b.q + 5])
        .normalized()
        .toRotationMatrix();
  }

  std::vector<Block> blocks_;
};

}  // namespace eom::test
