// MJCF <actuator>s as the joints' effort limits: the one part of MuJoCo's actuators that belongs
// to eom's model (eom's controllers are its own; the gains, control ranges and dynamics of the
// file's actuators are not read). Private to libeom.
#pragma once

#include <set>
#include <string>
#include <vector>

#include <tinyxml2.h>

#include "eom/multibody/model.hpp"
#include "parsers/mjcf_attributes.hpp"

namespace eom::detail {

/// Sets the effort limit of every hinge and slide joint that the given <actuator> children drive
/// through a joint transmission, as MuJoCo 2.2 bounds the force they apply to it: each actuator
/// with a force limit (forcelimited="true", or with autolimits a forcerange given) contributes
/// |gear[0]| * max(|lo|, |hi|) of its forcerange, and the joint's limit is their sum; a joint
/// driven by an actuator without a force limit, or by none, keeps the limit its own
/// actuatorfrcrange gives (joint_actuator_force_bound), which also bounds the sum. eom's limits are
/// symmetric: an asymmetric forcerange is taken by its larger bound, with a warning. Returns what
/// the actuators hold that eom does not use, for the reader's "ignored" warning.
std::set<std::string> read_actuator_force_limits(
    const MjcfAttributes& attributes, const std::vector<const tinyxml2::XMLElement*>& actuators,
    bool autolimits, Model& model);

/// The bound a hinge or slide <joint>'s actuatorfrcrange (MuJoCo 3's clamp of the total actuator
/// force on the joint, read the same way: actuatorfrclimited, or autolimits) puts on its effort:
/// max(|lo|, |hi|), infinite without one.
double joint_actuator_force_bound(const MjcfAttributes& attributes,
                                  const tinyxml2::XMLElement* joint, const std::string& cls,
                                  bool autolimits);

}  // namespace eom::detail
