// The contact columns several subcommands share: f.<frame>.* of the contact forces, the
// contact.<frame> activity of each row, the contact ranks' columns, and the tally of rows whose
// active contacts are redundant (algorithm/contacts.hpp does the mathematics). The contact options
// and the per-row glue of one subcommand are the tool's (tools/contact_options.hpp, tools/id/,
// tools/fd/, tools/jac/).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <eom/algorithm/contacts.hpp>
#include <eom/io/table.hpp>
#include <eom/multibody/model.hpp>

#include <eom/rows/row_engine.hpp>

namespace eom::rows {

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

/// The columns eom jac --contacts writes: contact.rank, contact.base_rank, contact.internal and
/// contact.full (ContactRankAnalysis). ContactActivity lets them pass as inputs (unless a frame has
/// that name), so that a table eom jac wrote can be read again.
const std::vector<std::string>& contact_rank_columns();

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

}  // namespace eom::rows
