#include "eom/rows/contacts.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>
#include <eom/io/column_names.hpp>
#include <eom/io/columns.hpp>

#include <eom/rows/run.hpp>

namespace eom::rows {

std::vector<std::string> contact_force_columns(const Model& model, const ContactSet& contacts,
                                               std::string_view prefix) {
  std::vector<std::string> columns;
  for (const Contact& contact : contacts.contacts) {
    const std::string& frame = model.frames[contact.frame].name;
    for (const auto& component : contact_force_components(contact.kind)) {
      columns.push_back(frame_column(prefix, frame, component));
    }
  }
  return columns;
}

ContactActivity::ContactActivity(const Model& model, const ContactSet& contacts,
                                 const Header& header, const std::string& file) {
  for (const Contact& contact : contacts.contacts) {
    names_.push_back(contact_activity_column(model.frames[contact.frame].name));
    const int c = header.index(names_.back());
    columns_.push_back(c);
    if (c >= 0) inputs_.push_back(c);
  }
  const std::vector<std::string>& ranks = contact_rank_columns();
  for (int c = 0; c < header.size(); ++c) {
    const std::string& name = header.names[c];
    const std::string_view frame_name = contact_activity_frame(name);
    if (frame_name.empty()) continue;
    const int frame = model.frame_index(frame_name);
    if (frame < 0 && std::find(ranks.begin(), ranks.end(), name) != ranks.end()) continue;
    if (frame < 0 || contacts.find(frame) < 0) {
      throw InputError(file, 1, header.position(c),
                       "column " + shown_input(name) + ": " + quote_input(frame_name) +
                           " is not one of the " + Setting::contacts);
    }
  }
}

bool ContactActivity::active(std::size_t k, const double* values) const {
  const int c = columns_[k];
  return c < 0 || values[c] == 1;
}

void ContactActivity::apply(const Sample& s, ContactJacobian& jacobian) const {
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    jacobian.set_active(static_cast<int>(k), active(k, s.row.data()));
  }
}

void RedundancyTally::count(int rank, int constraints, int line) {
  if (rank >= constraints) return;
  ++redundant_rows_;
  if (lowest_rank_ < 0 || rank < lowest_rank_) {
    lowest_rank_ = rank;
    lowest_rank_constraints_ = constraints;
    lowest_rank_line_ = line;
  }
}

void RedundancyTally::finish(const Notes& notes, const std::string& what) const {
  if (redundant_rows_ == 0) return;
  notes.warning(file_ + ": the active contacts are redundant in " +
                std::to_string(redundant_rows_) + (redundant_rows_ == 1 ? " row" : " rows") +
                " (rank as low as " + std::to_string(lowest_rank_) + " of " +
                std::to_string(lowest_rank_constraints_) + " constraints, line " +
                std::to_string(lowest_rank_line_) + "): " + what);
}

void RedundancyTally::summarize(nlohmann::json& table) const {
  table["contacts"] = {{"redundant_rows", redundant_rows_}, {"lowest_rank", lowest_rank_}};
}

}  // namespace eom::rows
