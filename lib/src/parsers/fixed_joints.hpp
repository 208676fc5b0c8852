// Fixed joints merge a URDF link into the body of its parent (DESIGN: joint order): the one walk
// over a body's links, shared by the model builder (urdf.cpp) and the model check (urdf_check.cpp).
// Private to libeom.
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "eom/parsers/urdf.hpp"

namespace eom::detail {

/// The inertia of a URDF link in the link frame: <inertial> gives it about the centre of mass, in
/// the axes of the inertial origin.
inline Inertia link_inertia(const UrdfLink& link) {
  return {link.mass, link.inertial_origin.p,
          link.inertial_origin.R * link.inertia * link.inertial_origin.R.transpose()};
}

/// Walks the links below `link` depth-first, each link's child joints in the order
/// child_joints[link] gives (indices into urdf.joints; child_link(joint) is the joint's child link
/// index), without recursion: a chain of thousands of links must not exhaust the call stack.
/// `link` belongs to body `body` at `where` (a placement in the body's frame, or several
/// placements that compose alike with `where * origin`). on_link(link, body, where) is called for
/// each link reached, in preorder. A fixed joint carries its child into the same body at
/// where * origin; a moving joint asks on_moving(joint, child, body, where * origin), which returns
/// the body and placement the child starts (std::optional<std::pair<int, Where>>), or nothing to
/// leave that subtree unvisited.
template <class Where, class ChildLink, class OnLink, class OnMoving>
void walk_links(const UrdfDescription& urdf, const std::vector<std::vector<int>>& child_joints,
                const ChildLink& child_link, int link, int body, const Where& where,
                const OnLink& on_link, const OnMoving& on_moving) {
  struct Step {
    int link, body;
    Where where;
    std::size_t next;  // the next of child_joints[link] to follow
  };
  std::vector<Step> path{{link, body, where, 0}};
  on_link(link, body, where);
  while (!path.empty()) {
    Step& top = path.back();
    if (top.next == child_joints[top.link].size()) {
      path.pop_back();
      continue;
    }
    const int joint = child_joints[top.link][top.next++];
    const int child = child_link(joint);
    const Where there = top.where * urdf.joints[joint].origin;
    if (urdf.joints[joint].type == "fixed") {
      const int carrier = top.body;
      on_link(child, carrier, there);
      path.push_back({child, carrier, there, 0});
    } else if (const auto start = on_moving(joint, child, top.body, there)) {
      on_link(child, start->first, start->second);
      path.push_back({child, start->first, start->second, 0});
    }
  }
}

}  // namespace eom::detail
