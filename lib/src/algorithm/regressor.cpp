#include "eom/algorithm/regressor.hpp"

#include "eom/algorithm/dynamics.hpp"
#include "eom/core/errors.hpp"
#include "eom/core/number_text.hpp"
#include "algorithm/newton_euler.hpp"
#include "core/sizes.hpp"

namespace eom {
namespace {

using BodyRegressor = Eigen::Matrix<double, 6, 10>;

// Whether the drive columns cover joint i: every joint but a free-flyer, which no motor drives.
bool driven(const Model& model, int i) { return !is_floating(model.joints[i]); }

// The name a body's parameters carry: its link, or the joint's name in a hand-built model.
const std::string& body_name(const Model& model, int i) {
  const bool has_link =
      i < static_cast<int>(model.info.size()) && !model.info[i].child_link.empty();
  return has_link ? model.info[i].child_link : model.joint_names[i];
}

// F with f = I a + v x* (I v) = F pi for the body moving with twist v and acceleration a (own
// frame, linear first). With a' = a.lin + w x v.lin (w = v.ang) and I_o w = L(w) (Ixx .. Izz):
//   f.lin = m a' + ([a.ang]x + [w]x^2) h,   f.ang = -[a']x h + (L(a.ang) + [w]x L(w)) I,
// the expansion of the Newton-Euler equations about the frame origin (Atkeson, An and Hollerbach
// 1986, eq. 10), with the moments h = m c and I_o of InertiaMoments. Writes the blocks that can be
// nonzero only: F's others (the mass column's moment, the inertia columns' force) keep the zeros
// Data starts with.
void body_regressor(const Motion& v, const Motion& a, BodyRegressor& F) {
  // entry by entry: Eigen temporaries built from scalars would be stored in halves and read back
  // whole (a store-forwarding stall each)
  const double x = v.ang.x(), y = v.ang.y(), z = v.ang.z();
  const double dx = a.ang.x(), dy = a.ang.y(), dz = a.ang.z();
  const Vec3 a_lin = a.lin + v.ang.cross(v.lin);
  const double ax = a_lin.x(), ay = a_lin.y(), az = a_lin.z();
  // m: a'
  F(0, 0) = ax, F(1, 0) = ay, F(2, 0) = az;
  // h: [dw]x + [w]x^2 = [dw]x + w w^T - (w . w) 1 over -[a']x
  F(0, 1) = -y * y - z * z, F(0, 2) = x * y - dz, F(0, 3) = x * z + dy;
  F(1, 1) = x * y + dz, F(1, 2) = -x * x - z * z, F(1, 3) = y * z - dx;
  F(2, 1) = x * z - dy, F(2, 2) = y * z + dx, F(2, 3) = -x * x - y * y;
  F(3, 1) = 0, F(3, 2) = az, F(3, 3) = -ay;
  F(4, 1) = -az, F(4, 2) = 0, F(4, 3) = ax;
  F(5, 1) = ay, F(5, 2) = -ax, F(5, 3) = 0;
  // I: L(dw) + [w]x L(w), L's columns (Ixx Ixy Ixz Iyy Iyz Izz) being (x, 0, 0), (y, x, 0),
  // (z, 0, x), (0, y, 0), (0, z, y), (0, 0, z) of its argument
  F(3, 4) = dx, F(4, 4) = z * x, F(5, 4) = -y * x;
  F(3, 5) = dy - z * x, F(4, 5) = dx + z * y, F(5, 5) = x * x - y * y;
  F(3, 6) = dz + x * y, F(4, 6) = z * z - x * x, F(5, 6) = dx - y * z;
  F(3, 7) = -z * y, F(4, 7) = dy, F(5, 7) = x * y;
  F(3, 8) = y * y - z * z, F(4, 8) = dz - x * y, F(5, 8) = dy + x * z;
  F(3, 9) = y * z, F(4, 9) = -x * z, F(5, 9) = dz;
}

// Row r of Y, columns of body k: S^T F_k, S one column of the motion subspace of r's joint in
// body k's frame, from F's blocks that can be nonzero: with F's force rows [a', A, 0] and moment
// rows [0, -[a']x, B], S^T F = [S.lin . a', A^T S.lin + a' x S.ang, B^T S.ang].
inline void add_body_row(const Motion& S, const BodyRegressor& F, double* out,
                         Eigen::Index stride) {
  const Vec3 a_lin = F.block<3, 1>(0, 0);
  out[0] = S.lin.dot(a_lin);
  const Vec3 h = F.block<3, 3>(0, 1).transpose() * S.lin + a_lin.cross(S.ang);
  for (int c = 0; c < 3; ++c) out[(1 + c) * stride] = h[c];
  const Eigen::Matrix<double, 6, 1> I = F.block<3, 6>(3, 4).transpose() * S.ang;
  for (int c = 0; c < 6; ++c) out[(4 + c) * stride] = I[c];
}

}  // namespace

InertialParameters inertial_parameters(const Inertia& inertia) {
  const Mat3 I = inertia.about_origin();
  InertialParameters pi;
  pi << inertia.m, inertia.m * inertia.c, I(0, 0), I(0, 1), I(0, 2), I(1, 1), I(1, 2), I(2, 2);
  return pi;
}

Inertia inertia_from_parameters(const InertialParameters& pi) {
  Inertia out;
  out.m = pi[0];
  out.c = pi.segment<3>(1) / pi[0];
  Mat3 I_o;
  I_o << pi[4], pi[5], pi[6], pi[5], pi[7], pi[8], pi[6], pi[8], pi[9];
  // I_c = I_o - m ((c . c) 1 - c c^T), the parallel-axis theorem backwards
  out.I_c = I_o - out.m * (out.c.squaredNorm() * Mat3::Identity() - out.c * out.c.transpose());
  return out;
}

int regressor_columns(const Model& model, const DriveParameters& drive) {
  int driven_coordinates = 0;
  for (int i = 1; i < model.njoints; ++i) {
    if (driven(model, i)) driven_coordinates += model.joints[i].nv;
  }
  return kInertialParameterCount * (model.njoints - 1) + drive.count() * driven_coordinates;
}

std::vector<std::string> regressor_parameter_names(const Model& model,
                                                   const DriveParameters& drive) {
  std::vector<std::string> names;
  names.reserve(regressor_columns(model, drive));
  for (int i = 1; i < model.njoints; ++i) {
    for (const char* p : kInertialParameterNames) names.push_back(body_name(model, i) + "." + p);
  }
  const std::pair<bool, const char*> kinds[] = {
      {drive.viscous, "fv"}, {drive.coulomb, "fc"}, {drive.offset, "fo"}, {drive.armature, "ia"}};
  for (int i = 1; i < model.njoints; ++i) {
    if (!driven(model, i)) continue;
    const Joint& j = model.joints[i];
    for (int r = j.idx_v; r < j.idx_v + j.nv; ++r) {
      for (const auto& [on, name] : kinds) {
        if (on) names.push_back(model.v_names[r] + "." + name);
      }
    }
  }
  return names;
}

Eigen::VectorXd regressor_parameters(const Model& model, const DriveParameters& drive) {
  Eigen::VectorXd pi(regressor_columns(model, drive));
  int c = 0;
  for (int i = 1; i < model.njoints; ++i, c += kInertialParameterCount) {
    pi.segment<kInertialParameterCount>(c) = inertial_parameters(model.inertia[i]);
  }
  for (int i = 1; i < model.njoints; ++i) {
    if (!driven(model, i)) continue;
    const Joint& j = model.joints[i];
    for (int r = j.idx_v; r < j.idx_v + j.nv; ++r) {
      if (drive.viscous) pi[c++] = model.damping[r];
      if (drive.coulomb) pi[c++] = model.friction[r];
      if (drive.offset) pi[c++] = 0;
      if (drive.armature) pi[c++] = model.armature[r];
    }
  }
  return pi;
}

Model model_with_parameters(const Model& model, const DriveParameters& drive,
                            const Eigen::VectorXd& pi) {
  detail::check_size(pi.size(), regressor_columns(model, drive), "the parameters");
  Model out = model;
  int c = 0;
  for (int i = 1; i < model.njoints; ++i, c += kInertialParameterCount) {
    const InertialParameters body = pi.segment<kInertialParameterCount>(c);
    if (!(body[0] > 0)) {
      throw InputError("link '" + body_name(model, i) + "': mass " + number_text(body[0]) +
                       " is not positive: no inertia has these parameters");
    }
    out.inertia[i] = inertia_from_parameters(body);
  }
  for (int i = 1; i < model.njoints; ++i) {
    if (!driven(model, i)) continue;
    const Joint& j = model.joints[i];
    for (int r = j.idx_v; r < j.idx_v + j.nv; ++r) {
      if (drive.viscous) out.damping[r] = pi[c++];
      if (drive.coulomb) out.friction[r] = pi[c++];
      if (drive.offset) ++c;  // a bias no robot file holds
      if (drive.armature) out.armature[r] = pi[c++];
    }
    out.info[i].damping = out.damping[j.idx_v];
    out.info[i].friction = out.friction[j.idx_v];
    out.info[i].armature = out.armature[j.idx_v];
  }
  return out;
}

void joint_torque_regressor(const Model& model, Data& data, ConstVec q, ConstVec v, ConstVec a,
                            Eigen::Ref<Eigen::MatrixXd> Y, const DriveParameters& drive) {
  detail::check_size(q.size(), model.nq, "q");
  detail::check_size(v.size(), model.nv, "v");
  detail::check_size(a.size(), model.nv, "a");
  detail::check_size(Y.rows(), model.nv, "the regressor's rows");
  detail::check_size(Y.cols(), regressor_columns(model, drive), "the regressor's columns");
  // rnea's forward pass gives every body's twist and acceleration (gravity included) in its frame
  detail::newton_euler_forward(model, data, q, &v, &a);
  for (int k = 1; k < model.njoints; ++k)
    body_regressor(data.v[k], data.a[k], data.body_regressor[k]);

  // tau_r = S_r^T sum over the subtree of j of jX_k^* f_k, so Y(r, body k) = (kX_j S_r)^T F_k:
  // S_r carried down the subtree (contiguous in depth-first order: it ends at the first joint
  // whose parent comes before j)
  // (as one block when Y is a whole matrix: Ref's setZero goes column by column)
  if (Y.outerStride() == Y.rows()) {
    Eigen::Map<Eigen::VectorXd>(Y.data(), Y.size()).setZero();
  } else {
    Y.setZero();
  }
  for (int j = 1; j < model.njoints; ++j) {
    const Joint& jnt = model.joints[j];
    for (int c = 0; c < jnt.nv; ++c) {
      const int r = jnt.idx_v + c;
      // Y(r, body k) at row + block * (k - 1)
      double* row = Y.data() + r;
      const Eigen::Index stride = Y.outerStride(), block = kInertialParameterCount * stride;
      data.regressor_S[j] = joint_column(jnt, c);
      add_body_row(data.regressor_S[j], data.body_regressor[j], row + block * (j - 1), stride);
      for (int k = j + 1; k < model.njoints && model.parent[k] >= j; ++k) {
        data.regressor_S[k] = data.liMi[k].act_inv(data.regressor_S[model.parent[k]]);
        add_body_row(data.regressor_S[k], data.body_regressor[k], row + block * (k - 1), stride);
      }
    }
  }

  // drive columns: fv v, fc sgn(v), fo, ia a on the coordinate's own row
  if (drive.count() == 0) return;
  int col = kInertialParameterCount * (model.njoints - 1);
  for (int i = 1; i < model.njoints; ++i) {
    if (!driven(model, i)) continue;
    const Joint& jnt = model.joints[i];
    for (int r = jnt.idx_v; r < jnt.idx_v + jnt.nv; ++r) {
      if (drive.viscous) Y(r, col++) = v[r];
      if (drive.coulomb) Y(r, col++) = coulomb_sign(v[r], drive.smoothing);
      if (drive.offset) Y(r, col++) = 1;
      if (drive.armature) Y(r, col++) = a[r];
    }
  }
}

}  // namespace eom
