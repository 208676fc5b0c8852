// eom fd --contacts: the forward dynamics of each row with its active contacts held
// (ContactForwardDynamics of eom/algorithm/contacts.hpp), their forces' columns, and the rows whose
// contacts are redundant.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json_fwd.hpp>

#include <eom/algorithm/contacts.hpp>
#include <eom/io/table.hpp>
#include <eom/multibody/model.hpp>

#include <eom/rows/contacts.hpp>
#include <eom/rows/row_engine.hpp>

namespace eom::cli {

using namespace eom::rows;

/// eom fd --contacts on the rows of one table: the active contacts of each row held, the
/// accelerations and contact forces (ContactForwardDynamics), the rank of the contacts reported.
class ContactFdRows {
 public:
  /// kp and kd: Baumgarte stabilisation (ContactForwardDynamics::set_baumgarte; 0, 0: none).
  ContactFdRows(const Model& model, const ContactSet& contacts, const Header& header,
                const std::string& file, double kp, double kd);

  /// f.<frame>.*, written after the accelerations.
  const std::vector<std::string>& columns() const { return columns_; }
  const std::vector<int>& inputs() const { return activity_.inputs(); }

  /// The accelerations of the row for the generalized force tau (nv).
  const Eigen::VectorXd& compute(const Sample& s, ConstVec tau);
  /// The forces of the last row from out; returns their end.
  double* write_forces(double* out) const;

  /// Redundant contacts (rank below the active constraints) on stderr.
  int finish(const Notes& notes) const;
  void summarize(nlohmann::json& table) const { redundancy_.summarize(table); }

 private:
  ContactForwardDynamics fd_;
  ContactActivity activity_;
  std::vector<std::string> columns_;
  RedundancyTally redundancy_;
};

}  // namespace eom::cli
