#include "id/contact_id_rows.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include <nlohmann/json.hpp>

#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>
#include <eom/io/column_names.hpp>
#include <eom/io/columns.hpp>

#include <eom/rows/run.hpp>

namespace eom::cli {

namespace {

// below this a residual is round-off of a balanced row (N and N m)
constexpr double kResidualReported = 1e-6;

// a force below this part of the row's largest is the round-off of a contact that carries nothing
constexpr double kForceRoundOff = 1e-9;
}  // namespace

ContactIdRows::ContactIdRows(const Model& model, const ContactSet& contacts,
                             const ContactOptions& opt, const Header& header,
                             const std::string& file)
    : model_(model),
      opt_(opt),
      file_(file),
      id_(model, contacts, opt.rule),
      activity_(model, contacts, header, file),
      forces_in_(Eigen::VectorXd::Zero(contacts.size())),
      normal_(unit_contact_normal(Vec3(opt.normal[0], opt.normal[1], opt.normal[2]))),
      threshold_(opt.fail_on_residual >= 0 ? opt.fail_on_residual : kResidualReported),
      slipping_(contacts.contacts.size()),
      pulling_(contacts.contacts.size()) {
  const int unactuated = model.floating_base ? 6 : 0;
  for (int k = unactuated; k < model.nv; ++k) {
    columns_.push_back(column_name("tau", model.tau_names[k]));
  }
  const std::vector<std::string> forces = contact_force_columns(model, contacts);
  append(columns_, forces);
  inputs_ = activity_.inputs();
  if (opt_.rule == ContactForceRule::measured) {
    measured_ = bind_columns(header, forces, file);
    inputs_.insert(inputs_.end(), measured_.begin(), measured_.end());
  }
  append(columns_, residual_columns());
  for (const Contact& contact : contacts.contacts) {
    if (contact.kind != ContactKind::normal) {
      columns_.push_back(friction_ratio_column(model.frames[contact.frame].name));
    }
  }
  for (const Contact& contact : contacts.contacts) {
    if (contact.kind == ContactKind::frame) {
      append(columns_, center_of_pressure_columns(model.frames[contact.frame].name));
    }
  }
}

double* ContactIdRows::compute(const Sample& s, const Data& placed, ConstVec b, double* out) {
  const ContactSet& set = id_.contacts();
  activity_.apply(s, id_.jacobian());
  if (opt_.rule == ContactForceRule::measured) {
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
      if (f[row] < -kForceRoundOff * largest) pulling_[k].count(s.t, s.line);
      continue;
    }
    // along --contact-normal (friction_ratio); 0 when it carries nothing
    const Vec3 force = f.segment<3>(row);
    const double needed =
        force.norm() > kForceRoundOff * largest ? friction_ratio(force, normal_) : 0.0;
    *out++ = needed;
    if (needed == kPullingFrictionRatio) {
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
    worst_residual_ = residual;
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
           << (slip.rows == 1 ? " row" : " rows") << ": first at t=" << number_text(slip.first_t)
           << " (line " << slip.first_line << "), worst " << number_text(slip.worst)
           << " at t=" << number_text(slip.worst_t);
      notes.warning(line.str());
    }
    if (pull.rows > 0) {
      std::ostringstream line;
      line << file_ << ": f." << frame << " pulls (its normal force is negative) in " << pull.rows
           << (pull.rows == 1 ? " row" : " rows") << ": first at t=" << number_text(pull.first_t)
           << " (line " << pull.first_line << ")";
      notes.warning(line.str());
    }
  }
  const bool failing = opt_.fail_on_residual >= 0 && worst_ > opt_.fail_on_residual;
  if (worst_ <= threshold_) return kExitOk;
  std::ostringstream line;
  line << file_ << ": the contacts cannot supply the base's wrench in " << residual_rows_
       << (residual_rows_ == 1 ? " row" : " rows") << ": worst residual.norm "
       << number_text(worst_) << " at t=" << number_text(worst_t_) << " (line " << worst_line_
       << "): a force of " << number_text(worst_residual_.head<3>().norm()) << " N and a moment of "
       << number_text(worst_residual_.tail<3>().norm()) << " N m about the centre of mass";
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
                       {"worst_residual_force", worst_residual_.head<3>().norm()},
                       {"worst_residual_moment", worst_residual_.tail<3>().norm()},
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

}  // namespace eom::cli
