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
  bool largest_known = false;  // the logs were read for the largest residuals
  std::vector<Coordinate> coordinates;
};

/// The residuals of `prior` and `value` over `logs`, each read, bound and derived as the fit read
/// them (rows: the run's options), the measured side S^T tau + J_c^T f (MeasuredForces) over the
/// equations the logs give (the first log's; InputError for a log that gives others); InputError
/// propagates.
ResidualSummary scan_residuals(const rows::RowOptions& rows, const std::vector<std::string>& logs,
                               const Model& model, const DriveParameters& drive,
                               const ContactSet& contacts, const Eigen::VectorXd& prior,
                               const Eigen::VectorXd& value, const rows::Notes& notes);

/// The fit's own residuals from its factor: exact RMS over every row, whatever was read; the
/// measured RMS and the largest residuals are those of `scanned` when it read the logs again
/// (not when one was stdin; an empty `scanned`).
ResidualSummary fit_residuals(const StreamingLeastSquares& fit, const Eigen::VectorXd& prior_base,
                              const Eigen::VectorXd& value_base, const ResidualSummary& scanned);

/// Per joint: "name: measured RMS, RMS of the file's model (% of measured) -> identified's (%);
/// largest file's -> identified's", under a line naming `what`.
void report_residuals(const std::string& what, const ResidualSummary& summary,
                      const std::vector<std::string>& names, std::ostream& out);
/// {"rows", "residuals": [{coordinate, measured_rms, prior: {rms, relative_rms, largest,
/// largest_file, largest_line, largest_t}, identified: {...}}]}.
nlohmann::json residuals_json(const ResidualSummary& summary,
                              const std::vector<std::string>& names);

/// The base parameters of largest relative standard deviation (std / |value|), worst first, at
/// most `count`: what the logs determine least.
std::vector<int> worst_determined(const StreamingLeastSquares::Solution& solution, int count);

}  // namespace eom::cli
