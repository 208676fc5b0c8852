// The joints a table of samples lacks, filled row by row: a mimic joint from its leader (URDF
// <mimic>: q = multiplier * q_leader + offset), any other at the neutral configuration.
#pragma once

#include <vector>

#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// One joint to fill: from `leader` (a joint index) when >= 0, else neutral.
struct JointFill {
  int joint = 0;
  int leader = -1;
  double multiplier = 1, offset = 0;
};

/// Orders `fills` so that a mimic joint comes after its leader when the leader is filled too: a
/// chain of mimics may be written in any order in the URDF. The model has no mimic cycles
/// (check_urdf refuses them).
void order_leaders_first(std::vector<JointFill>& fills);

/// Fills the configuration q (nq) of those joints, in order (a mimic of a mimic after its
/// leader). Allocates nothing.
void fill_configuration(const Model& model, const std::vector<JointFill>& fills, VecRef q);

/// Fills a time derivative of q (nv) of those joints: the leader's times the multiplier (the
/// offset is constant), zero when neutral. Allocates nothing.
void fill_derivative(const Model& model, const std::vector<JointFill>& fills, VecRef dq);

}  // namespace eom
