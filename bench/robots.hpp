// The robots the benchmarks time, and the states their timing loops cycle through.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>

#include <eom/multibody/configuration.hpp>
#include <eom/multibody/model.hpp>
#include <eom/parsers/urdf.hpp>

#ifndef EOM_SOURCE_DIR
#error "EOM_SOURCE_DIR must be defined"
#endif

namespace eom::bench {

struct Robot {
  const char* name;
  const char* path;
  bool floating_base;
};

inline const Robot kUr5{"ur5", EOM_SOURCE_DIR "/robots/ur5.urdf", false};
inline const Robot kPanda{"panda", EOM_SOURCE_DIR "/robots/panda.urdf", false};
inline const Robot kIiwa14{"iiwa14", EOM_SOURCE_DIR "/robots/iiwa14.urdf", false};
inline const Robot kTalosLeftArm{"talos_left_arm",
                                 EOM_SOURCE_DIR "/tests/data/robots/talos_left_arm.urdf", false};
inline const Robot kAnymal{"anymal", EOM_SOURCE_DIR "/tests/data/robots/anymal.urdf", false};
inline const Robot kAnymalFloating{"anymal_floating",
                                   EOM_SOURCE_DIR "/tests/data/robots/anymal.urdf", true};
inline const Robot kBaxter{"baxter", EOM_SOURCE_DIR "/tests/data/robots/baxter.urdf", false};
inline const Robot kSolo12Floating{"solo12_floating", EOM_SOURCE_DIR "/robots/solo12.urdf", true};
inline const Robot kBipedFloating{"biped_floating", EOM_SOURCE_DIR "/tests/data/urdf/biped.urdf",
                                  true};

inline Model load(const Robot& robot) {
  LoadOptions options;
  options.floating_base = robot.floating_base;
  return load_urdf(robot.path, options);
}

/// A fixed set of random states (seeded), cycled by the timing loops so that branch predictors
/// see realistic variety: configuration k is q[k], and dq[k] holds `columns` random tangent
/// vectors (v, a, the derivatives of q, or tau: whatever the benchmark reads).
struct States {
  static constexpr int kCount = 64;
  States(const Model& model, int columns) {
    Rng rng(42);
    for (int k = 0; k < kCount; ++k) {
      q.push_back(random_configuration(model, rng));
      dq.emplace_back(model.nv, columns);
      for (int c = 0; c < columns; ++c) dq.back().col(c) = random_tangent(model, rng);
    }
  }
  std::vector<Eigen::VectorXd> q;
  std::vector<Eigen::MatrixXd> dq;
};

inline std::string sizes(const Model& model) {
  return "nq=" + std::to_string(model.nq) + " nv=" + std::to_string(model.nv);
}

}  // namespace eom::bench
