// eom deriv: time derivatives of inverse dynamics to any order along trajectory tables, and the
// partial derivatives of inverse dynamics, for every row.

#include <algorithm>
#include <array>
#include <sstream>
#include <string>

#include <Eigen/Cholesky>

#include <eom/algorithm/closed_form.hpp>
#include <eom/io/columns.hpp>
#include <eom/multibody/data.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/core/errors.hpp>
#include <eom/trajectory/finite_difference.hpp>
#include <eom/algorithm/partial_derivatives.hpp>
#include <eom/algorithm/time_derivatives.hpp>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "forces.hpp"
#include "row_engine.hpp"

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

// --verify: per row M symmetric positive definite and tau = M a + C v + g; at each row between
// two others, every derivative (d1tau ... dKtau and dM/dt = C + C^T) against the three-point
// derivative of the order below over t (exact for quadratics, non-uniform t). Residuals are
// relative to the largest value of each quantity over the table.
class Verifier {
 public:
  Verifier(const Model& model, int order)
      : order_(order),
        llt_(model.nv),
        C_(model.nv, model.nv),
        residual_(order + 2, 0.0),
        scale_(order + 2, 0.0),
        line_(order + 2, 0) {
    for (auto& r : rows_) {
      r = {0, 0, Eigen::MatrixXd(model.nv, order + 1), Eigen::MatrixXd(model.nv, model.nv),
           Eigen::MatrixXd(model.nv, model.nv)};
    }
  }

  // quantity 0: tau = M a + C v + g + external (-J^T F of the wrenches); 1..K: dktau; K + 1:
  // dM/dt
  // (`swept`: series already holds this row's M, C and g, from eom deriv --matrices)
  void observe(const Model& model, TimeDerivativeData& series, bool swept, const Sample& s,
               const Eigen::MatrixXd& tau, ConstVec external) {
    Row& row = rows_[count_ % 3];
    row.t = s.t;
    row.line = s.line;
    row.tau = tau;
    // one sweep gives C and, with it, M and g (series.M[0], series.g)
    const Eigen::MatrixXd& C =
        swept ? series.C[0] : coriolis_matrix(model, series, s.q, s.dq.col(0));
    row.M = series.M[0];
    llt_.compute(row.M);
    if (llt_.info() != Eigen::Success && not_spd_ == 0) not_spd_line_ = s.line;
    not_spd_ += llt_.info() != Eigen::Success;
    row.Mdot = C + C.transpose();
    // tau - (M a + C v + g), into C_'s first column as workspace
    auto residual = C_.col(0);
    residual.noalias() = row.M * s.dq.col(1);
    residual.noalias() += C * s.dq.col(0);
    residual += series.g.col(0);
    residual += external;
    residual -= tau.col(0);
    record(0, residual.cwiseAbs().maxCoeff(), tau.col(0).cwiseAbs().maxCoeff(), s.line);
    if (++count_ < 3) return;
    // central row: the derivative of each order against the three-point one of the order below
    const Row& a = rows_[(count_ - 3) % 3];
    const Row& b = rows_[(count_ - 2) % 3];
    const Row& c = rows_[(count_ - 1) % 3];
    const auto w = three_point_weights({a.t, b.t, c.t}, 1).d1;
    for (int k = 1; k <= order_; ++k) {
      const double worst = (w[0] * a.tau.col(k - 1) + w[1] * b.tau.col(k - 1) +
                            w[2] * c.tau.col(k - 1) - b.tau.col(k))
                               .cwiseAbs()
                               .maxCoeff();
      record(k, worst, b.tau.col(k).cwiseAbs().maxCoeff(), b.line);
    }
    C_ = w[0] * a.M + w[1] * b.M + w[2] * c.M - b.Mdot;
    record(order_ + 1, C_.cwiseAbs().maxCoeff(), b.Mdot.cwiseAbs().maxCoeff(), b.line);
  }

  // the report on stderr; false when a check fails
  bool report(const std::string& file, const Notes& notes, double tolerance) const {
    bool ok = not_spd_ == 0;
    std::ostringstream out;
    out << "eom deriv: verify: " << file << ": ";
    if (not_spd_ == 0) {
      out << "M symmetric positive definite on all " << count_ << " rows\n";
    } else {
      out << "M not positive definite on " << not_spd_ << " rows, first at line " << not_spd_line_
          << "\n";
    }
    for (int k = 0; k <= order_ + 1; ++k) {
      const std::string what =
          k == 0        ? "tau - (M a + C v + g - J^T F)"
          : k <= order_ ? time_derivative_prefix("tau", k) + " - finite differences of " +
                              time_derivative_prefix("tau", k - 1)
                        : "C + C^T - finite differences of M (dM/dt)";
      const Check c = check(k, tolerance);
      if (!c.checked) {
        out << "  " << what << ": not checked (fewer than 3 rows)\n";
        continue;
      }
      ok = ok && c.pass;
      out << "  " << what << ": worst " << c.relative << " relative (" << residual_[k]
          << " absolute, line " << line_[k] << ")" << (c.pass ? "" : ", over the tolerance")
          << "\n";
    }
    notes.out << out.str();
    return ok;
  }

  // the same for --summary-json
  nlohmann::json to_json(double tolerance) const {
    nlohmann::json checks = nlohmann::json::array();
    for (int k = 0; k <= order_ + 1; ++k) {
      const Check c = check(k, tolerance);
      const auto when = [&](auto x) { return c.checked ? nlohmann::json(x) : nlohmann::json(); };
      checks.push_back({{"quantity", k == 0        ? std::string("tau")
                                     : k <= order_ ? time_derivative_prefix("tau", k)
                                                   : std::string("Mdot")},
                        {"checked", c.checked},
                        {"relative", when(c.relative)},
                        {"absolute", when(residual_[k])},
                        {"line", when(line_[k])},
                        {"pass", when(c.pass)}});
    }
    return {{"tolerance", tolerance},
            {"rows", count_},
            {"not_positive_definite",
             {{"rows", not_spd_},
              {"first_line", not_spd_ > 0 ? nlohmann::json(not_spd_line_) : nlohmann::json()}}},
            {"checks", checks}};
  }

 private:
  struct Row {
    double t;
    int line;
    Eigen::MatrixXd tau, M, Mdot;
  };
  // quantity k against the tolerance: the derivatives need three rows
  struct Check {
    bool checked = true, pass = true;
    double relative = 0;
  };
  Check check(int k, double tolerance) const {
    Check c;
    if (k > 0 && count_ < 3) {
      c.checked = false;
      return c;
    }
    c.relative = residual_[k] / std::max(scale_[k], 1e-300);
    c.pass = residual_[k] == 0 || c.relative <= tolerance;
    return c;
  }
  void record(int k, double residual, double scale, int line) {
    scale_[k] = std::max(scale_[k], scale);
    if (residual > residual_[k]) {
      residual_[k] = residual;
      line_[k] = line;
    }
  }

  int order_;
  std::array<Row, 3> rows_;  // the last three rows, by count modulo 3
  long count_ = 0, not_spd_ = 0;
  int not_spd_line_ = 0;
  Eigen::LLT<Eigen::MatrixXd> llt_;
  Eigen::MatrixXd C_;  // workspace
  std::vector<double> residual_, scale_;
  std::vector<int> line_;
};

// "<matrix>.<row>.<col>" for every pair of velocity coordinates, row by row

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
        unit_(Eigen::VectorXd::Zero(model.nv)),
        verifier_(model, opt.order) {
    bind_wrench_derivatives(header, file);
    for (int k = 0; k <= opt.order; ++k) {
      const std::string prefix = time_derivative_prefix("tau", k);
      for (auto& n : coordinate_columns(model, prefix, Space::tau)) columns.push_back(std::move(n));
    }
    if (opt.partials) {
      append(columns, matrix_columns(model, "dtau_dq"));
      append(columns, matrix_columns(model, "dtau_dv"));
    }
    if (opt.matrices) {
      append(columns, matrix_columns(model, "M"));
      append(columns, matrix_columns(model, "C"));
      for (auto& n : coordinate_columns(model, "g", Space::tau)) columns.push_back(std::move(n));
      for (int k = 1; k <= opt.order; ++k) {
        append(columns, matrix_columns(model, time_derivative_prefix("M", k)));
        append(columns, matrix_columns(model, time_derivative_prefix("C", k)));
        for (auto& n : coordinate_columns(model, time_derivative_prefix("g", k), Space::tau)) {
          columns.push_back(std::move(n));
        }
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
        wrench_series_(r, k) = s.row[wrench_columns_[k * wrench_series_.rows() + r]];
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
    for (int k = 0; k <= opt_.order; ++k) {
      for (int i = 0; i < nv; ++i) *out++ = tau_(i, k);
    }
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
      verifier_.observe(model_, series_, opt_.matrices && !closed_form_, s, tau_, external_);
    }
    if (opt_.christoffel) {
      // C is linear in v: Gamma_ijk = C(q, e_k)_ij
      for (int k = 0; k < nv; ++k) {
        unit_[k] = 1;
        const Eigen::MatrixXd& Ck = coriolis_matrix(model_, series_, s.q, unit_);
        unit_[k] = 0;
        for (int i = 0; i < nv; ++i) {
          for (int j = 0; j < nv; ++j) out[(i * nv + j) * nv + k] = Ck(i, j);
        }
      }
      out += nv * nv * nv;
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
    return verifier_.report(file_, notes, opt_.tolerance) ? kExitOk : kExitFailure;
  }

  void summarize(nlohmann::json& table) const override {
    table["verify"] = opt_.verify ? verifier_.to_json(opt_.tolerance) : nlohmann::json();
  }

 private:
  // d<k>wrench.<frame>.* for k = 1..K after the wrench.<frame>.* columns, all required: the
  // derivatives of a measured wrench are not derived here
  void bind_wrench_derivatives(const Header& header, const std::string& file) {
    if (closed_form_ && wrenches_.frames().size() > 1) {
      throw InputError(file, 1, 0,
                       "--method closed-form takes the wrench of one frame, the table has " +
                           std::to_string(wrenches_.frames().size()) +
                           " (the recursive method takes any number)");
    }
    wrench_columns_ = wrenches_.columns();
    std::vector<std::string> names;
    for (int k = 1; k <= opt_.order; ++k) {
      for (const int f : wrenches_.frames()) {
        append(names, wrench_columns(time_derivative_prefix("wrench", k), model_.frames[f].name));
      }
    }
    const std::vector<int> derivatives = bind_columns(header, names, file);
    wrench_columns_.insert(wrench_columns_.end(), derivatives.begin(), derivatives.end());
    inputs = wrench_columns_;
    if (!wrenches_.empty()) {
      frame_wrench_.frame = wrenches_.frames().front();
      frame_wrench_.reference = wrenches_.reference();
    }
  }

  const Model& model_;
  const DerivOptions& opt_;
  const std::string file_;
  ExternalWrenches wrenches_;
  std::vector<int> wrench_columns_;  // input column of row r, order k at [k * 6 frames + r]
  Eigen::MatrixXd wrench_series_;    // (6 frames x order + 1): column k the k-th derivative
  FrameWrench frame_wrench_;         // the one frame's, for --method closed-form
  Eigen::VectorXd external_;         // -J^T F, for --verify
  TimeDerivativeData series_;
  std::unique_ptr<ClosedFormData> closed_form_;  // with --method closed-form
  const Eigen::VectorXd none_;                   // d3q, d4q when the order does not read them
  Data data_;
  Eigen::MatrixXd tau_;   // (nv x order + 1)
  Eigen::VectorXd unit_;  // e_k, for the Christoffel symbols
  Verifier verifier_;
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
  RowCommand command;
  command.name = "deriv";
  command.order = opt.order + 2;  // tau^(K) needs q^(K + 2)
  command.make_task = [&](const Header& header, const std::string& file, const Notes&) {
    return std::make_unique<DerivTask>(model, opt, header, file);
  };
  return run_rows(opt.rows, model, command, io);
}

}  // namespace

void register_deriv(CLI::App& app, Dispatch& dispatch) {
  auto opt = std::make_shared<DerivOptions>();
  CLI::App* cmd = add_command(
      app, "deriv",
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
       "eom deriv robots/solo12.urdf trajectories/solo12_floating_walk.csv --floating-base"});
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
      ->check(CLI::PositiveNumber);
  dispatch.on(cmd, [opt](Streams& io) { return run_deriv(*opt, io); });
}

}  // namespace eom::cli
