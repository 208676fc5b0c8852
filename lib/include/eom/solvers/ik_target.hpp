// A frame's target pose and error weights from the named values of a table row, as `eom ik`
// reads them: the position <frame>.x .y .z; the orientation as a quaternion <frame>.qx .qy .qz
// .qw (what eom fk writes), a rotation matrix <frame>.R.<row>.<col> (rows and columns x, y, z)
// or roll-pitch-yaw angles <frame>.roll .pitch .yaw; per-row weights ik.weight.x .y .z .rx .ry
// .rz in place of the run's.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "eom/io/table.hpp"
#include "eom/multibody/spatial.hpp"
#include "eom/solvers/ik.hpp"
#include "eom/trajectory/row_statistics.hpp"

namespace eom {

/// How a table gives the target orientation.
enum class TargetOrientation { none, quaternion, matrix, rpy };

/// The columns of a table's header that hold a frame's targets.
class IkTargetColumns {
 public:
  /// Binds the columns of `frame`'s target in `header`. The position is read when a position
  /// weight of `weights` (the run's) is positive or the table has a position weight column; the
  /// orientation likewise, in whichever form the table gives it. Throws InputError at line 1 of
  /// `file` for missing columns or an orientation given in two forms.
  IkTargetColumns(const Header& header, const std::string& frame, const Vec6& weights,
                  const std::string& file);

  /// Every column read(), which must hold numbers.
  const std::vector<int>& columns() const { return columns_; }
  TargetOrientation orientation() const { return orientation_; }

  /// The target placement and weights of the row on line `line` at time t into problem.target
  /// and problem.weights (the run's weights where the table has no weight column). A target
  /// rotation a little off is normalised (checked_quaternion, checked_rotation_matrix) and
  /// counted in normalised(). Throws InputError (without a location) for a rotation beyond
  /// repair or weights that are negative or select nothing.
  void read(const std::vector<double>& row, int line, double t, IkProblem& problem);
  /// The rows whose target rotation was normalised; worst: how far it was from one (| |q| - 1 |,
  /// or the largest entry of the correction of R).
  const RowTally& normalised() const { return normalised_; }

 private:
  Vec6 weights_;
  std::array<int, 3> position_{-1, -1, -1};
  TargetOrientation orientation_ = TargetOrientation::none;
  std::array<int, 9> rotation_{};  // the orientation columns, in the order of its form
  std::array<int, 6> weight_{};    // -1: the run's weight
  std::vector<int> columns_;
  RowTally normalised_;
};

}  // namespace eom
