// eom check --against: a model's torques (with the file's friction and armature) against the
// measured torques of logs.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <eom/multibody/model.hpp>
#include <eom/rows/run.hpp>

namespace eom::cli {

struct AgainstOptions {
  std::vector<std::string> logs;
  double tolerance = INFINITY;  // relative RMS residual over which a joint fails
  bool quiet = false;
};

/// Reads each log (t, q.<joint>, v and a derived when absent as eom id derives them, measured
/// tau.<joint>), reports per joint the RMS and largest residual and the relative RMS on io.out
/// (text) or into `json` (one object per log, when not null). Returns kExitFailure when a joint's
/// relative RMS exceeds the tolerance in some log, kExitOk otherwise; InputError propagates.
int check_against(const Model& model, const AgainstOptions& opt, rows::Streams& io,
                  nlohmann::ordered_json* json);

}  // namespace eom::cli
