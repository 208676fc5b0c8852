// Reference values of tests/data/reference (copied from the shared reference set, computed by
// Pinocchio 3.7), mapped onto eom's joint order by joint name.
#pragma once

#include <fstream>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <eom/multibody/model.hpp>
#include <eom/parsers/urdf.hpp>

#include "paths.hpp"

namespace eom::test {

inline const std::vector<std::string> kReferenceFiles = {
    "anymal", "anymal_freeflyer", "baxter",           "double_pendulum", "finger_edu", "kinova",
    "panda",  "solo12",           "solo12_freeflyer", "talos_left_arm",  "ur5_robot",  "z1"};

struct Reference {
  std::string name;
  nlohmann::json json;
  Model model;
  // reference index -> eom index
  std::vector<int> v_index;      // (nv)
  std::vector<bool> continuous;  // per reference joint: q block is (cos, sin)

  /// eom's q from the reference q (continuous joints: (cos, sin) -> angle).
  Eigen::VectorXd q(const nlohmann::json& ref_q) const {
    Eigen::VectorXd out(model.nq);
    const auto& names = json["joint_names"];
    for (size_t k = 0; k < names.size(); ++k) {
      const int j = joint(names[k]);
      const int iq = json["joint_idx_q"][k];
      const Joint& jt = model.joints[j];
      if (continuous[k]) {
        out[jt.idx_q] = std::atan2(ref_q[iq + 1].get<double>(), ref_q[iq].get<double>());
      } else {
        for (int c = 0; c < jt.nq; ++c) out[jt.idx_q + c] = ref_q[iq + c];
      }
    }
    return out;
  }
  /// eom's ordering of a reference tangent vector (nv).
  Eigen::VectorXd tangent(const nlohmann::json& ref) const {
    Eigen::VectorXd out(model.nv);
    for (size_t k = 0; k < v_index.size(); ++k) out[v_index[k]] = ref[k];
    return out;
  }
  /// eom's ordering of a reference nv x nv matrix.
  Eigen::MatrixXd matrix(const nlohmann::json& ref) const {
    Eigen::MatrixXd out(model.nv, model.nv);
    for (size_t r = 0; r < v_index.size(); ++r) {
      for (size_t c = 0; c < v_index.size(); ++c) out(v_index[r], v_index[c]) = ref[r][c];
    }
    return out;
  }
  /// eom's column ordering of a reference 6 x nv matrix.
  Eigen::MatrixXd columns(const nlohmann::json& ref) const {
    Eigen::MatrixXd out(ref.size(), model.nv);
    for (size_t r = 0; r < ref.size(); ++r) {
      for (size_t c = 0; c < v_index.size(); ++c) out(r, v_index[c]) = ref[r][c];
    }
    return out;
  }
  int joint(const std::string& ref_name) const {
    return model.joint_index(ref_name == "root_joint" ? "root" : ref_name);
  }
};

inline Reference load_reference(const std::string& name) {
  Reference r;
  r.name = name;
  std::ifstream in(kDataDir + "/reference/" + name + ".json");
  r.json = nlohmann::json::parse(in);
  LoadOptions options;
  options.floating_base = r.json["floating_base"];
  r.model = load_urdf(kDataDir + "/robots/" + r.json["robot"].get<std::string>(), options);
  const auto& names = r.json["joint_names"];
  r.v_index.assign(r.json["nv"].get<int>(), -1);
  for (size_t k = 0; k < names.size(); ++k) {
    const std::string type = r.json["joint_types"][k];
    r.continuous.push_back(type.find("RUB") != std::string::npos ||
                           type.find("RevoluteUnbounded") != std::string::npos);
    const int j = r.joint(names[k]);
    if (j < 0) throw std::runtime_error(name + ": eom has no joint " + names[k].get<std::string>());
    const int iv = r.json["joint_idx_v"][k];
    for (int c = 0; c < r.model.joints[j].nv; ++c) r.v_index[iv + c] = r.model.joints[j].idx_v + c;
  }
  return r;
}

inline Eigen::VectorXd vector_of(const nlohmann::json& j) {
  Eigen::VectorXd out(j.size());
  for (size_t k = 0; k < j.size(); ++k) out[k] = j[k];
  return out;
}

inline Eigen::Matrix3d matrix3_of(const nlohmann::json& j) {
  Eigen::Matrix3d out;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) out(r, c) = j[r][c];
  }
  return out;
}

}  // namespace eom::test
