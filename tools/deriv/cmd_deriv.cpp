// eom deriv: time derivatives of inverse dynamics to any order along trajectory tables, and the
// partial derivatives of inverse dynamics, for every row.

#include <algorithm>
#include <string>

#include <eom/algorithm/christoffel.hpp>
#include <eom/algorithm/closed_form.hpp>
#include <eom/io/columns.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/algorithm/partial_derivatives.hpp>
#include <eom/algorithm/time_derivatives.hpp>
#include <eom/trajectory/verify.hpp>
#include <eom/rows/scan_reports.hpp>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "options.hpp"

namespace eom::cli {
namespace {

// the row engine fits polynomials of degree K + 4 (its order K + 2, plus two) when it derives
// missing columns, at most 15, which caps K at 11; beyond 10 round-off swamps sampled data anyway
constexpr int kMaxOrder = 10;

struct DerivOptions {
  RowOptions rows;
  ForceOptions forces;               // external wrenches (friction is refused)
  int order = 1;                     // K: tau and its first K time derivatives
  bool partials = false;             // dtau_dq and dtau_dv
  bool matrices = false;             // M, C, g and their first K time derivatives
  bool christoffel = false;          // Gamma_ijk, n^3 columns
  bool verify = false;               // check the structure and the derivatives along the table
  double tolerance = 1e-3;           // of --verify, relative
  std::string method = "recursive";  // or closed-form (Mueller & Kumar; serial chains, K <= 2)
};

class DerivTask final : public RowTask {
 public:
  DerivTask(const Model& model, const DerivOptions& opt, const Header& header,
            const std::string& file)
      : model_(model),
        opt_(opt),
        file_(file),
        wrenches_(model, header, file, opt.forces),
        wrench_series_(6 * static_cast<Eigen::Index>(wrenches_.frames().size()), opt.order + 1),
        external_(Eigen::VectorXd::Zero(model.nv)),
        series_(model, opt.order),
        closed_form_(opt.method == "closed-form" ? std::make_unique<ClosedFormData>(model)
                                                 : nullptr),
        data_(model),
        tau_(model.nv, opt.order + 1),
        gamma_(opt.christoffel ? model.nv * model.nv : 0, model.nv),
        check_(model, opt.order) {
    if (closed_form_ && wrenches_.frames().size() > 1) {
      throw InputError(file, 1, 0,
                       "--method closed-form takes the wrench of one frame, the table has " +
                           std::to_string(wrenches_.frames().size()) +
                           " (the recursive method takes any number)");
    }
    if (!wrenches_.empty()) {
      frame_wrench_.frame = wrenches_.frames().front();
      frame_wrench_.reference = wrenches_.reference();
    }
    inputs = wrenches_.series_columns(model, header, file, opt.order);
    for (int k = 0; k <= opt.order; ++k) {
      append(columns, coordinate_columns(model, time_derivative_prefix("tau", k), Space::tau));
    }
    if (opt.partials) {
      append(columns, matrix_columns(model, "dtau_dq"));
      append(columns, matrix_columns(model, "dtau_dv"));
    }
    if (opt.matrices) {
      append(columns, matrix_columns(model, "M"));
      append(columns, matrix_columns(model, "C"));
      append(columns, coordinate_columns(model, "g", Space::tau));
      for (int k = 1; k <= opt.order; ++k) {
        append(columns, matrix_columns(model, time_derivative_prefix("M", k)));
        append(columns, matrix_columns(model, time_derivative_prefix("C", k)));
        append(columns, coordinate_columns(model, time_derivative_prefix("g", k), Space::tau));
      }
    }
    if (opt.christoffel) {
      for (const auto& i : model.v_names) append(columns, matrix_columns(model, "Gamma." + i));
    }
  }

  void compute(const Sample& s, double* out) override {
    const int nv = model_.nv;
    for (int k = 0; k <= opt_.order; ++k) {
      for (Eigen::Index r = 0; r < wrench_series_.rows(); ++r) {
        wrench_series_(r, k) = s.row[inputs[k * wrench_series_.rows() + r]];
      }
    }
    if (closed_form_) {
      ClosedFormData& cf = *closed_form_;
      const int K = opt_.order;
      // objects, not ConstVec (a reference, which would bind to a temporary that dies here)
      using Column = Eigen::Ref<const Eigen::VectorXd>;
      const Column d3q = K >= 1 ? Column(s.dq.col(2)) : Column(none_);
      const Column d4q = K >= 2 ? Column(s.dq.col(3)) : Column(none_);
      FrameWrench* wrench = nullptr;
      if (!wrenches_.empty()) {
        wrench = &frame_wrench_;
        wrench->W = wrench_series_.col(0);
        if (K >= 1) wrench->dW = wrench_series_.col(1);
        if (K >= 2) wrench->d2W = wrench_series_.col(2);
      }
      closed_form_dynamics(model_, cf, s.q, s.dq.col(0), s.dq.col(1), d3q, d4q, K, wrench);
      tau_.col(0) = cf.tau;
      if (K >= 1) tau_.col(1) = cf.dtau;
      if (K >= 2) tau_.col(2) = cf.d2tau;
    } else {
      rnea_time_derivatives(model_, series_, s.q, s.dq, opt_.order, wrenches_.frames(),
                            wrench_series_, wrenches_.reference(), tau_);
    }
    out = std::copy_n(tau_.data(), tau_.size(), out);  // column by column: tau, d1tau, ...
    if (opt_.partials) {
      rnea_derivatives(model_, data_, s.q, s.dq.col(0), s.dq.col(1));
      out = write_row_major(data_.dtau_dq, out);
      out = write_row_major(data_.dtau_dv, out);
    }
    if (opt_.matrices && closed_form_) {
      const ClosedFormData& cf = *closed_form_;
      const Eigen::MatrixXd* M[] = {&cf.M, &cf.dM, &cf.d2M};
      const Eigen::MatrixXd* C[] = {&cf.C, &cf.dC, &cf.d2C};
      const Eigen::VectorXd* g[] = {&cf.Q_grav, &cf.dQ_grav, &cf.d2Q_grav};
      for (int k = 0; k <= opt_.order; ++k) out = write_matrices(*M[k], *C[k], *g[k], out);
    } else if (opt_.matrices) {
      mass_coriolis_gravity_time_derivatives(model_, series_, s.q, s.dq, opt_.order);
      for (int k = 0; k <= opt_.order; ++k) {
        out = write_matrices(series_.M[k], series_.C[k], series_.g.col(k), out);
      }
    }
    // before the Christoffel symbols, which reuse the sweep's workspace
    if (opt_.verify) {
      if (!wrenches_.empty()) wrenches_.term(model_, data_, s.q, s.row, external_);
      check_.observe(model_, series_, opt_.matrices && !closed_form_, s.t, s.line, s.q, s.dq, tau_,
                     external_);
    }
    if (opt_.christoffel) {
      christoffel_symbols(model_, series_, s.q, gamma_);
      for (int i = 0; i < nv; ++i) {
        for (int j = 0; j < nv; ++j) {
          for (int k = 0; k < nv; ++k) *out++ = gamma_(i + j * nv, k);
        }
      }
    }
  }

  // one order of M, C and g, in the columns' order
  static double* write_matrices(const Eigen::MatrixXd& M, const Eigen::MatrixXd& C, ConstVec g,
                                double* out) {
    out = write_row_major(M, out);
    out = write_row_major(C, out);
    for (Eigen::Index i = 0; i < g.size(); ++i) *out++ = g[i];
    return out;
  }

  int finish(const Notes& notes) override {
    if (!opt_.verify) return kExitOk;
    return report_check(check_, file_, notes, opt_.tolerance) ? kExitOk : kExitFailure;
  }

  void summarize(nlohmann::json& table) const override {
    table["verify"] = opt_.verify ? check_json(check_, opt_.tolerance) : nlohmann::json();
  }

 private:
  const Model& model_;
  const DerivOptions& opt_;
  const std::string file_;
  ExternalWrenches wrenches_;
  Eigen::MatrixXd wrench_series_;  // (6 frames x order + 1): column k the k-th derivative
  FrameWrench frame_wrench_;       // the one frame's, for --method closed-form
  Eigen::VectorXd external_;       // -J^T F, for --verify
  TimeDerivativeData series_;
  std::unique_ptr<ClosedFormData> closed_form_;  // with --method closed-form
  const Eigen::VectorXd none_;                   // d3q, d4q when the order does not read them
  Data data_;
  Eigen::MatrixXd tau_;  // (nv x order + 1)
  Eigen::MatrixXd
      gamma_;  // (nv^2 x nv) the Christoffel symbols, as christoffel_symbols writes them
  TimeDerivativeCheck check_;
};

int run_deriv(const DerivOptions& opt, Streams& io) {
  if (opt.forces.friction) {
    throw InputError(
        "--friction: eom deriv does not differentiate joint friction (sgn(v) has no time "
        "derivatives where v crosses 0); eom id applies it");
  }
  const Model model = load_robot(opt.rows, io, "deriv");
  if (opt.method == "closed-form") {
    require_serial_chain(model);
    if (opt.order > 2) {
      throw InputError(
          "--method closed-form gives tau and its first two time derivatives "
          "(Mueller & Kumar); --order " +
          std::to_string(opt.order) + " needs the recursive method");
    }
  }
  // tau^(K) needs q^(K + 2)
  const RowCommand command{
      "deriv", opt.order + 2, {}, [&](const Header& header, const std::string& file, const Notes&) {
        return std::make_unique<DerivTask>(model, opt, header, file);
      }};
  return run_rows(opt.rows, model, command, io);
}

}  // namespace

void register_deriv(CLI::App& app, Dispatch& dispatch) {
  auto [opt, cmd] = add_command<DerivOptions>(
      app, dispatch, "deriv",
      "Time derivatives of inverse dynamics to any order, and its partial derivatives, for every\n"
      "row. Reads t, q.<joint> and its derivatives v, a, d3q (or jerk), d4q (or snap), ... up to\n"
      "d<K+2>q (missing ones derived from q and t); writes t, tau.<joint> and d1tau.<joint> ...\n"
      "d<K>tau.<joint>. For a floating base, v is the body twist and a, d3q, ... are the time\n"
      "derivatives of its components. External wrenches on the robot: wrench.<frame>.fx .fy .fz\n"
      ".mx .my .mz (as eom id) with their derivatives d1wrench.<frame>.* ... "
      "d<K>wrench.<frame>.*,\n"
      "all required (never derived from the table).",
      {"eom deriv robots/iiwa14.urdf trajectories/iiwa14_wave.csv --order 2 -o dtau.csv",
       "eom deriv robots/ur5.urdf trajectories/ur5_wave.csv --order 0 --partials",
       "eom deriv robots/solo12.urdf trajectories/solo12_floating_walk.csv --floating-base"},
      run_deriv);
  add_robot_options(*cmd, opt->rows.robot);
  add_row_options(*cmd, opt->rows, true);
  add_force_options(*cmd, opt->forces);
  cmd->add_option("--order", opt->order,
                  "K: write tau and its first K time derivatives d1tau ... dKtau (default 1, at "
                  "most " +
                      std::to_string(kMaxOrder) + ")")
      ->check(CLI::Range(0, kMaxOrder));
  cmd->add_flag("--partials", opt->partials,
                "Also write dtau_dq.<row>.<col> and dtau_dv.<row>.<col> at (q, v, a) (Carpentier "
                "& Mansard 2018; dtau/da is M). Rows and columns are velocity coordinates; for a "
                "floating base or continuous joint dq is the tangent perturbation q exp(dq)");
  cmd->add_flag("--matrices", opt->matrices,
                "Also write M.<row>.<col>, the Coriolis matrix C.<row>.<col> (Christoffel "
                "arrangement: dM/dt - 2C skew-symmetric; Echeandia & Wensing 2021) and "
                "g.<coordinate>, then their time derivatives d<k>M, d<k>C, d<k>g for k = 1..K, "
                "exact (2 nv^2 + nv columns per order)");
  cmd->add_flag("--christoffel", opt->christoffel,
                "Also write the Christoffel symbols of the first kind Gamma.<i>.<j>.<k> "
                "(C_ij = sum_k Gamma_ijk v_k): nv^3 columns, 5832 for nv = 18");
  cmd->add_flag("--verify", opt->verify,
                "Check every row: M symmetric positive definite, tau = M a + C v + g, and each "
                "derivative (d1tau ... dKtau, dM/dt = C + C^T) against the three-point derivative "
                "of the order below over the neighbouring rows; report the worst residuals on "
                "stderr, relative to each quantity's largest value in the table. Exit 1, writing "
                "no output file, when one exceeds --tolerance");
  cmd->add_option("--method", opt->method,
                  "recursive: Taylor series through the Newton-Euler recursion, O(n) per order, "
                  "any tree, fixed or floating; closed-form: Mueller & Kumar's closed form "
                  "(J = A X, M = J^T M_b J, C, gravity and their first two derivatives), serial "
                  "chains on a fixed base, --order at most 2, an independent check (its C is "
                  "the paper's arrangement: dM/dt - 2C skew-symmetric and C v as the recursive "
                  "method's Christoffel one, the entries can differ)")
      ->capture_default_str()
      ->check(CLI::IsMember({"recursive", "closed-form"}));
  cmd->add_option("--tolerance", opt->tolerance,
                  "Relative tolerance of --verify (default 1e-3: three-point differences of a "
                  "trajectory sampled at 1 kHz are far more accurate)")
      ->check(kPositive);
}

}  // namespace eom::cli
