#include "jac/jac_task.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include <eom/core/errors.hpp>
#include <eom/core/number_text.hpp>
#include <eom/io/column_names.hpp>
#include <eom/trajectory/row_statistics.hpp>

#include <eom/rows/contacts.hpp>

namespace eom::cli {
namespace {

// Writes a matrix (or vector) row by row from out and returns the end.
template <class Matrix>
double* put(const Matrix& m, double* out) {
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) *out++ = m(r, c);
  }
  return out;
}

class JacTask final : public RowTask {
 public:
  JacTask(const Model& model, const JacOptions& opt, const JacSettings& settings,
          const std::string& file)
      : opt_(opt),
        s_(settings),
        file_(file),
        frame_name_(model.frames[settings.frame].name),
        jacobian_(model, settings),
        scan_(settings.scan, std::min(settings.task.size, model.nv)) {
    std::vector<std::string> task, sigma, basis, analytical{"x", "y", "z"};
    for (int r = 0; r < s_.task.size; ++r) task.emplace_back(task_row_name(s_.task.rows[r]));
    for (int k = 1; k <= model.nv; ++k) basis.push_back(std::to_string(k));
    sigma.assign(basis.begin(), basis.begin() + std::min(s_.task.size, model.nv));
    const std::vector<std::string>& v = model.v_names;
    if (opt.jacobian) add("J", task, v);
    if (opt.jdot && opt.jacobian) add("Jdot", task, v);
    if (opt.jdot) add("Jdot_v", task);
    if (s_.analytical) append(analytical, orientation_parameter_names(*s_.analytical));
    if (s_.analytical) add("JA", analytical, v);
    add("sigma", sigma);
    append(columns, {"rank", "rank_margin", "inverse_condition", "manipulability", "nullity"});
    if (opt.nullspace) add("null", basis, v);
    if (!opt.dynamics) return;
    add("Lambda", task, task);
    add("mu", task);
    add("p", task);
    add("Jbar", v, task);
    columns.emplace_back("Lambda_rank");
  }

  void compute(const Sample& s, double* out) override {
    // v when the rows have it (--jdot, --dynamics): the first derivative column
    const Eigen::Map<const Eigen::VectorXd> v(s.dq.data(), s.dq.cols() > 0 ? s.dq.rows() : 0);
    try {
      jacobian_.compute(s.q, v);
    } catch (const NumericalError& e) {
      throw InputError(
          file_, s.line, 0,
          "--analytical " + opt_.analytical + ": " + e.what() + " (the quaternion never is)");
    }
    // the singular vectors only when needed: for the null space, or the lost directions of a
    // row the scan reports
    const SingularityAnalysis& a = jacobian_.singularity();
    if (opt_.nullspace || scan_.below(a)) jacobian_.compute_directions();
    if (opt_.jacobian) out = put(jacobian_.jacobian(), out);
    if (opt_.jdot && opt_.jacobian) out = put(jacobian_.jacobian_time_variation(), out);
    if (opt_.jdot) out = put(jacobian_.jacobian_time_variation_v(), out);
    if (s_.analytical) out = put(jacobian_.analytical_jacobian(), out);
    out = put(a.singular_values(), out);
    *out++ = a.rank();
    *out++ = a.rank_margin();
    *out++ = inverse_condition(a.singular_values());
    *out++ = a.manipulability();
    *out++ = a.nullity();
    if (opt_.nullspace) out = put(jacobian_.null_space_rows(), out);
    scan_.add(s.t, s.line, a);
    if (!opt_.dynamics) return;
    jacobian_.compute_dynamics(s.q, v);
    const TaskSpaceDynamics& d = jacobian_.dynamics();
    out = put(d.inertia(), out);
    out = put(d.coriolis(), out);
    out = put(d.gravity(), out);
    out = put(d.pseudo_inverse(), out);
    *out++ = d.rank();
    if (d.singular()) dynamics_singular_.count(s.t, s.line);
  }

  int finish(const Notes& notes) override {
    constexpr size_t kShown = 10;
    const std::vector<SingularInterval>& intervals = scan_.intervals();
    const bool failing = opt_.fail_on_singular && !intervals.empty();
    const auto say = [&](const std::string& text) {
      failing ? notes.error(file_ + ": " + text) : notes.warning(file_ + ": " + text);
    };
    for (size_t k = 0; k < intervals.size() && k < kShown; ++k) {
      say(scan_.describe(intervals[k], frame_name_));
    }
    if (intervals.size() > kShown) {
      say("and " + std::to_string(intervals.size() - kShown) + " more intervals");
    }
    if (dynamics_singular_.rows > 0) {
      const RankTolerance& tolerance = jacobian_.dynamics().options().tolerance;
      notes.warning(file_ + ": J M^-1 J^T is singular in " +
                    std::to_string(dynamics_singular_.rows) +
                    " rows (first at t=" + number_text(dynamics_singular_.first_t) +
                    "): Lambda, mu, p and Jbar there use the " +
                    (s_.inverse == TaskInverse::truncated ? "truncated" : "damped") +
                    " inverse, eigenvalues at or below max(" + number_text(tolerance.absolute) +
                    ", " + number_text(tolerance.relative) + " * largest) " +
                    (s_.inverse == TaskInverse::truncated ? "dropped" : "damped") +
                    " (Lambda_rank counts the others)");
    }
    return failing ? kExitFailure : kExitOk;
  }

  void summarize(nlohmann::json& table) const override {
    nlohmann::json intervals = nlohmann::json::array();
    for (const SingularInterval& in : scan_.intervals()) {
      nlohmann::json directions = nlohmann::json::array();
      for (int k = 0; k < std::max(in.lost, 1); ++k) {
        const DirectionDescription& d = in.directions[k];
        directions.push_back(
            {{"description", to_string(d, frame_name_)},
             {"world", {d.world[0], d.world[1], d.world[2], d.world[3], d.world[4], d.world[5]}}});
      }
      intervals.push_back({{"start", in.start_t},
                           {"end", in.end_t},
                           {"start_line", in.start_line},
                           {"end_line", in.end_line},
                           {"rows", in.rows},
                           {"worst", in.worst},
                           {"worst_t", in.worst_t},
                           {"worst_line", in.worst_line},
                           {"rank", in.rank},
                           {in.lost > 0 ? "lost" : "weakest", directions}});
    }
    nlohmann::json rows = nlohmann::json::array();
    for (int r = 0; r < s_.task.size; ++r) rows.push_back(task_row_name(s_.task.rows[r]));
    table["frame"] = frame_name_;
    table["reference"] = reference_frame_name(s_.reference);
    table["task"] = rows;
    table["tolerance"] = {{"relative", s_.tolerance.relative}, {"absolute", s_.tolerance.absolute}};
    table["measure"] =
        s_.scan.measure == SingularMeasure::manipulability ? "manipulability" : "sigma";
    table["threshold"] = s_.scan.has_threshold() ? nlohmann::json(s_.scan.threshold)
                                                 : nlohmann::json("rank-deficient");
    table["intervals"] = intervals;
  }

 private:
  // columns <prefix>.<row>, or <prefix>.<row>.<col> for every column name
  void add(const std::string& prefix, const std::vector<std::string>& rows,
           const std::vector<std::string>& cols = {}) {
    for (const auto& r : rows) {
      if (cols.empty()) columns.push_back(column_name(prefix, r));
      for (const auto& c : cols) columns.push_back(matrix_column(prefix, r, c));
    }
  }

  const JacOptions& opt_;
  const JacSettings& s_;
  const std::string file_, frame_name_;
  FrameJacobianAnalysis jacobian_;
  SingularIntervalScan scan_;
  RowTally dynamics_singular_;  // rows where J M^-1 J^T is singular
};

}  // namespace

std::unique_ptr<RowTask> make_jac_task(const Model& model, const JacOptions& opt,
                                       const JacSettings& settings, const std::string& file) {
  return std::make_unique<JacTask>(model, opt, settings, file);
}

namespace {

class ContactRankTask final : public RowTask {
 public:
  ContactRankTask(std::unique_ptr<RowTask> frame_task, const Model& model,
                  const ContactSet& contacts, const RankTolerance& tolerance, const Header& header,
                  const std::string& file)
      : frame_task_(std::move(frame_task)),
        analysis_(model, contacts, tolerance),
        activity_(model, contacts, header, file) {
    if (frame_task_) {
      columns = frame_task_->columns;
      inputs = frame_task_->inputs;
    }
    append(columns, contact_rank_columns());
    inputs.insert(inputs.end(), activity_.inputs().begin(), activity_.inputs().end());
  }

  void compute(const Sample& s, double* out) override {
    if (frame_task_) {
      frame_task_->compute(s, out);
      out += frame_task_->columns.size();
    }
    activity_.apply(s, analysis_.jacobian());
    analysis_.compute(s.q);
    *out++ = analysis_.rank();
    *out++ = analysis_.base_rank();
    *out++ = analysis_.internal();
    *out = analysis_.fully_constrained() ? 1 : 0;
  }

  int finish(const Notes& notes) override {
    return frame_task_ ? frame_task_->finish(notes) : kExitOk;
  }

  void summarize(nlohmann::json& table) const override {
    if (frame_task_) frame_task_->summarize(table);
  }

 private:
  std::unique_ptr<RowTask> frame_task_;
  ContactRankAnalysis analysis_;
  ContactActivity activity_;
};

}  // namespace

std::unique_ptr<RowTask> with_contact_ranks(std::unique_ptr<RowTask> frame_task, const Model& model,
                                            const ContactSet& contacts,
                                            const RankTolerance& tolerance, const Header& header,
                                            const std::string& file) {
  return std::make_unique<ContactRankTask>(std::move(frame_task), model, contacts, tolerance,
                                           header, file);
}

}  // namespace eom::cli
