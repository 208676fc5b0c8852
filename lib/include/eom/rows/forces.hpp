// Joint friction and external wrenches, read the same way by every subcommand that applies
// forces (eom id, eom fd, eom deriv).
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/multibody/model.hpp>
#include <eom/io/table.hpp>

namespace eom::rows {

struct ForceOptions {
  bool friction = false;  // add URDF (or --friction-file) joint friction
  std::string friction_file;
  double friction_smoothing = 0;  // eps of tanh(v / eps); 0 = exact sign
  std::string wrench_frame = "world";
};

/// The URDF friction of the model, overridden by --friction-file
/// ({"<joint>": {"damping": Fv, "friction": Fs}, ...}).
Friction load_friction(const Model& model, const ForceOptions& opt);
/// The JSON text of a friction file (`name` in messages) over `friction`: throws InputError
/// naming the file for anything but {"<1-DoF joint>": {"damping": x >= 0, "friction": y >= 0}}
/// (and, as for every JSON file eom reads, nesting beyond 100 deep or a key given twice).
Friction read_friction(const Model& model, const std::string& text, const std::string& name,
                       Friction friction);

/// The wrench.<frame>.fx .fy .fz .mx .my .mz columns of one table: wrenches acting ON the robot
/// at the frame's origin, in world axes (or the frame's with --wrench-frame local).
class ExternalWrenches {
 public:
  /// Binds the columns; throws InputError naming the file for an unknown frame or a partial set.
  ExternalWrenches(const Model& model, const Header& header, const std::string& file,
                   const ForceOptions& opt);
  bool empty() const { return frames_.empty(); }
  /// The input columns they are read from, six per frame (fx fy fz mx my mz).
  const std::vector<int>& columns() const { return columns_; }
  /// The frames (model.frames indices) they act on, and the axes they are given in.
  const std::vector<int>& frames() const { return frames_; }
  ReferenceFrame reference() const { return reference_; }
  /// The input columns of the wrenches and of their first `order` time derivatives, all required
  /// (a measured wrench's derivatives are not derived): wrench.<frame>.* then d<k>wrench.<frame>.*
  /// for k = 1..order, column r of the six per frame of order k at [k * 6 frames + r].
  std::vector<int> series_columns(const Model& model, const Header& header, const std::string& file,
                                  int order) const;
  /// The term they add to the joint forces tau of the equations of motion: -J^T F (the actuators
  /// need J^T F less when the environment pushes with F). Allocates nothing.
  void term(const Model& model, Data& data, ConstVec q, const std::vector<double>& row, VecRef out);

 private:
  ReferenceFrame reference_;
  std::vector<int> frames_, columns_;
  Eigen::VectorXd wrenches_;
};

}  // namespace eom::rows
