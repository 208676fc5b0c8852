#include "eom/rows/scan_reports.hpp"

#include <sstream>

#include <eom/core/number_text.hpp>
#include <eom/io/column_names.hpp>

namespace eom::rows {

void report_limits(const EffortLimitScan& scan, const Model& model, const std::string& file,
                   const Notes& notes, bool failing) {
  constexpr int kShown = 10;
  int shown = 0, more = 0;
  for (int k = 0; k < model.nv; ++k) {
    const RowTally& e = scan.excesses()[k];
    if (e.rows == 0) continue;
    if (shown == kShown) {
      ++more;
      continue;
    }
    ++shown;
    std::ostringstream line;
    line << file << ": tau." << model.tau_names[k] << " exceeds its effort limit "
         << number_text(model.effort_limit[k]) << " in " << e.rows
         << (e.rows == 1 ? " row" : " rows") << ": first at t=" << number_text(e.first_t)
         << " (line " << e.first_line << "), worst " << number_text(e.worst)
         << " at t=" << number_text(e.worst_t);
    failing ? notes.error(line.str()) : notes.warning(line.str());
  }
  if (more > 0) {
    const std::string line = file + ": and " + std::to_string(more) +
                             " more joint coordinates exceed their effort limits";
    failing ? notes.error(line) : notes.warning(line);
  }
}

nlohmann::json limits_json(const EffortLimitScan& scan, const Model& model) {
  nlohmann::json out = nlohmann::json::array();
  for (int k = 0; k < model.nv; ++k) {
    const RowTally& e = scan.excesses()[k];
    if (e.rows == 0) continue;
    out.push_back({{"column", column_name("tau", model.tau_names[k])},
                   {"limit", model.effort_limit[k]},
                   {"rows", e.rows},
                   {"first_t", e.first_t},
                   {"first_line", e.first_line},
                   {"worst", e.worst},
                   {"worst_t", e.worst_t},
                   {"worst_line", e.worst_line}});
  }
  return out;
}

bool report_check(const TimeDerivativeCheck& check, const std::string& file, const Notes& notes,
                  double tolerance) {
  const RowTally& not_spd = check.not_positive_definite();
  bool ok = not_spd.rows == 0;
  std::ostringstream out;
  out << "eom deriv: verify: " << file << ": ";
  if (not_spd.rows == 0) {
    out << "M symmetric positive definite on all " << check.rows() << " rows\n";
  } else {
    out << "M not positive definite on " << not_spd.rows << " rows, first at line "
        << not_spd.first_line << "\n";
  }
  const int order = check.order();
  for (int k = 0; k <= order + 1; ++k) {
    const std::string what =
        k == 0       ? "tau - (M a + C v + g - J^T F)"
        : k <= order ? "d" + std::to_string(k) + "tau - finite differences of " +
                           (k == 1 ? std::string("tau") : "d" + std::to_string(k - 1) + "tau")
                     : "C + C^T - finite differences of M (dM/dt)";
    const TimeDerivativeCheck::Result c = check.result(k, tolerance);
    if (!c.checked) {
      out << "  " << what << ": not checked (fewer than 3 rows)\n";
      continue;
    }
    ok = ok && c.pass;
    out << "  " << what << ": worst " << number_text(c.relative) << " relative ("
        << number_text(check.residual(k).worst) << " absolute, line "
        << check.residual(k).worst_line << ")" << (c.pass ? "" : ", over the tolerance") << "\n";
  }
  notes.out << out.str();
  return ok;
}

nlohmann::json check_json(const TimeDerivativeCheck& check, double tolerance) {
  nlohmann::json checks = nlohmann::json::array();
  const int order = check.order();
  for (int k = 0; k <= order + 1; ++k) {
    const TimeDerivativeCheck::Result c = check.result(k, tolerance);
    const auto when = [&](auto x) { return c.checked ? nlohmann::json(x) : nlohmann::json(); };
    checks.push_back({{"quantity", k == 0       ? std::string("tau")
                                   : k <= order ? "d" + std::to_string(k) + "tau"
                                                : std::string("Mdot")},
                      {"checked", c.checked},
                      {"relative", when(c.relative)},
                      {"absolute", when(check.residual(k).worst)},
                      {"line", when(check.residual(k).worst_line)},
                      {"pass", when(c.pass)}});
  }
  const RowTally& not_spd = check.not_positive_definite();
  return {
      {"tolerance", tolerance},
      {"rows", check.rows()},
      {"not_positive_definite",
       {{"rows", not_spd.rows},
        {"first_line", not_spd.rows > 0 ? nlohmann::json(not_spd.first_line) : nlohmann::json()}}},
      {"checks", checks}};
}

}  // namespace eom::rows
