// The measured side of the equations of motion eom identify fits, M a + h = S^T tau + J_c^T f,
// per row of a log: the joint torques tau.<joint> and, with --contacts, the contact forces
// f.<frame>.* eom id --contacts writes (world axes at each frame origin, doc/contacts.md); and
// the base parameters over the equations the logs give (FitBase).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <eom/algorithm/contact_jacobian.hpp>
#include <eom/io/table.hpp>
#include <eom/multibody/data.hpp>
#include <eom/rows/row_engine.hpp>
#include <eom/trajectory/identification.hpp>

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

/// The base parameters of the unknowns over the equations the logs give: every coordinate's, or a
/// floating base's six alone when a log has no tau.<joint> (MeasuredForces). Found once the first
/// log says which (a fixed base's at once); every other log must give the same equations.
class FitBase {
 public:
  FitBase(const Model& model, const DriveParameters& drive, const std::vector<int>& unknowns,
          const std::vector<std::string>& names, const rows::Notes& notes)
      : model_(model), drive_(drive), unknowns_(unknowns), names_(names), notes_(notes) {}
  /// The base parameters over `equations` (MeasuredForces::equations of the log `file`): found
  /// at the first call, with its warnings; InputError (file, line 1) for other equations after.
  const BaseParameters& over(int equations, const std::string& file);
  const BaseParameters& get() const { return *base_; }

 private:
  const Model& model_;
  const DriveParameters& drive_;
  const std::vector<int>& unknowns_;
  const std::vector<std::string>& names_;
  const rows::Notes& notes_;
  std::optional<BaseParameters> base_;
  int equations_ = 0;
};

}  // namespace eom::cli
