#include "eom/multibody/data.hpp"

#include <algorithm>

namespace eom {

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
      M_llt(model.nv) {
  for (int i = 1; i < model.njoints; ++i) {
    U[i].setZero(6, model.joints[i].nv);
    Dinv[i].setZero(model.joints[i].nv, model.joints[i].nv);
  }
  // forward dynamics
  for (int i = 1; i < model.njoints; ++i) Sw[i].setZero(6, model.joints[i].nv);

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
  // the coordinate before each on its branch: the previous one of a joint of several, else the
  // last of the nearest ancestor joint that has any; then each one's ancestors, root first
  std::vector<int> dof_parent(nv, -1);
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
  L_ancestors.assign(dof_ancestors.size(), 0.0);
  pivot_inv.assign(nv, 0.0);
  rows.assign(nv, 0);
  coefficients.assign(nv, 0.0);
}

}  // namespace eom
