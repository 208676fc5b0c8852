#include "eom/trajectory/joint_fill.hpp"

#include <algorithm>
#include <map>

namespace eom {

void order_leaders_first(std::vector<JointFill>& fills) {
  std::map<int, int> position;  // joint -> its fill
  for (std::size_t k = 0; k < fills.size(); ++k) position[fills[k].joint] = int(k);
  // depth: how many filled leaders are above a fill (bounded by the count: no cycles)
  std::map<int, std::size_t> depth;
  for (const JointFill& f : fills) {
    std::size_t d = 0;
    for (auto it = position.find(f.leader); it != position.end() && d < fills.size();
         it = position.find(fills[it->second].leader)) {
      ++d;
    }
    depth[f.joint] = d;
  }
  std::stable_sort(fills.begin(), fills.end(), [&](const JointFill& a, const JointFill& b) {
    return depth[a.joint] < depth[b.joint];
  });
}

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
