// The measured side of the equations of motion eom identify fits, M a + h = S^T tau + J_c^T f,
// per row of a log: the joint torques tau.<joint> and, with --contacts, the contact forces
// f.<frame>.* eom id --contacts writes (world axes at each frame origin, doc/contacts.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <eom/algorithm/contact_jacobian.hpp>
#include <eom/io/table.hpp>
#include <eom/multibody/data.hpp>
#include <eom/rows/row_engine.hpp>

namespace eom::cli {

/// The six equations of a floating base: its coordinates come first in v.
inline constexpr int kBaseEquations = 6;

/// Per row, y = S^T tau + J_c^T f over the equations a log gives: every coordinate's (a fixed
/// base, or a floating one whose log has the actuated joints' tau.<joint>), or, for a floating
/// base whose log has no tau.<joint> at all, the base's six alone (they hold no joint torque).
/// A floating base's rows have no tau of their own (Sᵀ selects the actuated joints, as eom id
/// writes them). contact.<frame> columns are not read: a contact that does not hold carries a zero
/// force, which is what its columns then hold.
class MeasuredForces {
 public:
  /// Binds the columns of `header`: the tau.<joint> of every actuated coordinate (or of none, for
  /// a floating base with contacts) and f.<frame>.* of every contact; InputError naming the
  /// missing ones (file, line 1).
  MeasuredForces(const Model& model, const ContactSet& contacts, const Header& header,
                 const std::string& file);
  /// The equations the log gives: model.nv, or kBaseEquations (no tau.<joint> in the log).
  int equations() const { return equations_; }
  /// The columns read, as RowTask::inputs (filtered with q by --filter).
  const std::vector<int>& inputs() const { return inputs_; }
  /// y (model.nv; the rows past equations() zero) of the row `s`, J_c at the joint placements of
  /// `placed` (a pass over every joint at s.q: placed.liMi) or, when null, at s.q.
  void compute(const rows::Sample& s, const Data* placed, Eigen::Ref<Eigen::VectorXd> y);

 private:
  const Model& model_;
  int equations_ = 0;
  int first_torque_ = 0;  // the first coordinate with a tau.<joint> column
  std::vector<int> torques_, forces_, inputs_;
  std::optional<ContactJacobian> jacobian_;
  Eigen::VectorXd f_;
};

}  // namespace eom::cli
