// eom id: inverse dynamics (RNEA) for every row of trajectory tables, with its terms, friction,
// external wrenches, contacts, effort-limit reports and batch mode.

#include <eom/io/columns.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/dynamics_terms.hpp>
#include <eom/core/errors.hpp>
#include <eom/rows/residuals.hpp>
#include <eom/rows/scan_reports.hpp>

#include <optional>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "contact_options.hpp"
#include "id/contact_id_rows.hpp"
#include "options.hpp"

namespace eom::cli {
namespace {

struct IdOptions {
  RowOptions rows;
  bool static_pose = false;  // v = a = 0: gravity (and wrench) torques of poses
  bool terms = false;        // also write the decomposition of tau
  ForceOptions forces;
  bool fail_on_limit = false;
  bool power = false;     // power.<joint> = tau v and power.total
  bool residual = false;  // residual.<joint> = measured tau.<joint> - the model's
  ContactOptions contacts;
  CentroidalOptions centroidal;
};

// tau (and its terms) of one sample
class IdTask final : public RowTask {
 public:
  IdTask(const Model& model, const Friction& friction, const ContactSet& contacts,
         const IdOptions& opt, const Header& in, const std::string& file)
      : model_(model),
        friction_(friction),
        opt_(opt),
        file_(file),
        wrenches_(model, in, file, opt.forces),
        data_(model),
        terms_(model),
        limits_(model),
        zero_(Eigen::VectorXd::Zero(model.nv)),
        tau_(model.nv),
        term_(model.nv),
        friction_term_(model.nv),
        external_term_(model.nv) {
    inputs = wrenches_.columns();
    if (!contacts.contacts.empty()) {
      // tau of the actuated joints and the contact forces that hold the rest
      contact_rows_.emplace(model, contacts, opt.contacts, in, file);
      columns = contact_rows_->columns();
      const std::vector<int>& more = contact_rows_->inputs();
      inputs.insert(inputs.end(), more.begin(), more.end());
    } else {
      add_torque_columns(model, opt);
    }
    if (opt.residual) {
      residuals_.emplace(model, in, file);
      append(columns, residuals_->columns());
      const std::vector<int>& measured = residuals_->inputs();
      inputs.insert(inputs.end(), measured.begin(), measured.end());
    }
    if (opt.centroidal.enabled) {
      centroidal_.emplace(model, opt.centroidal.ground, true, true, contact_rows_.has_value());
      append(columns, centroidal_->columns());
    }
  }

  void compute(const Sample& s, double* out) override {
    using Column = Eigen::Ref<const Eigen::VectorXd>;
    const Column v = opt_.static_pose ? Column(zero_) : Column(s.dq.col(0));
    const Column a = opt_.static_pose ? Column(zero_) : Column(s.dq.col(1));
    // --terms: rnea, crba, nle and g from one placement of the joints (the same bits)
    tau_ = opt_.terms ? terms_.compute(model_, data_, s.q, v, a) : rnea(model_, data_, s.q, v, a);
    if (opt_.forces.friction) {
      friction_torque(friction_, v, friction_term_);
      tau_ += friction_term_;
    }
    if (!wrenches_.empty()) {
      wrenches_.term(model_, data_, s.q, s.row, external_term_);
      tau_ += external_term_;
    }
    if (contact_rows_) {
      out = contact_rows_->compute(s, data_, tau_, out);
      limits_.observe(contact_rows_->torques(), s.t, s.line);
    } else {
      out = write_torques(v, a, out);
      limits_.observe(tau_, s.t, s.line);
    }
    if (residuals_) out = residuals_->observe(s.row, tau_, s.t, s.line, out);
    if (!centroidal_) return;
    out = centroidal_->dynamics(s.q, v, a, s.t, s.line, out);
    if (contact_rows_) {
      centroidal_->pressure(contact_rows_->jacobian(), contact_rows_->forces(), s.t, s.line, out);
    }
  }

  int finish(const Notes& notes) override {
    const bool failing = opt_.fail_on_limit && limits_.exceeded();
    report_limits(limits_, model_, file_, notes, failing);
    if (centroidal_) centroidal_->finish(notes, file_);
    if (residuals_) residuals_->report(notes, file_);
    const int contacts = contact_rows_ ? contact_rows_->finish(notes) : kExitOk;
    return failing ? kExitFailure : contacts;
  }

  void summarize(nlohmann::json& table) const override {
    table["effort_limits"] = limits_json(limits_, model_);
    table["fail_on_limit"] = opt_.fail_on_limit;
    if (contact_rows_) contact_rows_->summarize(table);
    if (residuals_) table["residual"] = residuals_->json();
  }

 private:
  void add_torque_columns(const Model& model, const IdOptions& opt) {
    auto add = [&](const char* prefix) {
      for (auto& n : coordinate_columns(model, prefix, Space::tau)) columns.push_back(std::move(n));
    };
    add("tau");
    if (opt.terms) {
      add("tau_inertial");
      add("tau_coriolis");
      add("tau_gravity");
      if (opt.forces.friction) add("tau_friction");
      if (!wrenches_.empty()) add("tau_external");
    }
    if (opt.power) {
      append(columns, coordinate_columns(model, "power", Space::v));
      columns.push_back("power.total");
    }
  }

  // tau, its terms and power: the columns without contacts
  double* write_torques(ConstVec v, ConstVec a, double* out) {
    const int nv = model_.nv;
    auto put = [&](const Eigen::VectorXd& x) {
      for (int i = 0; i < nv; ++i) *out++ = x[i];
    };
    put(tau_);
    if (opt_.terms) {
      // tau = M a + c(q, v) + g(q) + friction - J^T F: M and g as compute() left them in data_
      // (the external wrenches' term reads the placements only)
      term_.noalias() = data_.M * a;
      put(term_);
      const Eigen::VectorXd& g = data_.g;
      term_ = terms_.nonlinear_effects() - g;
      put(term_);
      put(g);
      if (opt_.forces.friction) put(friction_term_);
      if (!wrenches_.empty()) put(external_term_);
    }
    if (opt_.power) {
      double total = 0;
      for (int i = 0; i < nv; ++i) {
        *out++ = tau_[i] * v[i];
        total += tau_[i] * v[i];
      }
      *out++ = total;
    }
    return out;
  }

  const Model& model_;
  const Friction& friction_;
  const IdOptions& opt_;
  const std::string file_;
  ExternalWrenches wrenches_;
  Data data_;
  DynamicsTerms terms_;
  EffortLimitScan limits_;
  Eigen::VectorXd zero_;  // v and a of --static
  Eigen::VectorXd tau_, term_, friction_term_, external_term_;
  std::optional<ContactIdRows> contact_rows_;
  std::optional<CentroidalRows> centroidal_;
  std::optional<TorqueResiduals> residuals_;
};

int run_id(const IdOptions& opt, Streams& io) {
  const Model model = load_robot(opt.rows, io, "id");
  const Friction friction = load_friction(model, opt.forces);
  const ContactSet contacts = load_contacts(model, opt.contacts);
  const RowCommand command{"id",
                           opt.static_pose ? 0 : 2,
                           {},
                           [&](const Header& header, const std::string& file, const Notes&) {
                             return std::make_unique<IdTask>(model, friction, contacts, opt, header,
                                                             file);
                           }};
  return run_rows(opt.rows, model, command, io);
}

}  // namespace

void register_id(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<IdOptions>(
      app, dispatch, "id",
      "Inverse dynamics (recursive Newton-Euler) for every row of trajectory tables.\n"
      "Reads t, q.<joint>, v.<joint>, a.<joint> (v and a derived from q and t when absent) and\n"
      "optional wrench.<frame>.fx .fy .fz .mx .my .mz; writes t and tau.<joint>.",
      {"eom id robots/iiwa14.urdf trajectories/iiwa14_wave.csv -o tau.csv",
       "eom id robots/ur5.urdf trajectories/ur5_wave.csv --terms --fail-on-limit -o tau.csv",
       "eom id robots/solo12.urdf trajectories/solo12_floating_walk.csv --floating-base "
       "--output-dir out/",
       "eom id robots/planar_2r.urdf tests/data/rows/planar_2r_poses.csv --static"},
      run_id);
  add_robot_options(*cmd, opt->rows.robot);
  add_row_options(*cmd, opt->rows, true);
  cmd->add_flag("--static", opt->static_pose,
                "Static torques of poses: v = a = 0, only q columns are read");
  cmd->add_flag(
      "--terms", opt->terms,
      "Also write tau_inertial (M a), tau_coriolis (c), tau_gravity (g), tau_friction and "
      "tau_external (-J^T F) columns, which sum to tau");
  add_force_options(*cmd, opt->forces);
  cmd->add_flag("--fail-on-limit", opt->fail_on_limit,
                "Exit 1, writing no output file, when a torque exceeds its effort limit");
  cmd->add_flag("--power", opt->power, "Also write power.<joint> = tau v and power.total");
  cmd->add_flag("--residual", opt->residual,
                "Read the measured tau.<joint> of the table and write residual.<joint> = measured "
                "- model; each joint's RMS residual on stderr");
  add_contact_options(*cmd, opt->contacts, true);
  for (const char* name : {"--terms", "--power", "--residual"}) {
    excludes(cmd->get_option(name), cmd->get_option("--contacts"),
             std::string(name) +
                 " is not available with --contacts (tau there is the actuated joints' only)");
  }
  add_centroidal_options(*cmd, opt->centroidal, true);
}

}  // namespace eom::cli
