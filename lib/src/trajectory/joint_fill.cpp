#include "eom/trajectory/joint_fill.hpp"

namespace eom {

void fill_configuration(const Model& model, const std::vector<JointFill>& fills, VecRef q) {
  for (const JointFill& f : fills) {
    const Joint& j = model.joints[f.joint];
    if (f.leader < 0) {
      joint_neutral(j, q);
    } else {
      q[j.idx_q] = f.multiplier * q[model.joints[f.leader].idx_q] + f.offset;
    }
  }
}

void fill_derivative(const Model& model, const std::vector<JointFill>& fills, VecRef dq) {
  for (const JointFill& f : fills) {
    const Joint& j = model.joints[f.joint];
    if (f.leader < 0) {
      dq.segment(j.idx_v, j.nv).setZero();
    } else {
      dq[j.idx_v] = f.multiplier * dq[model.joints[f.leader].idx_v];
    }
  }
}

}  // namespace eom
