#include "eom/algorithm/christoffel.hpp"

#include "core/sizes.hpp"

namespace eom {

void christoffel_symbols(const Model& model, TimeDerivativeData& data, ConstVec q,
                         Eigen::Ref<Eigen::MatrixXd> gamma) {
  const int nv = model.nv;
  detail::check_size(gamma.rows(), nv * nv, "gamma's rows");
  detail::check_size(gamma.cols(), nv, "gamma's columns");
  for (int k = 0; k < nv; ++k) {
    auto column = gamma.col(k);
    auto unit = column.head(nv);
    unit.setZero();
    unit[k] = 1;
    const Eigen::MatrixXd& Ck = coriolis_matrix(model, data, q, unit);
    column = Eigen::Map<const Eigen::VectorXd>(Ck.data(), nv * nv);
  }
}

}  // namespace eom
