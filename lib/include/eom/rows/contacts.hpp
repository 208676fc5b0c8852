// The contact columns several subcommands share: f.<frame>.* of the contact forces, the
// contact.<frame> activity of each row, the contact ranks' columns, and the tally of rows whose
// active contacts are redundant (algorithm/contacts.hpp does the mathematics). The contact options
// and the per-row glue of one subcommand are the tool's (tools/contact_options.hpp, tools/id/,
// tools/fd/, tools/jac/).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <eom/algorithm/contacts.hpp>
#include <eom/io/column_names.hpp>
#include <eom/io/table.hpp>
#include <eom/multibody/model.hpp>

#include <eom/rows/row_engine.hpp>

namespace eom::rows {

/// <prefix>.<frame>.<component> of every contact, stacked as ContactSet::offset: the forces
/// f.<frame>.* (kContactForcePrefix), the impulses p.<frame>.* (kContactImpulsePrefix).
std::vector<std::string> contact_force_columns(const Model& model, const ContactSet& contacts,
                                               std::string_view prefix = kContactForcePrefix);

/// The contact.<frame> columns of one table: which contacts hold on each row (a contact without
/// a column holds on every row). The one reader of these columns, for the tables of id, fd, jac
/// and impact and for sim's contact schedule; the contact rank columns (contact_rank_columns)
/// pass, so that a table eom jac wrote can be read again. Their values are 0 or 1: the table's
/// reader refuses any other at its line:column (TableReader::read_columns flags), where the row
/// engine reads a task's contact.<frame> inputs and read_time_table the flags it is given.
class ContactActivity {
 public:
  /// Throws InputError (file, line 1, the name's position) for a contact.<name> column of no
  /// contact.
  ContactActivity(const Model& model, const ContactSet& contacts, const Header& header,
                  const std::string& file);
  /// The columns read (indices into the header).
  const std::vector<int>& inputs() const { return inputs_; }
  /// The names of the contacts' columns, present or not.
  const std::vector<std::string>& names() const { return names_; }
  /// Whether the k-th contact holds on the row `values` (indexed as the header).
  bool active(std::size_t k, const double* values) const;
  /// Sets the row's active contacts (active() of each).
  void apply(const Sample& s, ContactJacobian& jacobian) const;

 private:
  std::vector<int> columns_;        // per contact, -1 when absent
  std::vector<std::string> names_;  // per contact, its column's name
  std::vector<int> inputs_;
};

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
