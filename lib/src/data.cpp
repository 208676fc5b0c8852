#include "eom/data.hpp"

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
}

}  // namespace eom
