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
      tau(Eigen::VectorXd::Zero(model.nv)),
      g(Eigen::VectorXd::Zero(model.nv)),
      qdd(Eigen::VectorXd::Zero(model.nv)),
      M(Eigen::MatrixXd::Zero(model.nv, model.nv)),
      M_llt(model.nv),
      J(Eigen::Matrix<double, 6, Eigen::Dynamic>::Zero(6, model.nv)) {}

}  // namespace eom
