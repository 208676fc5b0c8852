#include "identify/measured_forces.hpp"

#include <eom/core/errors.hpp>
#include <eom/io/column_names.hpp>
#include <eom/io/columns.hpp>
#include <eom/rows/contacts.hpp>

namespace eom::cli {

MeasuredForces::MeasuredForces(const Model& model, const ContactSet& contacts, const Header& header,
                               const std::string& file)
    : model_(model),
      equations_(model.nv),
      first_torque_(model.floating_base ? kBaseEquations : 0),
      f_(contacts.size()) {
  std::vector<std::string> torques;
  bool any = false;
  for (int k = first_torque_; k < model.nv; ++k) {
    torques.push_back(column_name("tau", model.tau_names[k]));
    any = any || header.index(torques.back()) >= 0;
  }
  // a floating base's own six equations need no joint torque: the contact forces alone give them
  if (model.floating_base && !contacts.contacts.empty() && !any) {
    equations_ = kBaseEquations;
  } else {
    torques_ = bind_columns(header, torques, file);
  }
  if (!contacts.contacts.empty()) {
    forces_ = bind_columns(header, rows::contact_force_columns(model, contacts), file);
    jacobian_.emplace(model, contacts);
  }
  inputs_ = torques_;
  inputs_.insert(inputs_.end(), forces_.begin(), forces_.end());
}

void MeasuredForces::compute(const rows::Sample& s, const Data* placed,
                             Eigen::Ref<Eigen::VectorXd> y) {
  y.setZero();
  for (std::size_t k = 0; k < torques_.size(); ++k) {
    y[first_torque_ + static_cast<Eigen::Index>(k)] = s.row[torques_[k]];
  }
  if (!jacobian_) return;
  if (placed != nullptr) {
    jacobian_->compute(*placed);
  } else {
    jacobian_->compute(s.q);
  }
  gather(s.row, forces_, f_);
  y.head(equations_).noalias() += jacobian_->jacobian().leftCols(equations_).transpose() * f_;
}

const BaseParameters& FitBase::over(int equations, const std::string& file) {
  if (base_) {
    if (equations != equations_) {
      throw InputError(file, 1, 0,
                       equations < model_.nv
                           ? "no tau.<joint> columns, where the logs before have them: give "
                             "every log the joint torques, or none"
                           : "tau.<joint> columns, where the logs before have none: give every "
                             "log the joint torques, or none");
    }
    return *base_;
  }
  equations_ = equations;
  base_ = base_parameters(model_, drive_, unknowns_, 0, 36, kBaseParameterTolerance, equations);
  if (equations < model_.nv) {
    notes_.warning(file +
                   ": no tau.<joint> columns: the floating base's six equations alone, "
                   "J_c^T f (the contact forces), identify the inertias; the friction and drive "
                   "columns enter none of them");
  }
  if (!base_->unaffecting.empty() && !notes_.quiet) {
    std::string list;
    for (const int c : base_->unaffecting) list += (list.empty() ? "" : ", ") + names_[c];
    notes_.warning("no torque depends on " + list + ": they keep the file's values");
  }
  return *base_;
}

}  // namespace eom::cli
