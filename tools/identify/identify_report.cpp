#include "identify/identify_report.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <optional>

#include <eom/io/column_names.hpp>
#include <eom/io/columns.hpp>

#include "identify/measured_forces.hpp"

namespace eom::cli {
namespace {

using namespace eom::rows;

// One log's rows into the residuals of the two parameter sets (on the equations the log gives;
// the others' residuals are not read).
class ResidualTask final : public RowTask {
 public:
  ResidualTask(const Model& model, ParameterResiduals& residuals,
               std::unique_ptr<MeasuredForces> measured)
      : residuals_(residuals), measured_(std::move(measured)), tau_(model.nv) {
    inputs = measured_->inputs();
  }
  void compute(const Sample& s, double*) override {
    measured_->compute(s, nullptr, tau_);
    residuals_.observe(s.q, s.dq.col(0), s.dq.col(1), tau_, s.t, s.line);
  }

 private:
  ParameterResiduals& residuals_;
  std::unique_ptr<MeasuredForces> measured_;
  Eigen::VectorXd tau_;
};

double percent(double x, double of) { return of > 0 ? 100 * x / of : 0.0; }

nlohmann::json set_json(const ResidualSummary& summary, const ResidualSummary::Coordinate& c,
                        int set) {
  nlohmann::json out;
  out["rms"] = c.rms[set];
  out["relative_rms"] =
      c.measured_rms > 0 ? nlohmann::json(c.rms[set] / c.measured_rms) : nlohmann::json(nullptr);
  const ResidualSummary::Largest& l = c.largest[set];
  const auto known = [&](const nlohmann::json& x) {
    return summary.largest_known ? x : nlohmann::json(nullptr);
  };
  out["largest"] = known(l.value);
  out["largest_file"] = known(l.file);
  out["largest_line"] = known(l.line);
  out["largest_t"] = known(l.t);
  return out;
}

}  // namespace

ResidualSummary scan_residuals(const RowOptions& rows, const std::vector<std::string>& logs,
                               const Model& model, const DriveParameters& drive,
                               const ContactSet& contacts, const Eigen::VectorXd& prior,
                               const Eigen::VectorXd& value, const Notes& notes) {
  ResidualSummary summary;
  summary.largest_known = true;
  int equations = 0;  // the first log's
  std::vector<double> measured(model.nv, 0.0), squares[2];
  for (auto& s : squares) s.assign(model.nv, 0.0);
  for (const std::string& log : logs) {
    ParameterResiduals residuals(model, drive, {prior, value});
    const RowCommand command{
        "identify", 2, {}, [&](const Header& header, const std::string& file, const Notes&) {
          auto task = std::make_unique<MeasuredForces>(model, contacts, header, file);
          if (equations == 0) equations = task->equations();
          if (task->equations() != equations) {
            throw InputError(file, 1, 0,
                             "the logs give other equations than this one: give every log the "
                             "joint torques tau.<joint>, or none");
          }
          return std::make_unique<ResidualTask>(model, residuals, std::move(task));
        }};
    scan_table(rows, model, command, log, notes);
    summary.coordinates.resize(equations);
    const long n = residuals.scan(0).rows();
    summary.rows += n;
    for (int k = 0; k < equations; ++k) {
      ResidualSummary::Coordinate& c = summary.coordinates[k];
      for (int set = 0; set < 2; ++set) {
        const TorqueResidualScan::Statistics s = residuals.scan(set).statistics(k);
        squares[set][k] += s.rms * s.rms * static_cast<double>(n);
        if (set == 0) measured[k] += s.measured_rms * s.measured_rms * static_cast<double>(n);
        ResidualSummary::Largest& l = c.largest[set];
        // the first log's on ties, as within a log
        if (n > 0 && (l.file.empty() || std::abs(s.largest.worst) > std::abs(l.value))) {
          l = {s.largest.worst, log, s.largest.worst_line, s.largest.worst_t};
        }
      }
    }
  }
  const double rows_read = static_cast<double>(std::max(1L, summary.rows));
  for (int k = 0; k < equations; ++k) {
    ResidualSummary::Coordinate& c = summary.coordinates[k];
    c.measured_rms = std::sqrt(measured[k] / rows_read);
    for (int set = 0; set < 2; ++set) c.rms[set] = std::sqrt(squares[set][k] / rows_read);
  }
  return summary;
}

ResidualSummary fit_residuals(const StreamingLeastSquares& fit, const Eigen::VectorXd& prior_base,
                              const Eigen::VectorXd& value_base, const ResidualSummary& scanned) {
  ResidualSummary summary = scanned;
  summary.rows = fit.rows();
  summary.coordinates.resize(fit.groups());
  const double rows = static_cast<double>(std::max(1L, fit.rows()));
  for (int g = 0; g < fit.groups(); ++g) {
    ResidualSummary::Coordinate& c = summary.coordinates[g];
    // the factor's last column holds Q^T y, whose norm is that of y: the measured torques less
    // the known parameters' (with --only), so the logs' own when they were read again
    if (!scanned.largest_known) {
      c.measured_rms = fit.factor(g).col(fit.unknowns()).norm() / std::sqrt(rows);
    }
    c.rms[0] = std::sqrt(fit.residual_squares(g, prior_base) / rows);
    c.rms[1] = std::sqrt(fit.residual_squares(g, value_base) / rows);
  }
  return summary;
}

void report_residuals(const std::string& what, const ResidualSummary& summary,
                      const std::vector<std::string>& names, std::ostream& out) {
  out << "  " << what << " (" << summary.rows
      << " rows), joint: measured RMS, residual RMS of the file's model -> identified (% of "
         "measured)"
      << (summary.largest_known ? "; largest residual of each" : "") << "\n";
  for (size_t k = 0; k < summary.coordinates.size(); ++k) {
    const ResidualSummary::Coordinate& c = summary.coordinates[k];
    out << "  " << names[k] << ": " << c.measured_rms << ", " << c.rms[0] << " ("
        << percent(c.rms[0], c.measured_rms) << "%) -> " << c.rms[1] << " ("
        << percent(c.rms[1], c.measured_rms) << "%)";
    if (summary.largest_known) {
      out << "; " << c.largest[0].value << " -> " << c.largest[1].value << " (" << c.largest[1].file
          << " line " << c.largest[1].line << ")";
    }
    out << "\n";
  }
}

nlohmann::json residuals_json(const ResidualSummary& summary,
                              const std::vector<std::string>& names) {
  nlohmann::json list = nlohmann::json::array();
  for (size_t k = 0; k < summary.coordinates.size(); ++k) {
    const ResidualSummary::Coordinate& c = summary.coordinates[k];
    nlohmann::json entry;
    entry["coordinate"] = names[k];
    entry["measured_rms"] = c.measured_rms;
    entry["prior"] = set_json(summary, c, 0);
    entry["identified"] = set_json(summary, c, 1);
    list.push_back(entry);
  }
  nlohmann::json out;
  out["rows"] = summary.rows;
  out["residuals"] = list;
  return out;
}

std::vector<int> worst_determined(const StreamingLeastSquares::Solution& solution, int count) {
  std::vector<int> order(solution.x.size());
  std::iota(order.begin(), order.end(), 0);
  const auto relative = [&](int k) { return solution.std[k] / std::abs(solution.x[k]); };
  // a relative std that is not a number (0 / 0) ranks last; ties keep the base order
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const double x = relative(a), y = relative(b);
    return std::isnan(y) ? !std::isnan(x) : x > y;
  });
  order.resize(std::min<size_t>(order.size(), static_cast<size_t>(std::max(0, count))));
  return order;
}

}  // namespace eom::cli
