// eom impact: contact impulses. For every row (q and v just before an impact), the velocity just
// after the contacts close, their impulses and the kinetic energy lost (ContactImpact does the
// mathematics).

#include <eom/algorithm/contacts.hpp>
#include <eom/core/errors.hpp>
#include <eom/io/column_names.hpp>
#include <eom/rows/contacts.hpp>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "contact_options.hpp"
#include "options.hpp"

namespace eom::cli {
namespace {

struct ImpactOptions {
  RowOptions rows;
  ContactOptions contacts;
  double restitution = 0;
};

class ImpactTask final : public RowTask {
 public:
  ImpactTask(const Model& model, const ContactSet& contacts, const ImpactOptions& opt,
             const Header& in, const std::string& file)
      : model_(model),
        restitution_(opt.restitution),
        impact_(model, contacts),
        activity_(model, contacts, in, file),
        redundancy_(file) {
    // the state after the impact, so that the output is the input of what follows
    append(columns, coordinate_columns(model, "q", Space::q));
    append(columns, coordinate_columns(model, "v", Space::v));
    append(columns, contact_force_columns(model, contacts, kContactImpulsePrefix));
    columns.push_back(kImpactEnergyLossColumn);
    inputs = activity_.inputs();
  }

  void compute(const Sample& s, double* out) override {
    activity_.apply(s, impact_.jacobian());
    impact_.solve(s.q, s.dq.col(0), restitution_);
    redundancy_.count(impact_.rank(), impact_.jacobian().active_size(), s.line);
    for (int i = 0; i < model_.nq; ++i) *out++ = s.q[i];
    const Eigen::VectorXd& v = impact_.velocities();
    for (int i = 0; i < model_.nv; ++i) *out++ = v[i];
    const Eigen::VectorXd& p = impact_.impulses();
    for (Eigen::Index k = 0; k < p.size(); ++k) *out++ = p[k];
    *out = impact_.energy_loss();
  }

  int finish(const Notes& notes) override {
    redundancy_.finish(notes, "their impulses are the least-norm ones that stop them");
    return kExitOk;
  }

  void summarize(nlohmann::json& table) const override { redundancy_.summarize(table); }

 private:
  const Model& model_;
  const double restitution_;
  ContactImpact impact_;
  ContactActivity activity_;
  RedundancyTally redundancy_;
};

int run_impact(const ImpactOptions& opt, Streams& io) {
  const Model model = load_robot(opt.rows, io, "impact");
  refuse_singular_mass_matrix(model);
  if (opt.contacts.specs.empty()) throw InputError("--contacts is required: what does it hit?");
  const ContactSet contacts = load_contacts(model, opt.contacts);
  // v just before the impact is read, never derived: differences of q across an impact mix the
  // velocities before and after it
  RowOptions rows = opt.rows;
  rows.no_derive = true;
  const RowCommand command{
      "impact", 1, {}, [&](const Header& header, const std::string& file, const Notes&) {
        return std::make_unique<ImpactTask>(model, contacts, opt, header, file);
      }};
  return run_rows(rows, model, command, io);
}

}  // namespace

void register_impact(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<ImpactOptions>(
      app, dispatch, "impact",
      "Contact impulses: for every row, the contacts close in an instant. Reads q.<joint> and\n"
      "v.<joint> (just before the impact; never derived) and optional contact.<frame> columns;\n"
      "writes t, q.*, v.* (just after), p.<frame>.* (the impulses, N s) and impact.energy_loss.",
      {"eom impact tests/data/urdf/rod.urdf tests/data/impact/rod_fall.csv --floating-base "
       "--contacts end_right",
       "eom impact tests/data/urdf/rod.urdf tests/data/impact/rod_fall.csv --floating-base "
       "--contacts end_right --restitution 0.5"},
      run_impact);
  add_robot_options(*cmd, opt->rows.robot, false);
  add_row_options(*cmd, opt->rows, false);
  add_contact_options(*cmd, opt->contacts, false);
  cmd->add_option("--restitution", opt->restitution,
                  "Coefficient of restitution e in [0, 1]: J_c v+ = -e J_c v- (default 0, a "
                  "perfectly inelastic impact; 1, elastic)")
      ->check(kUnitInterval);
}

}  // namespace eom::cli
