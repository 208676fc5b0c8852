#include "identify/identify_report.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <optional>

#include <Eigen/QR>

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
    return summary.largest_known[set] ? x : nlohmann::json(nullptr);
  };
  out["largest"] = known(l.value);
  out["largest_file"] = known(l.file);
  out["largest_line"] = known(l.line);
  out["largest_t"] = known(l.t);
  return out;
}

}  // namespace

void ResidualTally::add(int set, const TorqueResidualScan& scan, int equations,
                        const std::string& log) {
  if (summary_.coordinates.empty()) {
    summary_.coordinates.resize(equations);
    measured_.assign(equations, 0.0);
    for (auto& s : squares_) s.assign(equations, 0.0);
  }
  summary_.read = true;
  summary_.largest_known[set] = true;
  const long n = scan.rows();
  rows_[set] += n;
  for (size_t k = 0; k < summary_.coordinates.size(); ++k) {
    const TorqueResidualScan::Statistics s = scan.statistics(static_cast<int>(k));
    squares_[set][k] += s.rms * s.rms * static_cast<double>(n);
    if (set == 0) measured_[k] += s.measured_rms * s.measured_rms * static_cast<double>(n);
    ResidualSummary::Largest& l = summary_.coordinates[k].largest[set];
    if (n > 0 && (l.file.empty() || std::abs(s.largest.worst) > std::abs(l.value))) {
      l = {s.largest.worst, log, s.largest.worst_line, s.largest.worst_t};
    }
  }
}

ResidualSummary ResidualTally::summary() const {
  ResidualSummary summary = summary_;
  summary.rows = summary.largest_known[0] ? rows_[0] : rows_[1];
  for (size_t k = 0; k < summary.coordinates.size(); ++k) {
    ResidualSummary::Coordinate& c = summary.coordinates[k];
    c.measured_rms = std::sqrt(measured_[k] / static_cast<double>(std::max(1L, rows_[0])));
    for (int set = 0; set < 2; ++set) {
      c.rms[set] = std::sqrt(squares_[set][k] / static_cast<double>(std::max(1L, rows_[set])));
    }
  }
  return summary;
}

void scan_residuals(const RowOptions& rows, const std::vector<std::string>& logs,
                    const Model& model, const DriveParameters& drive, const ContactSet& contacts,
                    const std::vector<Eigen::VectorXd>& sets, int first_set, const Notes& notes,
                    ResidualTally& tally) {
  int equations = 0;  // the first log's
  for (const std::string& log : logs) {
    ParameterResiduals residuals(model, drive, sets);
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
    for (int set = 0; set < residuals.sets(); ++set) {
      tally.add(first_set + set, residuals.scan(set), equations, log);
    }
  }
}

ResidualSummary fit_residuals(const StreamingLeastSquares& fit, const Eigen::VectorXd& prior_base,
                              const Eigen::VectorXd& value_base, const ResidualSummary& tallied) {
  ResidualSummary summary = tallied;
  summary.rows = fit.rows();
  summary.coordinates.resize(fit.groups());
  const double rows = static_cast<double>(std::max(1L, fit.rows()));
  for (int g = 0; g < fit.groups(); ++g) {
    ResidualSummary::Coordinate& c = summary.coordinates[g];
    // the factor's last column holds Q^T y, whose norm is that of y: the measured torques less
    // the known parameters' (with --only), so the logs' own when they were read
    if (!tallied.read) {
      c.measured_rms = fit.factor(g).col(fit.unknowns()).norm() / std::sqrt(rows);
    }
    c.rms[0] = std::sqrt(fit.residual_squares(g, prior_base) / rows);
    c.rms[1] = std::sqrt(fit.residual_squares(g, value_base) / rows);
  }
  return summary;
}

void report_residuals(const std::string& what, const ResidualSummary& summary,
                      const std::vector<std::string>& names, std::ostream& out) {
  const bool prior = summary.largest_known[0], both = prior && summary.largest_known[1];
  out << "  " << what << " (" << summary.rows
      << " rows), joint: measured RMS, residual RMS of the file's model -> identified (% of "
         "measured)"
      << (both    ? "; largest residual of each"
          : prior ? "; largest residual of the file's model"
                  : "")
      << "\n";
  for (size_t k = 0; k < summary.coordinates.size(); ++k) {
    const ResidualSummary::Coordinate& c = summary.coordinates[k];
    out << "  " << names[k] << ": " << c.measured_rms << ", " << c.rms[0] << " ("
        << percent(c.rms[0], c.measured_rms) << "%) -> " << c.rms[1] << " ("
        << percent(c.rms[1], c.measured_rms) << "%)";
    if (prior) {
      const ResidualSummary::Largest& where = c.largest[both ? 1 : 0];
      out << "; " << c.largest[0].value;
      if (both) out << " -> " << c.largest[1].value;
      out << " (" << (where.file == "-" ? "<stdin>" : where.file) << " line " << where.line << ")";
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

std::vector<int> undetermined(const StreamingLeastSquares& fit,
                              const StreamingLeastSquares::Solution& solution,
                              double max_condition) {
  const int n = fit.unknowns();
  const Eigen::VectorXd& sigma = solution.singular_values;
  // below the largest over max_condition, or zero (all of them when the largest is), or NaN
  const long deficient =
      n == 0 ? 0 : (!(sigma.array() >= sigma[0] / max_condition && sigma.array() > 0)).count();
  if (deficient == 0) return {};
  const Eigen::MatrixXd R = fit.combined(solution.weights).topLeftCorner(n, n);
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(R);
  std::vector<int> out;
  for (long k = n - deficient; k < n; ++k) out.push_back(qr.colsPermutation().indices()[k]);
  std::sort(out.begin(), out.end());
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
