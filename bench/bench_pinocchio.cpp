// eom beside Pinocchio 3.x in one process (built only when -DEOM_PINOCCHIO_SOURCE_DIR names a
// Pinocchio checkout: bench/README.md; never by CI). Pinocchio is used header-only, with its URDF
// parser's two sources compiled in; it loads each URDF itself.
//   rnea             vs pinocchio::rnea
//   crba             vs pinocchio::crba (WORLD convention; it fills M's upper triangle)
//   aba              vs pinocchio::aba (WORLD convention)
//   kinematics       eom::forward_kinematics vs pinocchio::forwardKinematics
//   frame_jacobian   eom::frame_jacobian (local-world-aligned, placing the support path itself)
//                      vs pinocchio::computeFrameJacobian (LOCAL_WORLD_ALIGNED, likewise)
//   rnea_derivatives vs pinocchio::computeRNEADerivatives
//   aba_derivatives  vs pinocchio::computeABADerivatives
//   contact_fd       eom::ContactForwardDynamics vs pinocchio::constraintDynamics (rigid
//                      constraints in LOCAL_WORLD_ALIGNED, no proximal damping: mu = 0), on the
//                      floating robots' feet: 3d points for the quadrupeds, 6d soles for the biped
// Coordinates are matched by joint name (the free-flyer is joint 1 of both); a continuous joint is
// an angle in eom and (cos, sin) in Pinocchio. Before timing the program checks on 64 random states
// that Pinocchio gives eom's tau, M, accelerations, tip Jacobian, derivatives and contact
// accelerations to 1e-8 relative, and exits 1 otherwise. At the end a table gives the median CPU
// ns of each call and the ratio eom / Pinocchio.
//
// Run: build/bench/bench_pinocchio --benchmark_repetitions=5 --benchmark_report_aggregates_only=true

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <map>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include <pinocchio/algorithm/aba-derivatives.hpp>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/constrained-dynamics.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/frames.hpp>
#include <pinocchio/algorithm/jacobian.hpp>
#include <pinocchio/algorithm/kinematics.hpp>
#include <pinocchio/algorithm/rnea-derivatives.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/multibody/data.hpp>
#include <pinocchio/multibody/model.hpp>
#include <pinocchio/parsers/urdf.hpp>

#include <eom/algorithm/contacts.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/algorithm/partial_derivatives.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/urdf.hpp>

#include "median_reporter.hpp"

#ifndef EOM_SOURCE_DIR
#error "EOM_SOURCE_DIR must be defined"
#endif

namespace {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;

struct Robot {
  const char* name;
  const char* path;
  bool floating;
  const char* tip;                // the frame of the Jacobian
  std::vector<const char*> feet;  // the contacts of contact_fd (floating robots)
  eom::ContactKind kind = eom::ContactKind::point;
};

const Robot kRobots[] = {
    {"ur5", EOM_SOURCE_DIR "/robots/ur5.urdf", false, "tool0", {}},
    {"panda", EOM_SOURCE_DIR "/robots/panda.urdf", false, "panda_link8", {}},
    {"solo12",
     EOM_SOURCE_DIR "/robots/solo12.urdf",
     true,
     "HR_FOOT",
     {"FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"}},
    {"anymal",
     EOM_SOURCE_DIR "/tests/data/robots/anymal.urdf",
     true,
     "RH_FOOT",
     {"LF_FOOT", "RF_FOOT", "LH_FOOT", "RH_FOOT"}},
    {"biped",
     EOM_SOURCE_DIR "/tests/data/urdf/biped.urdf",
     true,
     "left_sole_link",
     {"left_sole_link", "right_sole_link"},
     eom::ContactKind::frame},
};

enum class Algorithm {
  rnea,
  crba,
  aba,
  kinematics,
  jacobian,
  rnea_derivatives,
  aba_derivatives,
  contact_fd
};
const char* const kAlgorithmNames[] = {"rnea",
                                       "crba",
                                       "aba",
                                       "kinematics",
                                       "frame_jacobian",
                                       "rnea_derivatives",
                                       "aba_derivatives",
                                       "contact_fd"};
constexpr int kAlgorithms = 8;
constexpr int kStates = 64;

using PinContacts = std::vector<pinocchio::RigidConstraintModel,
                                Eigen::aligned_allocator<pinocchio::RigidConstraintModel>>;
using PinContactData = std::vector<pinocchio::RigidConstraintData,
                                   Eigen::aligned_allocator<pinocchio::RigidConstraintData>>;

// One robot in both libraries, the index maps between their coordinates, and the states (in each
// library's coordinates) that the timing loops cycle through.
struct Problem {
  eom::Model model;
  pinocchio::Model pin;
  int tip = 0;
  pinocchio::FrameIndex pin_tip = 0;
  eom::ContactSet feet;
  PinContacts pin_feet;
  std::vector<int> v_index;        // eom velocity k is Pinocchio's v_index[k]
  std::vector<Vector> q, v, a;     // eom's
  std::vector<Vector> pq, pv, pa;  // Pinocchio's

  explicit Problem(const Robot& robot) : model(load(robot)) {
    if (robot.floating) {
      pinocchio::urdf::buildModel(robot.path, pinocchio::JointModelFreeFlyer(), pin);
    } else {
      pinocchio::urdf::buildModel(robot.path, pin);
    }
    pin.gravity.linear(model.gravity);
    if (pin.nv != model.nv) fail(robot, "the models have different numbers of coordinates");
    tip = model.require_frame(robot.tip);
    pin_tip = pin.getFrameId(robot.tip);
    v_index.assign(model.nv, -1);
    for (int i = 1; i < model.njoints; ++i) {
      const eom::Joint& j = model.joints[i];
      const bool root = robot.floating && i == 1;
      const pinocchio::JointIndex p = root ? 1 : pin.getJointId(model.joint_names[i]);
      if (j.nv == 0) continue;
      if (p >= pin.joints.size() || pin.joints[p].nv() != j.nv) fail(robot, "joints differ");
      for (int c = 0; c < j.nv; ++c) v_index[j.idx_v + c] = pin.joints[p].idx_v() + c;
    }
    for (const char* foot : robot.feet) {
      eom::add_contact(model, model.require_frame(foot), robot.kind, eom::Vec3::UnitZ(), feet);
      const pinocchio::Frame& f = pin.frames[pin.getFrameId(foot)];
      pin_feet.emplace_back(
          robot.kind == eom::ContactKind::frame ? pinocchio::CONTACT_6D : pinocchio::CONTACT_3D,
          pin, f.parentJoint, f.placement, pinocchio::LOCAL_WORLD_ALIGNED);
    }
    eom::Rng rng(42);
    for (int k = 0; k < kStates; ++k) {
      q.push_back(eom::random_configuration(model, rng));
      v.push_back(feet_at_rest(robot, q.back(), eom::random_tangent(model, rng)));
      a.push_back(eom::random_tangent(model, rng));
      pq.push_back(to_pin_q(q.back()));
      pv.push_back(to_pin_v(v.back()));
      pa.push_back(to_pin_v(a.back()));
    }
  }

  // v without the part that moves the feet (v - J^T (J J^T)^-1 J v): contacts that hold do not
  // move, and there a point's and a sole's acceleration mean the same in both libraries (with
  // the feet moving, a 6d contact's "zero acceleration" is the spatial one in one convention and
  // the classical one in the other)
  Vector feet_at_rest(const Robot& robot, const Vector& q_k, const Vector& v_k) const {
    if (robot.feet.empty()) return v_k;
    const int rows = robot.kind == eom::ContactKind::frame ? 6 : 3;
    Eigen::MatrixXd J(rows * robot.feet.size(), model.nv);
    eom::Data data(model);
    for (size_t c = 0; c < robot.feet.size(); ++c) {
      J.middleRows(rows * c, rows) =
          eom::frame_jacobian(model, data, q_k, model.require_frame(robot.feet[c]),
                              eom::ReferenceFrame::local_world_aligned)
              .topRows(rows);
    }
    return v_k - J.transpose() * (J * J.transpose()).ldlt().solve(J * v_k);
  }

  static eom::Model load(const Robot& robot) {
    eom::LoadOptions options;
    options.floating_base = robot.floating;
    return eom::load_urdf(robot.path, options);
  }
  [[noreturn]] static void fail(const Robot& robot, const char* what) {
    std::fprintf(stderr, "bench_pinocchio: %s: %s\n", robot.name, what);
    std::exit(1);
  }

  Vector to_pin_q(const Vector& eq) const {
    Vector out = pinocchio::neutral(pin);
    for (int i = 1; i < model.njoints; ++i) {
      const eom::Joint& j = model.joints[i];
      if (j.nv == 0) continue;
      const pinocchio::JointIndex p =
          i == 1 && model.floating_base ? 1 : pin.getJointId(model.joint_names[i]);
      const int pq0 = pin.joints[p].idx_q();
      if (pin.joints[p].nq() == 2 && j.nq == 1) {  // continuous: (cos, sin)
        out[pq0] = std::cos(eq[j.idx_q]);
        out[pq0 + 1] = std::sin(eq[j.idx_q]);
      } else {
        out.segment(pq0, j.nq) = eq.segment(j.idx_q, j.nq);
      }
    }
    return out;
  }
  Vector to_pin_v(const Vector& ev) const {
    Vector out(ev.size());
    for (int k = 0; k < model.nv; ++k) out[v_index[k]] = ev[k];
    return out;
  }
  Vector from_pin_v(const Vector& pv) const {
    Vector out(pv.size());
    for (int k = 0; k < model.nv; ++k) out[k] = pv[v_index[k]];
    return out;
  }
  Matrix from_pin(const Matrix& pm) const {  // rows and columns over v (any row count: columns)
    Matrix out(pm.rows() == model.nv ? model.nv : pm.rows(), model.nv);
    for (int r = 0; r < out.rows(); ++r) {
      for (int c = 0; c < model.nv; ++c) {
        out(r, c) = pm(pm.rows() == model.nv ? v_index[r] : r, v_index[c]);
      }
    }
    return out;
  }
};

const Problem& problem(int r) {
  static std::vector<std::unique_ptr<Problem>> problems;
  if (problems.empty()) {
    for (const Robot& robot : kRobots) problems.push_back(std::make_unique<Problem>(robot));
  }
  return *problems[r];
}

double relative_error(const Matrix& x, const Matrix& reference) {
  return (x - reference).cwiseAbs().maxCoeff() / std::max(1.0, reference.cwiseAbs().maxCoeff());
}

// Both libraries' workspaces for one robot; each call computes one algorithm at state k.
struct Engines {
  const Problem& p;
  eom::Data data;
  pinocchio::Data pin;
  std::unique_ptr<eom::ContactForwardDynamics> fd;
  PinContactData pin_contact_data;
  pinocchio::ProximalSettings settings{1e-12, 0, 1};  // mu = 0: the exact constrained problem
  Matrix J, pin_J;

  explicit Engines(const Problem& problem)
      : p(problem),
        data(problem.model),
        pin(problem.pin),
        J(6, problem.model.nv),
        pin_J(Matrix::Zero(6, problem.model.nv)) {
    if (!p.pin_feet.empty()) {
      fd = std::make_unique<eom::ContactForwardDynamics>(p.model, p.feet);
      for (const auto& c : p.pin_feet) pin_contact_data.emplace_back(c);
      pinocchio::initConstraintDynamics(p.pin, pin, p.pin_feet);
    }
  }

  const double* eom_call(Algorithm algorithm, int k) {
    const Vector &q = p.q[k], &v = p.v[k], &a = p.a[k];
    switch (algorithm) {
      case Algorithm::rnea:
        return eom::rnea(p.model, data, q, v, a).data();
      case Algorithm::crba:
        return eom::crba(p.model, data, q).data();
      case Algorithm::aba:
        return eom::aba(p.model, data, q, v, a).data();
      case Algorithm::kinematics:
        eom::forward_kinematics(p.model, data, q);
        return data.oMi.back().p.data();
      case Algorithm::jacobian:
        return eom::frame_jacobian(p.model, data, q, p.tip,
                                   eom::ReferenceFrame::local_world_aligned)
            .data();
      case Algorithm::rnea_derivatives:
        eom::rnea_derivatives(p.model, data, q, v, a);
        return data.dtau_dq.data();
      case Algorithm::aba_derivatives:
        eom::aba_derivatives(p.model, data, q, v, a);
        return data.dqdd_dq.data();
      case Algorithm::contact_fd:
        fd->solve(q, v, a);
        return fd->accelerations().data();
    }
    return nullptr;
  }

  const double* pin_call(Algorithm algorithm, int k) {
    const Vector &q = p.pq[k], &v = p.pv[k], &a = p.pa[k];
    switch (algorithm) {
      case Algorithm::rnea:
        return pinocchio::rnea(p.pin, pin, q, v, a).data();
      case Algorithm::crba:
        return pinocchio::crba(p.pin, pin, q, pinocchio::Convention::WORLD).data();
      case Algorithm::aba:
        return pinocchio::aba(p.pin, pin, q, v, a, pinocchio::Convention::WORLD).data();
      case Algorithm::kinematics:
        pinocchio::forwardKinematics(p.pin, pin, q);
        return pin.oMi.back().translation().data();
      case Algorithm::jacobian:
        pinocchio::computeFrameJacobian(p.pin, pin, q, p.pin_tip, pinocchio::LOCAL_WORLD_ALIGNED,
                                        pin_J);
        return pin_J.data();
      case Algorithm::rnea_derivatives:
        pinocchio::computeRNEADerivatives(p.pin, pin, q, v, a);
        return pin.dtau_dq.data();
      case Algorithm::aba_derivatives:
        pinocchio::computeABADerivatives(p.pin, pin, q, v, a);
        return pin.ddq_dq.data();
      case Algorithm::contact_fd:
        return pinocchio::constraintDynamics(p.pin, pin, q, v, a, p.pin_feet, pin_contact_data,
                                             settings)
            .data();
    }
    return nullptr;
  }
};

// Pinocchio's results against eom's on every state, in eom's coordinates.
void check_agreement(const Robot& robot, const Problem& p) {
  Engines e(p);
  double worst = 0;
  const char* what = "";
  auto track = [&](double error, const char* quantity) {
    if (!(error <= worst)) worst = error, what = quantity;
  };
  for (int k = 0; k < kStates; ++k) {
    e.eom_call(Algorithm::rnea, k);
    e.pin_call(Algorithm::rnea, k);
    track(relative_error(p.from_pin_v(e.pin.tau), e.data.tau), "rnea");
    e.eom_call(Algorithm::crba, k);
    e.pin_call(Algorithm::crba, k);
    e.pin.M.triangularView<Eigen::StrictlyLower>() = e.pin.M.transpose();
    track(relative_error(p.from_pin(e.pin.M), e.data.M), "crba");
    e.eom_call(Algorithm::aba, k);
    e.pin_call(Algorithm::aba, k);
    track(relative_error(p.from_pin_v(e.pin.ddq), e.data.qdd), "aba");
    e.eom_call(Algorithm::jacobian, k);
    e.pin_call(Algorithm::jacobian, k);
    track(relative_error(p.from_pin(e.pin_J), e.data.J), "frame_jacobian");
    e.eom_call(Algorithm::rnea_derivatives, k);
    e.pin_call(Algorithm::rnea_derivatives, k);
    track(relative_error(p.from_pin(e.pin.dtau_dq), e.data.dtau_dq), "rnea_derivatives");
    e.eom_call(Algorithm::aba_derivatives, k);
    e.pin_call(Algorithm::aba_derivatives, k);
    track(relative_error(p.from_pin(e.pin.ddq_dq), e.data.dqdd_dq), "aba_derivatives");
    if (e.fd) {
      e.eom_call(Algorithm::contact_fd, k);
      e.pin_call(Algorithm::contact_fd, k);
      track(relative_error(p.from_pin_v(e.pin.ddq), e.fd->accelerations()), "contact_fd");
    }
  }
  std::printf("%-7s nv=%d  largest difference of Pinocchio from eom %.1e (relative, %s)\n",
              robot.name, p.model.nv, worst, what);
  if (!(worst < 1e-8)) {
    std::fprintf(stderr, "bench_pinocchio: %s: Pinocchio and eom disagree on %s; not timing\n",
                 robot.name, what);
    std::exit(1);
  }
}

void run(benchmark::State& state, int robot, bool pinocchio_side, Algorithm algorithm) {
  Engines e(problem(robot));
  int k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(pinocchio_side ? e.pin_call(algorithm, k) : e.eom_call(algorithm, k));
    benchmark::ClobberMemory();
    k = (k + 1) % kStates;
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (size_t r = 0; r < std::size(kRobots); ++r) check_agreement(kRobots[r], problem(int(r)));
  // the libraries alternate per robot and algorithm, so that a change of load hits both alike
  for (size_t r = 0; r < std::size(kRobots); ++r) {
    for (int alg = 0; alg < kAlgorithms; ++alg) {
      if (Algorithm(alg) == Algorithm::contact_fd && kRobots[r].feet.empty()) continue;
      for (const bool pin_side : {false, true}) {
        const std::string name = std::string(pin_side ? "pinocchio" : "eom") + "/" +
                                 kAlgorithmNames[alg] + "/" + kRobots[r].name;
        benchmark::RegisterBenchmark(name.c_str(), run, int(r), pin_side, Algorithm(alg));
      }
    }
  }
  const std::map<std::string, double> median_ns = eom::bench::run_with_medians(argc, argv);
  if (median_ns.empty()) return 0;
  std::printf("\nmedian CPU ns per call, same process; ratio: eom's time / Pinocchio's\n");
  std::printf("%-7s %-17s %9s %9s %7s\n", "robot", "algorithm", "eom", "pinocchio", "ratio");
  for (const Robot& robot : kRobots) {
    for (const char* alg : kAlgorithmNames) {
      const std::string key = std::string("/") + alg + "/" + robot.name;
      const auto e = median_ns.find("eom" + key);
      const auto p = median_ns.find("pinocchio" + key);
      if (e == median_ns.end() || p == median_ns.end()) continue;
      std::printf("%-7s %-17s %9.0f %9.0f %7.2f\n", robot.name, alg, e->second, p->second,
                  e->second / p->second);
    }
  }
  return 0;
}
