// eom fd: forward dynamics for every row: the accelerations a that the joint forces tau produce
// at (q, v), with friction and external wrenches as eom id reads them, so that eom id on the
// output gives tau back; with contacts, the accelerations that keep them held and their forces.

#include <eom/io/columns.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/algorithm/partial_derivatives.hpp>

#include <optional>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "contact_options.hpp"
#include "fd/contact_fd_rows.hpp"
#include "options.hpp"

namespace eom::cli {
namespace {

// what --partials, --minv and --method crba are refused with
constexpr const char* kWithoutContacts =
    " is not available with --contacts (which solves with M from CRBA and a Cholesky factor)";

struct FdOptions {
  RowOptions rows;
  ForceOptions forces;
  std::string method = "aba";
  bool partials = false;  // dqdd/dq and dqdd/dv
  bool minv = false;      // dqdd/dtau = M^-1
  ContactOptions contacts;
  std::vector<double> baumgarte{0, 0};  // --baumgarte KP,KD
};

// The tau columns a row reads: every coordinate's, or with contacts on a floating base the
// actuated joints' only (the free-flyer is not driven)
std::vector<std::string> driving_columns(const Model& model, bool contacts) {
  std::vector<std::string> names = coordinate_columns(model, "tau", Space::tau);
  if (contacts && model.floating_base) names.erase(names.begin(), names.begin() + 6);
  return names;
}

class FdTask final : public RowTask {
 public:
  FdTask(const Model& model, const Friction& friction, const ContactSet& contacts,
         const FdOptions& opt, const Header& in, const std::string& file)
      : model_(model),
        friction_(friction),
        opt_(opt),
        tau_columns_(bind_columns(in, driving_columns(model, !contacts.contacts.empty()), file)),
        wrenches_(model, in, file, opt.forces),
        data_(model),
        tau_(Eigen::VectorXd::Zero(model.nv)),
        term_(model.nv) {
    if (!contacts.contacts.empty()) {
      contact_rows_.emplace(model, contacts, in, file, opt.baumgarte[0], opt.baumgarte[1]);
    }
    // the state beside its accelerations, so that the output is eom id's input
    for (const char* prefix : {"q", "v"}) {
      for (auto& n : coordinate_columns(model, prefix, prefix[0] == 'q' ? Space::q : Space::v)) {
        columns.push_back(std::move(n));
      }
    }
    for (auto& n : coordinate_columns(model, "a", Space::v)) columns.push_back(std::move(n));
    if (opt.partials) {
      append(columns, matrix_columns(model, "dqdd_dq"));
      append(columns, matrix_columns(model, "dqdd_dv"));
    }
    if (opt.minv) append(columns, matrix_columns(model, "Minv"));
    inputs = tau_columns_;
    inputs.insert(inputs.end(), wrenches_.columns().begin(), wrenches_.columns().end());
    if (contact_rows_) {
      append(columns, contact_rows_->columns());
      inputs.insert(inputs.end(), contact_rows_->inputs().begin(), contact_rows_->inputs().end());
    }
  }

  void compute(const Sample& s, double* out) override {
    const auto v = s.dq.col(0);
    // the free-flyer's entries stay 0 when it is not driven
    gather(s.row, tau_columns_, tau_.tail(static_cast<Eigen::Index>(tau_columns_.size())));
    // M a + c + g = tau - friction + J^T F: what drives the joints once friction and the
    // environment have taken their share (the terms eom id adds, taken back)
    if (opt_.forces.friction) {
      friction_torque(friction_, v, term_);
      tau_ -= term_;
    }
    if (!wrenches_.empty()) {
      wrenches_.term(model_, data_, s.q, s.row, term_);
      tau_ -= term_;
    }
    // the partials come with qdd from the same passes (aba_derivatives); otherwise the method
    const bool derivatives = opt_.partials || opt_.minv;
    if (derivatives) aba_derivatives(model_, data_, s.q, v, tau_);
    const Eigen::VectorXd& a = contact_rows_ ? contact_rows_->compute(s, tau_)
                               : derivatives ? data_.qdd
                               : opt_.method == "crba"
                                   ? forward_dynamics_crba(model_, data_, s.q, v, tau_)
                                   : aba(model_, data_, s.q, v, tau_);
    for (int i = 0; i < model_.nq; ++i) *out++ = s.q[i];
    for (int i = 0; i < model_.nv; ++i) *out++ = v[i];
    for (int i = 0; i < model_.nv; ++i) *out++ = a[i];
    if (opt_.partials) {
      out = write_row_major(data_.dqdd_dq, out);
      out = write_row_major(data_.dqdd_dv, out);
    }
    if (opt_.minv) out = write_row_major(data_.Minv, out);
    if (contact_rows_) contact_rows_->write_forces(out);
  }

  int finish(const Notes& notes) override {
    return contact_rows_ ? contact_rows_->finish(notes) : kExitOk;
  }

  void summarize(nlohmann::json& table) const override {
    if (contact_rows_) contact_rows_->summarize(table);
  }

 private:
  const Model& model_;
  const Friction& friction_;
  const FdOptions& opt_;
  const std::vector<int> tau_columns_;
  ExternalWrenches wrenches_;
  Data data_;
  Eigen::VectorXd tau_, term_;
  std::optional<ContactFdRows> contact_rows_;
};

int run_fd(const FdOptions& opt, Streams& io) {
  const Model model = load_robot(opt.rows, io, "fd");
  refuse_singular_mass_matrix(model);
  if ((opt.partials || opt.minv) && opt.method == "crba") {
    throw InputError(
        "--partials and --minv come from the derivatives of the recursion "
        "(aba_derivatives), not from --method crba");
  }
  const Friction friction = load_friction(model, opt.forces);
  const ContactSet contacts = load_contacts(model, opt.contacts);
  if (!contacts.contacts.empty() && opt.method == "crba") {
    throw InputError("--method" + std::string(kWithoutContacts));
  }
  const RowCommand command{
      "fd", 1, {}, [&](const Header& header, const std::string& file, const Notes&) {
        return std::make_unique<FdTask>(model, friction, contacts, opt, header, file);
      }};
  return run_rows(opt.rows, model, command, io);
}

}  // namespace

void register_fd(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<FdOptions>(
      app, dispatch, "fd",
      "Forward dynamics (articulated-body algorithm) for every row: the accelerations that the\n"
      "joint forces produce. Reads q.<joint>, v.<joint> (derived from q and t when absent),\n"
      "tau.<joint> and optional wrench.<frame>.*; writes t, q.*, v.* and a.<joint>.",
      {"eom id robots/ur5.urdf trajectories/ur5_wave.csv --keep-input | eom fd robots/ur5.urdf - "
       "| eom id robots/ur5.urdf -",
       "eom fd robots/block.urdf tests/data/fd/block_pushed.csv --friction"},
      run_fd);
  add_robot_options(*cmd, opt->rows.robot);
  add_row_options(*cmd, opt->rows, true);
  add_force_options(*cmd, opt->forces);
  cmd->add_option("--method", opt->method,
                  "aba: articulated-body algorithm, O(n); crba: M by CRBA, the bias by RNEA, a "
                  "Cholesky solve (an independent path, O(n^3))")
      ->capture_default_str()
      ->check(CLI::IsMember({"aba", "crba"}));
  cmd->add_flag("--partials", opt->partials,
                "Also write dqdd_dq.<row>.<col> and dqdd_dv.<row>.<col> (analytical, "
                "Carpentier & Mansard 2018; dq in the tangent space, q (+) dq = q exp(dq)): "
                "2 nv^2 columns");
  cmd->add_flag("--minv", opt->minv, "Also write Minv.<row>.<col> = dqdd/dtau: nv^2 columns");
  add_contact_options(*cmd, opt->contacts, false);
  add_baumgarte_option(*cmd, opt->baumgarte);
  for (const char* name : {"--partials", "--minv"}) {
    excludes(cmd->get_option(name), cmd->get_option("--contacts"),
             std::string(name) + kWithoutContacts);
  }
}

}  // namespace eom::cli
