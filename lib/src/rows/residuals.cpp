#include "eom/rows/residuals.hpp"

#include <cmath>
#include <sstream>

#include <eom/io/column_names.hpp>
#include <eom/io/columns.hpp>

namespace eom::rows {
namespace {

// The coordinates a log measures: every one but a free-flyer's.
std::vector<int> measured_coordinates(const Model& model) {
  std::vector<int> out;
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    if (is_floating(j)) continue;
    for (int r = j.idx_v; r < j.idx_v + j.nv; ++r) out.push_back(r);
  }
  return out;
}

std::vector<std::string> prefixed(const std::vector<std::string>& names,
                                  const std::string& prefix) {
  std::vector<std::string> out;
  out.reserve(names.size());
  for (const std::string& n : names) out.push_back(column_name(prefix, n));
  return out;
}

}  // namespace

TorqueResiduals::TorqueResiduals(const Model& model, const Header& header, const std::string& file)
    : coordinates_(measured_coordinates(model)),
      scan_(static_cast<int>(coordinates_.size())),
      measured_(coordinates_.size()),
      model_(coordinates_.size()),
      residual_(coordinates_.size()) {
  for (const int r : coordinates_) names_.push_back(model.tau_names[r]);
  inputs_ = bind_columns(header, prefixed(names_, "tau"), file);
}

std::vector<std::string> TorqueResiduals::columns() const { return prefixed(names_, "residual"); }

double* TorqueResiduals::observe(const std::vector<double>& row, ConstVec tau, double t, int line,
                                 double* out) {
  gather(row, inputs_, measured_);
  for (size_t k = 0; k < coordinates_.size(); ++k) {
    model_[static_cast<Eigen::Index>(k)] = tau[coordinates_[k]];
  }
  scan_.observe(measured_, model_, t, line, residual_);
  if (!out) return out;
  for (Eigen::Index k = 0; k < residual_.size(); ++k) *out++ = residual_[k];
  return out;
}

void TorqueResiduals::report(const Notes& notes, const std::string& file, double tolerance) const {
  if (notes.quiet) return;
  std::ostringstream out;
  out << "eom " << notes.command << ": " << file << ": measured - model tau over " << scan_.rows()
      << (scan_.rows() == 1 ? " row" : " rows") << ":\n";
  for (size_t k = 0; k < names_.size(); ++k) {
    const TorqueResidualScan::Statistics s = scan_.statistics(static_cast<int>(k));
    out << "  " << names_[k] << ": RMS " << s.rms << " (" << 100 * s.relative_rms
        << "% of the measured RMS " << s.measured_rms << "), largest " << s.largest.worst
        << " at t=" << s.largest.worst_t << " (line " << s.largest.worst_line << ")"
        << (s.relative_rms > tolerance ? ", over the tolerance" : "") << "\n";
  }
  notes.out << out.str();
}

bool TorqueResiduals::exceeds(double tolerance) const {
  for (size_t k = 0; k < names_.size(); ++k) {
    if (scan_.statistics(static_cast<int>(k)).relative_rms > tolerance) return true;
  }
  return false;
}

nlohmann::json TorqueResiduals::json() const {
  nlohmann::json list = nlohmann::json::array();
  for (size_t k = 0; k < names_.size(); ++k) {
    const TorqueResidualScan::Statistics s = scan_.statistics(static_cast<int>(k));
    list.push_back({{"coordinate", names_[k]},
                    {"rms", s.rms},
                    {"measured_rms", s.measured_rms},
                    {"relative_rms", std::isfinite(s.relative_rms) ? nlohmann::json(s.relative_rms)
                                                                   : nlohmann::json(nullptr)},
                    {"largest", s.largest.worst},
                    {"largest_t", s.largest.worst_t},
                    {"largest_line", s.largest.worst_line}});
  }
  return {{"rows", scan_.rows()}, {"residuals", list}};
}

}  // namespace eom::rows
