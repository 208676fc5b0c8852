#include "eom/rows/contacts.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include <eom/core/errors.hpp>
#include <eom/io/column_names.hpp>
#include <eom/io/columns.hpp>

#include <eom/rows/run.hpp>

namespace eom::rows {

ContactSet load_contacts(const Model& model, const ContactOptions& opt) {
  if (opt.specs.empty()) {
    if (!opt.weights.empty()) throw InputError("--contact-weights needs --contacts");
    if (opt.fail_on_residual >= 0) throw InputError("--fail-on-residual needs --contacts");
    if (opt.rule != "min-norm") throw InputError("--contact-forces needs --contacts");
    if (opt.friction_coefficient > 0) throw InputError("--friction-coefficient needs --contacts");
    return {};
  }
  const Vec3 given(opt.normal[0], opt.normal[1], opt.normal[2]);
  Vec3 normal;
  try {
    normal = unit_contact_normal(given);
  } catch (const InputError& e) {
    std::ostringstream text;
    text << "--contact-normal " << given.x() << "," << given.y() << "," << given.z() << ": "
         << e.message();
    throw InputError(text.str());
  }
  ContactSet set;
  try {
    set = parse_contacts(model, opt.specs, normal);
  } catch (const InputError& e) {
    throw InputError("--contacts: " + e.message());
  }
  if (!opt.weights.empty() && opt.rule != "min-norm") {
    throw InputError("--contact-weights weigh the min-norm distribution, not --contact-forces " +
                     opt.rule);
  }
  for (const auto& item : opt.weights) {
    try {
      parse_contact_weight(model, item, set);
    } catch (const InputError& e) {
      throw InputError("--contact-weights: " + e.message());
    }
  }
  return set;
}

namespace {

ContactForceRule rule_of(const std::string& name) {
  if (name == "min-torque") return ContactForceRule::min_torque;
  if (name == "measured") return ContactForceRule::measured;
  return ContactForceRule::min_norm;
}

const char* const kResidualComponents[] = {"fx", "fy", "fz", "mx", "my", "mz"};

// below this a residual is round-off of a balanced row (N and N m)
constexpr double kResidualReported = 1e-6;

}  // namespace

std::vector<std::string> contact_force_columns(const Model& model, const ContactSet& contacts) {
  std::vector<std::string> columns;
  for (const Contact& contact : contacts.contacts) {
    const std::string& frame = model.frames[contact.frame].name;
    for (const auto& component : contact_force_components(contact.kind)) {
      columns.push_back(column_name(column_name("f", frame), component));
    }
  }
  return columns;
}

ContactActivity::ContactActivity(const Model& model, const ContactSet& contacts,
                                 const Header& header, const std::string& file)
    : model_(model), file_(file) {
  for (const Contact& contact : contacts.contacts) {
    const int c = header.index("contact." + model.frames[contact.frame].name);
    columns_.push_back(c);
    if (c >= 0) inputs_.push_back(c);
  }
  const std::vector<std::string>& ranks = contact_rank_columns();
  for (const auto& name : header.names) {
    if (name.rfind("contact.", 0) != 0) continue;
    const int frame = model.frame_index(name.substr(8));
    if (frame < 0 && std::find(ranks.begin(), ranks.end(), name) != ranks.end()) continue;
    if (frame < 0 || contacts.find(frame) < 0) {
      throw InputError(file, 1, header.index(name) + 1,
                       "column " + shown_input(name) + ": " + quote_input(name.substr(8)) +
                           " is not one of the --contacts");
    }
  }
}

void ContactActivity::apply(const Sample& s, ContactJacobian& jacobian) const {
  for (std::size_t k = 0; k < columns_.size(); ++k) {
    const int c = columns_[k];
    const double value = c < 0 ? 1.0 : s.row[c];
    if (value != 0 && value != 1) {
      throw InputError(file_, s.line, c + 1,
                       "column contact." +
                           model_.frames[jacobian.contacts().contacts[k].frame].name + ": " +
                           number_text(value) + " is neither 1 (active) nor 0 (inactive)");
    }
    jacobian.set_active(static_cast<int>(k), value == 1);
  }
}

ContactIdRows::ContactIdRows(const Model& model, const ContactSet& contacts,
                             const ContactOptions& opt, const Header& header,
                             const std::string& file)
    : model_(model),
      opt_(opt),
      file_(file),
      rule_(rule_of(opt.rule)),
      id_(model, contacts, rule_),
      activity_(model, contacts, header, file),
      forces_in_(Eigen::VectorXd::Zero(contacts.size())),
      normal_(unit_contact_normal(Vec3(opt.normal[0], opt.normal[1], opt.normal[2]))),
      threshold_(opt.fail_on_residual >= 0 ? opt.fail_on_residual : kResidualReported),
      slipping_(contacts.contacts.size()),
      pulling_(contacts.contacts.size()) {
  const int unactuated = model.floating_base ? 6 : 0;
  for (int k = unactuated; k < model.nv; ++k) columns_.push_back("tau." + model.tau_names[k]);
  const std::vector<std::string> forces = contact_force_columns(model, contacts);
  append(columns_, forces);
  inputs_ = activity_.inputs();
  if (rule_ == ContactForceRule::measured) {
    measured_ = bind_columns(header, forces, file);
    inputs_.insert(inputs_.end(), measured_.begin(), measured_.end());
  }
  for (const char* component : kResidualComponents) {
    columns_.push_back(column_name("residual", component));
  }
  columns_.push_back("residual.norm");
  for (const Contact& contact : contacts.contacts) {
    if (contact.kind != ContactKind::normal) {
      columns_.push_back("friction." + model.frames[contact.frame].name);
    }
  }
  for (const Contact& contact : contacts.contacts) {
    if (contact.kind != ContactKind::frame) continue;
    for (const char* axis : {"x", "y"}) {
      columns_.push_back(column_name(column_name("cop", model.frames[contact.frame].name), axis));
    }
  }
}

double* ContactIdRows::compute(const Sample& s, const Data& placed, ConstVec b, double* out) {
  const ContactSet& set = id_.contacts();
  activity_.apply(s, id_.jacobian());
  if (rule_ == ContactForceRule::measured) {
    gather(s.row, measured_, forces_in_);
    id_.solve_measured(placed, b, forces_in_);
  } else {
    id_.solve(placed, b);
  }
  const Eigen::VectorXd& tau = id_.torques();
  for (int k = model_.floating_base ? 6 : 0; k < model_.nv; ++k) *out++ = tau[k];
  const Eigen::VectorXd& f = id_.forces();
  for (Eigen::Index k = 0; k < f.size(); ++k) *out++ = f[k];
  const Vec6& residual = id_.residual();
  for (int k = 0; k < 6; ++k) *out++ = residual[k];
  const double norm = residual.norm();
  *out++ = norm;
  // a force below 1e-9 of the row's largest is the round-off of a contact that carries nothing
  double largest = 0;
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    const int row = set.offset(static_cast<int>(k));
    largest =
        std::max(largest, set.contacts[k].kind == ContactKind::normal ? std::abs(f[row])
                                                                      : f.segment<3>(row).norm());
  }
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    const int row = set.offset(static_cast<int>(k));
    if (set.contacts[k].kind == ContactKind::normal) {
      if (f[row] < -1e-9 * largest) pulling_[k].count(s.t, s.line);
      continue;
    }
    // along --contact-normal: |tangential| / normal, the friction coefficient the contact needs;
    // 0 when it carries nothing, -1 when it pulls or carries no normal force (no friction
    // coefficient holds it)
    const Vec3 force = f.segment<3>(row);
    const double normal = force.dot(normal_);
    const double tangential = (force - normal * normal_).norm();
    double needed = 0;
    if (force.norm() > 1e-9 * largest) needed = normal > 0 ? tangential / normal : -1.0;
    *out++ = needed;
    if (needed < 0) {
      pulling_[k].count(s.t, s.line);
    } else if (opt_.friction_coefficient > 0 && needed > opt_.friction_coefficient) {
      slipping_[k].add(needed, s.t, s.line);
    }
  }
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    if (set.contacts[k].kind != ContactKind::frame) continue;
    const int contact = static_cast<int>(k);
    // 0, 0 when the contact carries no load
    const std::optional<Eigen::Vector2d> cop =
        id_.jacobian().active(contact) ? center_of_pressure(id_.jacobian().placement(contact),
                                                            f.segment<6>(set.offset(contact)))
                                       : std::nullopt;
    *out++ = cop ? cop->x() : 0.0;
    *out++ = cop ? cop->y() : 0.0;
  }
  if (norm > threshold_) ++residual_rows_;
  if (norm > worst_) {
    worst_ = norm;
    worst_t_ = s.t;
    worst_line_ = s.line;
  }
  return out;
}

int ContactIdRows::finish(const Notes& notes) const {
  const ContactSet& set = id_.contacts();
  for (std::size_t k = 0; k < set.contacts.size() && opt_.friction_coefficient > 0; ++k) {
    const std::string& frame = model_.frames[set.contacts[k].frame].name;
    const RowTally& slip = slipping_[k];
    const RowTally& pull = pulling_[k];
    if (slip.rows > 0) {
      std::ostringstream line;
      line << file_ << ": friction." << frame << " exceeds --friction-coefficient "
           << number_text(opt_.friction_coefficient) << " in " << slip.rows
           << (slip.rows == 1 ? " row" : " rows") << ": first at t=" << slip.first_t << " (line "
           << slip.first_line << "), worst " << number_text(slip.worst) << " at t=" << slip.worst_t;
      notes.warning(line.str());
    }
    if (pull.rows > 0) {
      std::ostringstream line;
      line << file_ << ": f." << frame << " pulls (its normal force is negative) in " << pull.rows
           << (pull.rows == 1 ? " row" : " rows") << ": first at t=" << pull.first_t << " (line "
           << pull.first_line << ")";
      notes.warning(line.str());
    }
  }
  const bool failing = opt_.fail_on_residual >= 0 && worst_ > opt_.fail_on_residual;
  if (worst_ <= threshold_) return kExitOk;
  std::ostringstream line;
  line << file_ << ": the contacts cannot supply the base's wrench in " << residual_rows_
       << (residual_rows_ == 1 ? " row" : " rows") << ": worst residual.norm "
       << number_text(worst_) << " at t=" << worst_t_ << " (line " << worst_line_ << ")";
  if (failing) {
    line << ", over --fail-on-residual " << number_text(opt_.fail_on_residual);
    notes.error(line.str());
    return kExitFailure;
  }
  notes.warning(line.str());
  return kExitOk;
}

void ContactIdRows::summarize(nlohmann::json& table) const {
  table["contacts"] = {{"worst_residual", worst_},
                       {"worst_residual_line", worst_line_},
                       {"residual_rows", residual_rows_}};
  if (opt_.friction_coefficient <= 0) return;
  nlohmann::json friction = nlohmann::json::array();
  const ContactSet& set = id_.contacts();
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    friction.push_back({{"frame", model_.frames[set.contacts[k].frame].name},
                        {"slipping_rows", slipping_[k].rows},
                        {"pulling_rows", pulling_[k].rows}});
  }
  table["contacts"]["friction"] = friction;
}

const std::vector<std::string>& contact_rank_columns() {
  static const std::vector<std::string> names{"contact.rank", "contact.base_rank",
                                              "contact.internal", "contact.full"};
  return names;
}

namespace {

class ContactRankTask final : public RowTask {
 public:
  ContactRankTask(std::unique_ptr<RowTask> frame_task, const Model& model,
                  const ContactSet& contacts, const RankTolerance& tolerance, const Header& header,
                  const std::string& file)
      : frame_task_(std::move(frame_task)),
        analysis_(model, contacts, tolerance),
        activity_(model, contacts, header, file) {
    if (frame_task_) {
      columns = frame_task_->columns;
      inputs = frame_task_->inputs;
    }
    append(columns, contact_rank_columns());
    inputs.insert(inputs.end(), activity_.inputs().begin(), activity_.inputs().end());
  }

  void compute(const Sample& s, double* out) override {
    if (frame_task_) {
      frame_task_->compute(s, out);
      out += frame_task_->columns.size();
    }
    activity_.apply(s, analysis_.jacobian());
    analysis_.compute(s.q);
    *out++ = analysis_.rank();
    *out++ = analysis_.base_rank();
    *out++ = analysis_.internal();
    *out = analysis_.fully_constrained() ? 1 : 0;
  }

  int finish(const Notes& notes) override {
    return frame_task_ ? frame_task_->finish(notes) : kExitOk;
  }

  void summarize(nlohmann::json& table) const override {
    if (frame_task_) frame_task_->summarize(table);
  }

 private:
  std::unique_ptr<RowTask> frame_task_;
  ContactRankAnalysis analysis_;
  ContactActivity activity_;
};

}  // namespace

std::unique_ptr<RowTask> with_contact_ranks(std::unique_ptr<RowTask> frame_task, const Model& model,
                                            const ContactSet& contacts,
                                            const RankTolerance& tolerance, const Header& header,
                                            const std::string& file) {
  return std::make_unique<ContactRankTask>(std::move(frame_task), model, contacts, tolerance,
                                           header, file);
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

ContactFdRows::ContactFdRows(const Model& model, const ContactSet& contacts, const Header& header,
                             const std::string& file, double kp, double kd)
    : fd_(model, contacts),
      activity_(model, contacts, header, file),
      columns_(contact_force_columns(model, contacts)),
      redundancy_(file) {
  fd_.set_baumgarte(kp, kd);
}

const Eigen::VectorXd& ContactFdRows::compute(const Sample& s, ConstVec tau) {
  activity_.apply(s, fd_.jacobian());
  fd_.solve(s.q, s.dq.col(0), tau);
  redundancy_.count(fd_.rank(), fd_.jacobian().active_size(), s.line);
  return fd_.accelerations();
}

double* ContactFdRows::write_forces(double* out) const {
  const Eigen::VectorXd& f = fd_.forces();
  for (Eigen::Index k = 0; k < f.size(); ++k) *out++ = f[k];
  return out;
}

int ContactFdRows::finish(const Notes& notes) const {
  redundancy_.finish(notes, "their forces are the least-norm ones that hold them");
  return kExitOk;
}

}  // namespace eom::rows
