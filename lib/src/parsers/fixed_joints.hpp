// Fixed joints merge a URDF link into the body of its parent (DESIGN: joint order): the one walk
// over a body's links, shared by the model builder (urdf.cpp) and the model check (check.cpp).
// Private to libeom.
#pragma once

#include "eom/parsers/urdf.hpp"

namespace eom::detail {

/// The inertia of a URDF link in the link frame: <inertial> gives it about the centre of mass, in
/// the axes of the inertial origin.
inline Inertia link_inertia(const UrdfLink& link) {
  return {link.mass, link.inertial_origin.p,
          link.inertial_origin.R * link.inertia * link.inertial_origin.R.transpose()};
}

/// Walks the links of one body depth-first from `link`, which sits at `where` (a placement in the
/// body's frame, or several placements that compose alike with `where * origin`):
/// on_link(link, where) for each link of the body, in the order visited; a fixed joint is
/// followed to its child at where * origin, and a moving joint leaves the body:
/// on_moving(joint, child, where * origin) with its index in urdf.joints. for_each_child(link, f)
/// calls f(joint index, child link index) for the joints below a link, in the caller's order.
template <class Where, class ForEachChild, class OnLink, class OnMoving>
void walk_body(const UrdfDescription& urdf, int link, const Where& where,
               const ForEachChild& for_each_child, const OnLink& on_link,
               const OnMoving& on_moving) {
  on_link(link, where);
  for_each_child(link, [&](int joint, int child) {
    const UrdfJoint& j = urdf.joints[joint];
    const Where there = where * j.origin;
    if (j.type == "fixed") {
      walk_body(urdf, child, there, for_each_child, on_link, on_moving);
    } else {
      on_moving(joint, child, there);
    }
  });
}

}  // namespace eom::detail
