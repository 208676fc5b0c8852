// eom id --contacts: the contact inverse dynamics of each row (ContactInverseDynamics of
// eom/algorithm/contacts.hpp), its columns, and the report of the residuals and of the friction the
// contacts need.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json_fwd.hpp>

#include <eom/algorithm/contacts.hpp>
#include <eom/io/table.hpp>
#include <eom/multibody/model.hpp>
#include <eom/trajectory/row_statistics.hpp>

#include <eom/rows/contacts.hpp>
#include <eom/rows/row_engine.hpp>

#include "contact_options.hpp"

namespace eom::cli {

using namespace eom::rows;

/// eom id --contacts on the rows of one table: binds the contact.<frame> columns (and the
/// f.<frame>.* columns of measured forces), solves each row and writes tau of the actuated joints,
/// f.<frame>.*, residual.* and friction.<frame>. Allocates nothing per row.
class ContactIdRows {
 public:
  /// Throws InputError naming the file for a contact.<name> column of no contact and missing
  /// measured force columns.
  ContactIdRows(const Model& model, const ContactSet& contacts, const ContactOptions& opt,
                const Header& header, const std::string& file);

  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<int>& inputs() const { return inputs_; }

  /// The row whose motion needs the generalized force b (nv): writes its columns from out and
  /// returns their end. `placed` holds the joint placements of the row's q (the Data of the rnea
  /// that computed b), which the contact Jacobians reuse. Throws InputError at a contact.<frame>
  /// value other than 0 and 1.
  double* compute(const Sample& s, const Data& placed, ConstVec b, double* out);
  /// The joint torques of the last row (nv; zero on the free-flyer).
  const Eigen::VectorXd& torques() const { return id_.torques(); }
  /// The contacts and forces of the last row (the placements of its active contacts).
  const ContactJacobian& jacobian() const { return id_.jacobian(); }
  const Eigen::VectorXd& forces() const { return id_.forces(); }

  /// The worst residual on stderr; kExitFailure when it exceeds --fail-on-residual.
  int finish(const Notes& notes) const;
  void summarize(nlohmann::json& table) const;

 private:
  const Model& model_;
  const ContactOptions& opt_;
  const std::string file_;
  ContactInverseDynamics id_;
  ContactActivity activity_;
  std::vector<int> measured_;  // columns of the measured forces, stacked as f
  std::vector<std::string> columns_;
  std::vector<int> inputs_;
  Eigen::VectorXd forces_in_;
  const Vec3 normal_;       // of friction.<frame>
  const double threshold_;  // a residual.norm above it is reported: --fail-on-residual or 1e-6
  double worst_ = 0, worst_t_ = 0;
  Vec6 worst_residual_ = Vec6::Zero();  // force and moment about the centre of mass
  int worst_line_ = 0;
  long residual_rows_ = 0;  // rows over the threshold
  // per contact, with --friction-coefficient: rows needing more friction, rows pulling
  std::vector<RowTally> slipping_, pulling_;
};

}  // namespace eom::cli
