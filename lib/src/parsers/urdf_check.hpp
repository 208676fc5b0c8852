// check_urdf's passes over a URDF description, one class for the state they share (the name
// indices, the tree, the merged bodies): urdf_check.cpp runs them and holds the passes over names,
// joints and the tree's structure; urdf_check_inertia.cpp those over masses and inertias.
// Private to libeom.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "eom/multibody/spatial.hpp"
#include "eom/parsers/urdf.hpp"

namespace eom::detail {

// how check_urdf's messages show numbers and lists
namespace check_text {
// numbers from the file, in shortest round-trip form so the message shows what was written
std::string exact(double x);
std::string exact(const Vec3& v);
// computed numbers (eigenvalues, masses): round-off digits would only hide the point
std::string approx(double x);
// 'name' (line N)
std::string named_at(const std::string& name, int line);
// "a", "a and b", "a, b and c"
std::string listing(const std::vector<std::string>& items);
}  // namespace check_text

// a moving joint for the mass-matrix analysis: a URDF joint, or the free-flyer of a floating base
struct Mover {
  std::string name;
  std::string type;
  int line = 0;
  int child = 0;  // link index
  Vec3 axis = Vec3::UnitX();
  bool free_flyer = false;
};

// links merged by fixed joints into one rigid body, as the dynamics see them
struct Body {
  int mover = -1;          // the joint that moves it; -1: the root body (world or free-flyer)
  std::vector<int> links;  // the first is the link the body starts at
  Inertia inertia;         // combined, in the frame of that link
  bool misplaced = false;  // a link's placement overflowed (reported): so does the sum
};

// a link on the current path of the depth-first search for cycles
struct PathStep {
  int link;
  int via;               // joint that entered the link, -1 at a start
  std::size_t next = 0;  // next child joint to follow
};

class UrdfChecker {
 public:
  UrdfChecker(const UrdfDescription& urdf, const LoadOptions& options);
  /// Every finding: errors, then warnings, then notes, each group by line (check_urdf).
  std::vector<Diagnostic> run();

 private:
  void error(int line, std::string message);
  void warning(int line, std::string message, bool on_load = false);
  void note(int line, std::string message, bool on_load = false);

  // ---- names, joints, structure (urdf_check.cpp) ----
  void index_names();
  void check_joint(const UrdfJoint& joint);
  void check_limits(const UrdfJoint& joint);
  void check_mimic(const UrdfJoint& joint);
  void find_mimic_cycles();
  int link_index(const std::string& name) const;
  void check_structure();
  void find_cycles();
  void report_cycle(const std::vector<PathStep>& path, int entry, int closing_joint);

  // ---- masses and inertias (urdf_check_inertia.cpp) ----
  bool check_link(const UrdfLink& link);
  void check_inertia(int index, const Body* body);
  std::string body_name(const Body& body) const;
  bool merge_bodies();
  auto child_link() const;
  void merge_tree();
  void merge_link(int link, int body, const SE3& in_body, const SE3& in_world);
  void find_empty_subtrees();
  void check_motion();
  void check_mover(const Mover& mover);

  const UrdfDescription& urdf_;
  const LoadOptions& options_;
  std::vector<Diagnostic> found_;
  int errors_ = 0;
  std::map<std::string, int> link_index_, joint_index_;
  std::vector<std::vector<int>> parent_joints_, child_joints_;  // per link (nlinks)
  int root_ = -1;
  std::vector<bool> subtree_empty_;  // zero mass and zero inertia all the way down (nlinks)
  std::vector<bool> finite_;         // the link's own numbers are finite (nlinks)
  std::vector<Body> bodies_;         // bodies_[0]: the root body
  std::vector<int> body_of_;         // per link (nlinks)
};

}  // namespace eom::detail
