#include "eom/parsers/reduced_model.hpp"

#include <algorithm>
#include <string>

#include "core/sizes.hpp"
#include "eom/core/errors.hpp"
#include "parsers/index_coordinates.hpp"

namespace eom {

Model build_reduced_model(const Model& model, const std::vector<int>& joints, ConstVec q) {
  detail::check_size(q.size(), model.nq, "q");
  std::vector<bool> locked(model.njoints, false);
  for (const int j : joints) {
    if (j < 1 || j >= model.njoints) {
      throw InputError("build_reduced_model: " + std::to_string(j) + " is no moving joint");
    }
    if (locked[j]) {
      throw InputError("build_reduced_model: joint '" + model.joint_names[j] + "' given twice");
    }
    if (!q.segment(model.joints[j].idx_q, model.joints[j].nq).allFinite()) {
      throw InputError("build_reduced_model: joint '" + model.joint_names[j] +
                       "' locked at a non-finite configuration");
    }
    locked[j] = true;
  }

  Model out;
  out.name = model.name;
  out.root_link = model.root_link;
  out.floating_base = model.floating_base && !locked[1];
  out.gravity = model.gravity;
  out.total_mass = model.total_mass;
  out.locked = model.locked;
  // body[i]: the joint of `out` whose body carries joint i's body; where[i]: joint i's frame in the
  // frame of that joint (the identity for a joint that stays). Parents come first, so one forward
  // pass composes the fixed placements as the URDF builder composes fixed joints.
  std::vector<int> body(model.njoints, 0);
  std::vector<SE3> where(model.njoints, SE3::Identity());
  out.joints.push_back(model.joints[0]);
  out.parent.push_back(-1);
  out.placement.push_back(model.placement[0]);
  out.joint_names.push_back(model.joint_names[0]);
  out.info.push_back(model.info[0]);
  out.njoints = 1;
  for (int i = 1; i < model.njoints; ++i) {
    const int p = model.parent[i];
    const SE3 placed = where[p] * model.placement[i];  // joint i's frame at its zero, in body[p]
    const Joint& joint = model.joints[i];
    if (locked[i]) {
      body[i] = body[p];
      where[i] = joint_placement(joint, placed, q);
      out.locked.push_back({model.joint_names[i], q.segment(joint.idx_q, joint.nq)});
      continue;
    }
    body[i] = out.njoints++;
    Joint moved = joint;
    moved.idx_q = out.nq;
    moved.idx_v = out.nv;
    out.nq += joint.nq;
    out.nv += joint.nv;
    out.joints.push_back(moved);
    out.parent.push_back(body[p]);
    out.placement.push_back(placed);
    out.joint_names.push_back(model.joint_names[i]);
    out.info.push_back(model.info[i]);
  }
  out.inertia.assign(out.njoints, Inertia::Zero());
  for (int i = 0; i < model.njoints; ++i) {
    out.inertia[body[i]] += model.inertia[i].transformed(where[i]);
  }
  for (const Frame& frame : model.frames) {
    // the link a locked joint moved is now welded to that joint's parent link
    std::string attached_to = frame.attached_to;
    const JointInfo& info = model.info[frame.parent];
    if (locked[frame.parent] && frame.name == info.child_link) {
      attached_to = info.parent_link.empty() ? "world" : info.parent_link;
    }
    out.frames.push_back(
        {frame.name, body[frame.parent], where[frame.parent] * frame.placement, attached_to});
  }
  detail::index_coordinates(out);
  return out;
}

std::vector<int> lock_mimic_followers(const Model& model, std::vector<int>& joints, VecRef q) {
  std::vector<int> added;
  // joints grows while it is walked: followers of followers are reached too
  for (size_t k = 0; k < joints.size(); ++k) {
    const Joint& leader = model.joints[joints[k]];
    if (!is_one_dof(leader)) continue;  // a mimic tag follows a 1-DoF joint
    for (int i = 1; i < model.njoints; ++i) {
      const JointInfo& info = model.info[i];
      if (!info.mimic_joint || *info.mimic_joint != model.joint_names[joints[k]] ||
          !is_one_dof(model.joints[i]) ||
          std::find(joints.begin(), joints.end(), i) != joints.end()) {
        continue;
      }
      q[model.joints[i].idx_q] = info.mimic_multiplier * q[leader.idx_q] + info.mimic_offset;
      joints.push_back(i);
      added.push_back(i);
    }
  }
  return added;
}

}  // namespace eom
