// eom id: inverse dynamics (RNEA) for every row of trajectory tables, with its terms, friction,
// external wrenches, effort-limit reports and batch mode.

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include <eom/columns.hpp>
#include <eom/data.hpp>
#include <eom/dynamics.hpp>
#include <eom/errors.hpp>

#include "cli.hpp"
#include "row_engine.hpp"

namespace eom::cli {
namespace {

struct IdOptions {
  RowOptions rows;
  bool static_pose = false;  // v = a = 0: gravity (and wrench) torques of poses
  bool terms = false;        // also write the decomposition of tau
  bool friction = false;     // add URDF (or --friction-file) joint friction
  std::string friction_file;
  double friction_smoothing = 0;  // eps of tanh(v / eps); 0 = exact sign
  std::string wrench_frame = "world";
  bool fail_on_limit = false;
  bool power = false;  // power.<joint> = tau v and power.total
};

const char* const kWrenchSuffixes[] = {"fx", "fy", "fz", "mx", "my", "mz"};

// --friction-file: {"<joint>": {"damping": Fv, "friction": Fs}, ...} overriding the URDF values
Friction load_friction(const Model& model, const IdOptions& opt) {
  Friction friction = Friction::from_model(model);
  friction.smoothing = opt.friction_smoothing;
  if (opt.friction_file.empty()) return friction;
  std::ifstream in(opt.friction_file);
  if (!in) throw InputError(opt.friction_file, 0, 0, "cannot open the file");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(opt.friction_file, 0, 0, std::string("malformed JSON: ") + e.what());
  }
  if (!j.is_object()) {
    throw InputError(opt.friction_file, 0, 0,
                     "expected an object {\"<joint>\": {\"damping\": x, \"friction\": y}}");
  }
  for (const auto& [name, values] : j.items()) {
    const int i = model.joint_index(name);
    if (i < 0 || model.joints[i].nv != 1) {
      throw InputError(opt.friction_file, 0, 0, "'" + name + "' is no 1-DoF joint of the model");
    }
    for (const auto& [key, value] : values.items()) {
      if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
        throw InputError(opt.friction_file, 0, 0,
                         name + "." + key + ": expected a finite number >= 0");
      }
      const int k = model.joints[i].idx_v;
      if (key == "damping") {
        friction.viscous[k] = value;
      } else if (key == "friction") {
        friction.coulomb[k] = value;
      } else {
        throw InputError(opt.friction_file, 0, 0,
                         name + ": unknown key '" + key + "' (expected damping or friction)");
      }
    }
  }
  return friction;
}

// per-coordinate record of effort-limit excesses, for the summary on stderr
struct LimitReport {
  struct Excess {
    long rows = 0;
    double first_t = 0, worst = 0, worst_t = 0;
    int first_line = 0;
  };
  std::vector<Excess> excess;  // (nv)

  explicit LimitReport(const Model& model) : excess(model.nv) {}
  void observe(const Model& model, const Eigen::VectorXd& tau, double t, int line) {
    for (int k = 0; k < model.nv; ++k) {
      if (!(std::abs(tau[k]) > model.effort_limit[k])) continue;
      Excess& e = excess[k];
      if (e.rows++ == 0) {
        e.first_t = t;
        e.first_line = line;
      }
      if (std::abs(tau[k]) > std::abs(e.worst)) {
        e.worst = tau[k];
        e.worst_t = t;
      }
    }
  }
  bool exceeded() const {
    return std::any_of(excess.begin(), excess.end(), [](const Excess& e) { return e.rows > 0; });
  }
  // one line per coordinate, at most kShown, the rest counted; errors when the run fails on them
  void print(const Model& model, const std::string& file, const Notes& notes, bool failing) const {
    constexpr int kShown = 10;
    int shown = 0, more = 0;
    for (int k = 0; k < model.nv; ++k) {
      const Excess& e = excess[k];
      if (e.rows == 0) continue;
      if (shown == kShown) {
        ++more;
        continue;
      }
      ++shown;
      std::ostringstream line;
      line << file << ": tau." << model.tau_names[k] << " exceeds its effort limit "
           << model.effort_limit[k] << " in " << e.rows << (e.rows == 1 ? " row" : " rows")
           << ": first at t=" << e.first_t << " (line " << e.first_line << "), worst " << e.worst
           << " at t=" << e.worst_t;
      failing ? notes.error(line.str()) : notes.warning(line.str());
    }
    if (more > 0) {
      const std::string line = file + ": and " + std::to_string(more) +
                               " more joint coordinates exceed their effort limits";
      failing ? notes.error(line) : notes.warning(line);
    }
  }
};

// tau (and its terms) of one sample
class IdTask final : public RowTask {
 public:
  IdTask(const Model& model, const Friction& friction, const IdOptions& opt, const Header& in,
         const std::string& file)
      : model_(model),
        friction_(friction),
        opt_(opt),
        file_(file),
        wrench_frame_(opt.wrench_frame == "local" ? ReferenceFrame::local
                                                  : ReferenceFrame::local_world_aligned),
        data_(model),
        limits_(model),
        zero_(Eigen::VectorXd::Zero(model.nv)),
        tau_(model.nv),
        term_(model.nv),
        friction_term_(model.nv),
        external_term_(model.nv) {
    bind_wrenches(in);
    wrenches_.resize(6 * wrench_frames_.size());
    auto add = [&](const char* prefix) {
      for (auto& n : coordinate_columns(model, prefix, Space::tau)) columns.push_back(std::move(n));
    };
    add("tau");
    if (opt.terms) {
      add("tau_inertial");
      add("tau_coriolis");
      add("tau_gravity");
      if (opt.friction) add("tau_friction");
      if (!wrench_frames_.empty()) add("tau_external");
    }
    if (opt.power) {
      for (const auto& n : model.v_names) columns.push_back("power." + n);
      columns.push_back("power.total");
    }
  }

  void compute(const Sample& s, double* out) override {
    const int nv = model_.nv;
    using Column = Eigen::Ref<const Eigen::VectorXd>;
    const Column v = opt_.static_pose ? Column(zero_) : Column(s.dq.col(0));
    const Column a = opt_.static_pose ? Column(zero_) : Column(s.dq.col(1));
    tau_ = rnea(model_, data_, s.q, v, a);
    if (opt_.friction) {
      friction_torque(friction_, v, friction_term_);
      tau_ += friction_term_;
    }
    if (!wrench_frames_.empty()) {
      gather(s.row, wrench_columns_, wrenches_);
      // the actuators need J^T F less when the environment pushes with F
      external_torque(model_, data_, s.q, wrench_frames_, wrenches_, wrench_frame_, external_term_);
      external_term_ = -external_term_;
      tau_ += external_term_;
    }
    auto put = [&](const Eigen::VectorXd& x) {
      for (int i = 0; i < nv; ++i) *out++ = x[i];
    };
    put(tau_);
    if (opt_.terms) {
      // tau = M a + c(q, v) + g(q) + friction - J^T F, each computed on its own
      term_.noalias() = crba(model_, data_, s.q) * a;
      put(term_);
      const Eigen::VectorXd& g = gravity_torque(model_, data_, s.q);
      term_ = nonlinear_effects(model_, data_, s.q, v) - g;
      put(term_);
      put(g);
      if (opt_.friction) put(friction_term_);
      if (!wrench_frames_.empty()) put(external_term_);
    }
    if (opt_.power) {
      double total = 0;
      for (int i = 0; i < nv; ++i) {
        *out++ = tau_[i] * v[i];
        total += tau_[i] * v[i];
      }
      *out++ = total;
    }
    limits_.observe(model_, tau_, s.t, s.line);
  }

  int finish(const Notes& notes) override {
    const bool failing = opt_.fail_on_limit && limits_.exceeded();
    limits_.print(model_, file_, notes, failing);
    return failing ? kExitFailure : kExitOk;
  }

 private:
  // external wrenches: wrench.<frame>.fx .fy .fz .mx .my .mz
  void bind_wrenches(const Header& header) {
    for (const auto& name : header.names) {
      if (name.rfind("wrench.", 0) != 0 || name.size() < 11 ||
          name.compare(name.size() - 3, 3, ".fx")) {
        continue;
      }
      const std::string frame = name.substr(7, name.size() - 10);
      int f = -1;
      try {
        f = model_.require_frame(frame);
      } catch (const InputError& e) {
        throw InputError(file_, 1, 0, "column " + name + ": " + e.message());
      }
      wrench_frames_.push_back(f);
      std::vector<std::string> names;
      for (const char* s : kWrenchSuffixes) names.push_back("wrench." + frame + "." + s);
      for (int c : bind_columns(header, names, file_)) wrench_columns_.push_back(c);
    }
    for (const auto& name : header.names) {
      if (name.rfind("wrench.", 0) == 0 && std::find(wrench_columns_.begin(), wrench_columns_.end(),
                                                     header.index(name)) == wrench_columns_.end()) {
        throw InputError(file_, 1, 0,
                         "column " + name + ": expected wrench.<frame>.fx .fy .fz .mx .my .mz");
      }
    }
  }

  const Model& model_;
  const Friction& friction_;
  const IdOptions& opt_;
  const std::string file_;
  const ReferenceFrame wrench_frame_;
  Data data_;
  LimitReport limits_;
  std::vector<int> wrench_frames_, wrench_columns_;
  Eigen::VectorXd zero_;  // v and a of --static
  Eigen::VectorXd tau_, term_, friction_term_, external_term_, wrenches_;
};

int run_id(const IdOptions& opt, Streams& io) {
  const Model model = load_robot(opt.rows);
  const Friction friction = load_friction(model, opt);
  RowCommand command;
  command.name = "id";
  command.order = opt.static_pose ? 0 : 2;
  command.make_task = [&](const Header& header, const std::string& file, const Notes&) {
    return std::make_unique<IdTask>(model, friction, opt, header, file);
  };
  return run_rows(opt.rows, model, command, io);
}

}  // namespace

void register_id(CLI::App& app, Dispatch& dispatch) {
  auto opt = std::make_shared<IdOptions>();
  CLI::App* cmd = add_command(
      app, "id",
      "Inverse dynamics (recursive Newton-Euler) for every row of trajectory tables.\n"
      "Reads t, q.<joint>, v.<joint>, a.<joint> (v and a derived from q and t when absent) and\n"
      "optional wrench.<frame>.fx .fy .fz .mx .my .mz; writes t and tau.<joint>.",
      {"eom id robots/iiwa14.urdf trajectories/iiwa14_wave.csv -o tau.csv",
       "eom id robots/ur5.urdf trajectories/ur5_wave.csv --terms --fail-on-limit -o tau.csv",
       "eom id robots/solo12.urdf trajectories/solo12_floating_walk.csv --floating-base "
       "--output-dir out/",
       "eom id robots/planar_2r.urdf tests/data/rows/planar_2r_poses.csv --static"});
  add_robot_options(*cmd, opt->rows.robot);
  add_row_options(*cmd, opt->rows, true);
  cmd->add_flag("--static", opt->static_pose,
                "Static torques of poses: v = a = 0, only q columns are read");
  cmd->add_flag(
      "--terms", opt->terms,
      "Also write tau_inertial (M a), tau_coriolis (c), tau_gravity (g), tau_friction and "
      "tau_external (-J^T F) columns, which sum to tau");
  cmd->add_flag("--friction", opt->friction,
                "Add joint friction Fv v + Fs sgn(v) from URDF damping and friction");
  cmd->add_option("--friction-file", opt->friction_file,
                  "JSON {\"<joint>\": {\"damping\": Fv, \"friction\": Fs}} overriding the URDF "
                  "values (implies --friction)");
  cmd->add_option("--friction-smoothing", opt->friction_smoothing,
                  "Replace sgn(v) by tanh(v / EPS) (default 0: exact sign, sgn(0) = 0)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--wrench-frame", opt->wrench_frame,
                  "Axes of wrench.<frame>.* columns: world (default) or local (the frame's own); "
                  "the wrench acts at the frame origin")
      ->check(CLI::IsMember({"world", "local"}));
  cmd->add_flag("--fail-on-limit", opt->fail_on_limit,
                "Exit 1, writing no output file, when a torque exceeds its URDF effort limit");
  cmd->add_flag("--power", opt->power, "Also write power.<joint> = tau v and power.total");
  dispatch.on(cmd, [opt](Streams& io) {
    if (!opt->friction_file.empty()) opt->friction = true;
    return run_id(*opt, io);
  });
}

}  // namespace eom::cli
