// Measured joint forces against the model's, the columns and report that eom id --residual and
// eom check --against share.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <eom/io/table.hpp>
#include <eom/multibody/model.hpp>
#include <eom/trajectory/residuals.hpp>

#include <eom/rows/row_output.hpp>

namespace eom::rows {

/// The measured tau.<coordinate> columns of a log, for every coordinate but a free-flyer's (which
/// no log measures), against the model's tau: residual = measured - model per row, tallied.
class TorqueResiduals {
 public:
  /// Binds the columns; throws InputError naming the file and every missing column.
  TorqueResiduals(const Model& model, const Header& header, const std::string& file);
  /// The input columns read (measured tau), in coordinate order.
  const std::vector<int>& inputs() const { return inputs_; }
  /// The output columns residual.<coordinate>.
  std::vector<std::string> columns() const;
  /// One row: tau is the model's (nv); writes the residuals to out when not null and returns the
  /// position after them. Allocates nothing.
  double* observe(const std::vector<double>& row, ConstVec tau, double t, int line, double* out);
  /// One line per coordinate on notes.out (unless quiet): its residual's RMS, its size relative
  /// to the measured RMS, and its largest value and where; ", over the tolerance" after those whose
  /// relative RMS exceeds `tolerance` (none when it is infinite).
  void report(const Notes& notes, const std::string& file, double tolerance = INFINITY) const;
  /// Whether a coordinate's relative RMS exceeds `tolerance`.
  bool exceeds(double tolerance) const;
  /// {"rows", "residuals": [{coordinate, rms, measured_rms, relative_rms, largest, largest_t,
  /// largest_line}]} (null for an infinite relative RMS).
  nlohmann::json json() const;

 private:
  std::vector<std::string> names_;  // the coordinates
  std::vector<int> coordinates_;    // their velocity indices
  std::vector<int> inputs_;
  TorqueResidualScan scan_;
  Eigen::VectorXd measured_, model_, residual_;
};

}  // namespace eom::rows
