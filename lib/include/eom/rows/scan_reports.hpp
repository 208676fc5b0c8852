// The reports of the library's scans over table rows (eom/trajectory): on stderr and in
// --summary-json.
#pragma once

#include <string>

#include <eom/multibody/model.hpp>
#include <eom/trajectory/scan.hpp>
#include <eom/trajectory/verify.hpp>

#include <nlohmann/json.hpp>

#include <eom/rows/row_output.hpp>

namespace eom::rows {

/// eom id: one line per coordinate over its effort limit, at most ten, the rest counted; errors
/// when the run fails on them, warnings otherwise.
void report_limits(const EffortLimitScan& scan, const Model& model, const std::string& file,
                   const Notes& notes, bool failing);
/// One object per coordinate that exceeded its limit, all of them.
nlohmann::json limits_json(const EffortLimitScan& scan, const Model& model);

/// eom deriv --verify: the worst residual of each quantity; false when a check fails.
bool report_check(const TimeDerivativeCheck& check, const std::string& file, const Notes& notes,
                  double tolerance);
/// The same for --summary-json.
nlohmann::json check_json(const TimeDerivativeCheck& check, double tolerance);

}  // namespace eom::rows
