// eom identify's report: per joint the residuals of the file's model and of the identified one on
// the fit's logs and on held-out ones (--validate), the rows, the condition number and the
// worst-determined base parameters; on stderr and as the --summary-json object.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <eom/algorithm/contact_set.hpp>
#include <eom/rows/row_engine.hpp>
#include <eom/trajectory/residuals.hpp>
#include <eom/trajectory/identification.hpp>

namespace eom::cli {

/// Per coordinate over some logs: the measured torque's RMS and, for the file's parameters
/// (set 0) and the identified ones (set 1), the residual's RMS and its largest value, with the
/// file, line and t where it is.
struct ResidualSummary {
  struct Largest {
    double value = 0;
    std::string file;
    int line = 0;
    double t = 0;
  };
  struct Coordinate {
    double measured_rms = 0;
    double rms[2] = {0, 0};
    Largest largest[2];
  };
  long rows = 0;
  bool read = false;                       // the logs' rows were tallied: the measured RMS
  bool largest_known[2] = {false, false};  // per set: its largest residuals were tallied
  std::vector<Coordinate> coordinates;
};

/// Per-log residual scans (TorqueResidualScan) summed, log after log, into a ResidualSummary:
/// each set's squares, and its largest residual where it beats the logs' before (the first log's
/// on ties, as within a log); over the equations the logs give (MeasuredForces::equations).
class ResidualTally {
 public:
  /// One log's scan of parameter set `set` (0: the file's, 1: the identified), its first
  /// `equations` coordinates (the log's; the first log's size the tally, every log must give
  /// the same); set 0's also gives the measured side's squares.
  void add(int set, const TorqueResidualScan& scan, int equations, const std::string& log);
  ResidualSummary summary() const;

 private:
  ResidualSummary summary_;
  std::vector<double> measured_, squares_[2];
  long rows_[2] = {0, 0};
};

/// The residuals of parameter sets `first_set`, `first_set` + 1, ... (`sets`, values in the
/// regressor's column order) over `logs`, each read, bound and derived as the fit read them
/// (rows: the run's options), the measured side S^T tau + J_c^T f (MeasuredForces) over the
/// equations the logs give (the first log's; InputError for a log that gives others), into
/// `tally`; InputError propagates.
void scan_residuals(const rows::RowOptions& rows, const std::vector<std::string>& logs,
                    const Model& model, const DriveParameters& drive, const ContactSet& contacts,
                    const std::vector<Eigen::VectorXd>& sets, int first_set,
                    const rows::Notes& notes, ResidualTally& tally);

/// The fit's own residuals from its factor: exact RMS over every row, whatever was read; the
/// measured RMS and the largest residuals are those of `tallied` when its logs were read (an
/// empty `tallied` for a merge, which reads none: the measured RMS from the factor then).
ResidualSummary fit_residuals(const StreamingLeastSquares& fit, const Eigen::VectorXd& prior_base,
                              const Eigen::VectorXd& value_base, const ResidualSummary& tallied);

/// Per joint: "name: measured RMS, RMS of the file's model (% of measured) -> identified's (%)",
/// then the largest residuals tallied: "; file's -> identified's (where the identified's is)", or
/// "; file's (where)" when only the file's model's were; under a line naming `what`.
void report_residuals(const std::string& what, const ResidualSummary& summary,
                      const std::vector<std::string>& names, std::ostream& out);
/// {"rows", "residuals": [{coordinate, measured_rms, prior: {rms, relative_rms, largest,
/// largest_file, largest_line, largest_t}, identified: {...}}]}; the largest null where they were
/// not tallied.
nlohmann::json residuals_json(const ResidualSummary& summary,
                              const std::vector<std::string>& names);

/// The base parameters the logs do not determine, when the weighted base regressor's condition
/// number exceeds `max_condition` (solution.x empty): as many as its singular values under the
/// largest over `max_condition`, and which ones by a column-pivoting QR of its factor (Gautier's
/// numerical method, as for the base parameters themselves): the columns it leaves last, each
/// a combination of the others' to that precision. In base order.
std::vector<int> undetermined(const StreamingLeastSquares& fit,
                              const StreamingLeastSquares::Solution& solution,
                              double max_condition);

/// The base parameters of largest relative standard deviation (std / |value|), worst first, at
/// most `count`: what the logs determine least.
std::vector<int> worst_determined(const StreamingLeastSquares::Solution& solution, int count);

}  // namespace eom::cli
