// Contacts on the command line: --contacts and its options, the contact.<frame> and f.<frame>.*
// columns of a table, and the per-row contact inverse dynamics of eom id (algorithm/contacts.hpp
// does the mathematics).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json_fwd.hpp>

#include <eom/algorithm/contacts.hpp>
#include <eom/io/table.hpp>
#include <eom/trajectory/row_statistics.hpp>
#include <eom/multibody/model.hpp>

#include <eom/rows/row_engine.hpp>

namespace eom::rows {

struct ContactOptions {
  std::vector<std::string> specs;  // --contacts FRAME[:1d|:3d|:6d],...
  std::vector<double> normal{0, 0, 1};
  bool normal_given = false;  // --contact-normal was on the command line
  std::string rule = "min-norm";
  std::vector<std::string> weights;  // FRAME=w
  double fail_on_residual = -1;      // < 0: not asked
  double friction_coefficient = 0;   // --friction-coefficient MU; 0: not asked
};

/// The contacts of the options; throws InputError starting with the option at fault. Empty when
/// --contacts is not given (and then the other contact options are refused).
ContactSet load_contacts(const Model& model, const ContactOptions& opt);

/// f.<frame>.<component> of every contact, stacked as ContactSet::offset.
std::vector<std::string> contact_force_columns(const Model& model, const ContactSet& contacts);

/// The contact.<frame> columns of one table: which contacts hold on each row (absent: all).
class ContactActivity {
 public:
  /// Throws InputError naming the file for a contact.<name> column of no contact.
  ContactActivity(const Model& model, const ContactSet& contacts, const Header& header,
                  const std::string& file);
  /// The columns read.
  const std::vector<int>& inputs() const { return inputs_; }
  /// Sets the row's active contacts; throws InputError (file, line, column) for a value other
  /// than 0 and 1.
  void apply(const Sample& s, ContactJacobian& jacobian) const;

 private:
  const Model& model_;
  const std::string file_;
  std::vector<int> columns_;  // per contact, -1 when absent
  std::vector<int> inputs_;
};

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
  const ContactForceRule rule_;
  ContactInverseDynamics id_;
  ContactActivity activity_;
  std::vector<int> measured_;  // columns of the measured forces, stacked as f
  std::vector<std::string> columns_;
  std::vector<int> inputs_;
  Eigen::VectorXd forces_in_;
  const Vec3 normal_;       // of friction.<frame>
  const double threshold_;  // a residual.norm above it is reported: --fail-on-residual or 1e-6
  double worst_ = 0, worst_t_ = 0;
  int worst_line_ = 0;
  long residual_rows_ = 0;  // rows over the threshold
  // per contact, with --friction-coefficient: rows needing more friction, rows pulling
  std::vector<RowTally> slipping_, pulling_;
};

/// The columns eom jac --contacts writes: contact.rank, contact.base_rank, contact.internal and
/// contact.full (ContactRankAnalysis). ContactActivity lets them pass as inputs (unless a frame has
/// that name), so that a table eom jac wrote can be read again.
const std::vector<std::string>& contact_rank_columns();

/// eom jac --contacts: the contact ranks of each row written after the columns of `frame_task`
/// (none when null), which it runs first; finish() and summarize() are its.
std::unique_ptr<RowTask> with_contact_ranks(std::unique_ptr<RowTask> frame_task, const Model& model,
                                            const ContactSet& contacts,
                                            const RankTolerance& tolerance, const Header& header,
                                            const std::string& file);

/// The rows of a table whose active contacts are redundant (rank of J_c below their constraints),
/// for eom fd --contacts and eom impact.
class RedundancyTally {
 public:
  explicit RedundancyTally(const std::string& file) : file_(file) {}
  /// One row: the rank of its active contacts and their constraints.
  void count(int rank, int constraints, int line);
  /// Redundant rows on stderr, `what` saying how the solution was chosen.
  void finish(const Notes& notes, const std::string& what) const;
  /// redundant_rows and lowest_rank (-1 when no row is redundant) into table["contacts"].
  void summarize(nlohmann::json& table) const;

 private:
  const std::string file_;
  int lowest_rank_ = -1, lowest_rank_constraints_ = 0, lowest_rank_line_ = 0;
  long redundant_rows_ = 0;
};

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

}  // namespace eom::rows
