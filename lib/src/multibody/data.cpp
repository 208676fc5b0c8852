#include "eom/multibody/data.hpp"

#include <algorithm>
#include <cmath>

namespace eom {
namespace {

// Data::pivot_scale: for each body, walk up its ancestors with a bound d on its distance from each
// (its centre of mass, then each placement's length and each prismatic joint's travel on the way)
double inertia_scale(const Model& model) {
  std::vector<double> rotational(model.njoints, 0.0), mass(model.njoints, 0.0);
  for (int b = 1; b < model.njoints; ++b) {
    const Inertia& body = model.inertia[b];
    double d = body.c.norm();
    for (int j = b; j > 0; j = model.parent[j]) {
      rotational[j] += body.m * d * d + body.I_c.trace();
      mass[j] += body.m;
      // (a hand-built model may have no JointInfo)
      const bool sliding = is_one_dof(model.joints[j]) && !is_revolute(model.joints[j]) &&
                           j < static_cast<int>(model.info.size()) &&
                           std::isfinite(model.info[j].lower) && std::isfinite(model.info[j].upper);
      const double travel =
          sliding ? std::max(std::abs(model.info[j].lower), std::abs(model.info[j].upper)) : 0.0;
      d += model.placement[j].p.norm() + travel;
    }
  }
  double scale = 0;
  for (int j = 1; j < model.njoints; ++j) scale = std::max({scale, rotational[j], mass[j]});
  return scale;
}

}  // namespace

Data::Data(const Model& model)
    : liMi(model.njoints),
      oMi(model.njoints),
      oMf(model.frames.size()),
      v(model.njoints),
      a(model.njoints),
      f(model.njoints),
      bMi(model.njoints),
      bYcrb(model.njoints),
      bS(model.nv),
      bF(model.nv),
      parent_offset(model.njoints, Vec3::Zero()),
      IA(model.njoints),
      pA(model.njoints),
      c(model.njoints),
      U(model.njoints),
      Dinv(model.njoints),
      u(model.njoints),
      tau(Eigen::VectorXd::Zero(model.nv)),
      g(Eigen::VectorXd::Zero(model.nv)),
      qdd(Eigen::VectorXd::Zero(model.nv)),
      M(Eigen::MatrixXd::Zero(model.nv, model.nv)),
      J(Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, model.nv)),
      ov(model.njoints),
      oa(model.njoints),
      oS(model.njoints),
      oU(model.njoints, Vec6::Zero()),
      oDinv(model.njoints, 0.0),
      ou(model.njoints, 0.0),
      Sw(model.njoints),
      pivot_scale(inertia_scale(model)) {
  for (int i = 1; i < model.njoints; ++i) {
    U[i].setZero(6, model.joints[i].nv);
    Dinv[i].setZero(model.joints[i].nv, model.joints[i].nv);
  }
  // forward dynamics
  for (int i = 1; i < model.njoints; ++i) Sw[i].setZero(6, model.joints[i].nv);
  M_factor.setZero(model.nv, model.nv);

  // frame Jacobians (kinematics.hpp)
  support.assign(model.njoints, 0);
  dJ.setZero(6, model.nv);

  // partial derivatives (partial_derivatives.hpp)
  const int nv = model.nv, nj = model.njoints;
  for (Eigen::MatrixXd* m : {&dtau_dq, &dtau_dv, &dqdd_dq, &dqdd_dv, &Minv}) m->setZero(nv, nv);
  oc.resize(nj);
  oYb.resize(nj);
  ohb.resize(nj);
  oh.resize(nj);
  oF.resize(nj);
  oYcrb.resize(nj);
  doYcrb.assign(nj, Mat3::Zero());
  oJ.resize(nv);
  dVdq.resize(nv);
  dFda.resize(nv);
  dAdx.assign(nv, Eigen::Matrix<double, 2, 9>::Zero());
  dFdx.assign(nv, Eigen::Matrix<double, 2, 6>::Zero());
  // joint torque regressor (regressor.hpp)
  regressor_S.resize(nj);
  body_regressor.assign(nj, Eigen::Matrix<double, 6, 10>::Zero());
  // the coordinate before each on its branch, then each one's ancestors, root first
  dof_parent.assign(nv, -1);
  for (int i = 1; i < nj; ++i) {
    const Joint& j = model.joints[i];
    for (int k = 1; k < j.nv; ++k) dof_parent[j.idx_v + k] = j.idx_v + k - 1;
    int p = model.parent[i];
    while (p > 0 && model.joints[p].nv == 0) p = model.parent[p];
    if (j.nv > 0 && p > 0) dof_parent[j.idx_v] = model.joints[p].idx_v + model.joints[p].nv - 1;
  }
  dof_ancestors_begin.assign(nv + 1, 0);
  for (int k = 0; k < nv; ++k) {
    const auto first = dof_ancestors.size();
    for (int a = dof_parent[k]; a >= 0; a = dof_parent[a]) dof_ancestors.push_back(a);
    std::reverse(dof_ancestors.begin() + first, dof_ancestors.end());
    dof_ancestors_begin[k + 1] = static_cast<int>(dof_ancestors.size());
  }
  rows.assign(nv, 0);
  coefficients.assign(nv, 0.0);
}

}  // namespace eom
