#include "check/check_against.hpp"

#include <memory>
#include <optional>

#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/multibody/data.hpp>
#include <eom/rows/residuals.hpp>
#include <eom/rows/row_engine.hpp>

namespace eom::cli {
namespace {

using namespace eom::rows;

// The model's torque of a row, as eom id --friction computes it, against the measured one.
class AgainstTask final : public RowTask {
 public:
  AgainstTask(const Model& model, TorqueResiduals& residuals)
      : model_(model),
        residuals_(residuals),
        data_(model),
        friction_(Friction::from_model(model)),
        tau_(model.nv),
        friction_term_(model.nv) {
    inputs = residuals.inputs();
  }
  void compute(const Sample& s, double*) override {
    tau_ = rnea(model_, data_, s.q, s.dq.col(0), s.dq.col(1));
    friction_torque(friction_, s.dq.col(0), friction_term_);
    tau_ += friction_term_;
    residuals_.observe(s.row, tau_, s.t, s.line, nullptr);
  }

 private:
  const Model& model_;
  TorqueResiduals& residuals_;
  Data data_;
  const Friction friction_;
  Eigen::VectorXd tau_, friction_term_;
};

// One log: the residuals of every row.
TorqueResiduals residuals_of(const Model& model, const std::string& path, const Notes& notes) {
  std::optional<TorqueResiduals> residuals;
  RowCommand command{"check", 2, {}, nullptr};
  command.make_task = [&](const Header& header, const std::string& file, const Notes&) {
    residuals.emplace(model, header, file);
    return std::make_unique<AgainstTask>(model, *residuals);
  };
  scan_table(RowOptions{}, model, command, path, notes);
  return std::move(*residuals);
}

}  // namespace

int check_against(const Model& model, const AgainstOptions& opt, Streams& io,
                  nlohmann::ordered_json* json) {
  // warnings (what was derived) on stderr, the report where eom check reports
  const Notes warnings{io.err, "check", opt.quiet, nullptr, io.names};
  const Notes report{io.out, "check", false, nullptr, io.names};
  bool failed = false;
  for (const std::string& log : opt.logs) {
    const TorqueResiduals residuals = residuals_of(model, log, warnings);
    const bool exceeds = residuals.exceeds(opt.tolerance);
    failed = failed || exceeds;
    if (json) {
      nlohmann::ordered_json entry;
      entry["file"] = log;
      entry["status"] = exceeds ? "failed" : "ok";
      const nlohmann::json summary = residuals.json();
      for (const auto& [key, value] : summary.items()) entry[key] = value;
      json->push_back(entry);
    } else if (!opt.quiet || exceeds) {
      residuals.report(report, log, opt.tolerance);
    }
  }
  return failed ? kExitFailure : kExitOk;
}

}  // namespace eom::cli
