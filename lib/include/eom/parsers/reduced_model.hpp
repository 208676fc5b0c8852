// Locked joints: the model in which some moving joints are fixed at given configurations
// (Pinocchio's buildReducedModel), for robots whose files carry joints a dynamics user wants
// frozen (massless finger joints make the mass matrix singular).
#pragma once

#include <vector>

#include "eom/multibody/joint.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// The model with `joints` (indices of moving joints of `model`) fixed at their blocks of `q` (a
/// configuration of `model`, nq entries; the other joints' entries are not read). Each locked joint
/// becomes a fixed joint at jMc(q): its body's inertia merges into the body that carries its parent
/// (as a URDF fixed joint merges its child link), the frames it carried and the joints below it
/// are re-attached to that body at their placement there, and the remaining joints keep their
/// order, names, limits, damping, friction and mimic tags with q and v renumbered. Kinematics and
/// dynamics of the result equal those of `model` with the locked joints held at q (v = a = 0 on
/// them). The result lists the locked joints in Model::locked (after any locked before); locking
/// the free-flyer root leaves a fixed-base model. Throws InputError for an index that names no
/// moving joint, a joint given twice, a q of the wrong size or a non-finite locked entry.
Model build_reduced_model(const Model& model, const std::vector<int>& joints, ConstVec q);

/// The joints whose <mimic> follows one of `joints`, directly or through another follower, that
/// are not in `joints` yet: each is appended to `joints` and its coordinate written into q at
/// multiplier * q_leader + offset, so that locking a leader locks its followers where the mimic
/// tag puts them. Returns the joints appended, in the order appended.
std::vector<int> lock_mimic_followers(const Model& model, std::vector<int>& joints, VecRef q);

}  // namespace eom
