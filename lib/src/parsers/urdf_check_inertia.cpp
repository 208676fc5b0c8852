// check_urdf's passes over masses and inertias: each link's own numbers and tensor, the bodies
// the dynamics use (links merged by fixed joints), and whether every moving joint moves some
// inertia (else the mass matrix is singular).

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Eigenvalues>

#include "eom/core/errors.hpp"
#include "eom/multibody/component_names.hpp"
#include "core/pivot.hpp"
#include "core/tolerances.hpp"
#include "parsers/fixed_joints.hpp"
#include "parsers/urdf_check.hpp"

namespace eom::detail {
namespace {

using namespace check_text;

bool is_moving(const std::string& type) { return type != "fixed"; }

Vec3 principal_moments(const Mat3& inertia) {
  const Eigen::SelfAdjointEigenSolver<Mat3> solver(inertia, Eigen::EigenvaluesOnly);
  if (solver.info() != Eigen::Success) return Vec3::Constant(NAN);
  return solver.eigenvalues();  // ascending
}

// The scale against which round-off is judged: the largest principal moment of the link and
// of its body, and the body's mass spread over a millimetre (so that a point mass's
// numerically zero tensor stays zero); kSmallestInertiaScale at least.
double body_scale(const Vec3& lambda, const Body* body) {
  double scale = std::max(kSmallestInertiaScale, lambda.cwiseAbs().maxCoeff());
  if (body) {
    scale = std::max(scale, principal_moments(body->inertia.I_c).cwiseAbs().maxCoeff());
    scale = std::max(scale, body->inertia.m * kSquareMillimetre);
  }
  return scale;
}

// computed numbers within round-off of zero are shown as 0: the solver's noise would distract
std::string moments(const Vec3& lambda, double tolerance) {
  const auto shown = [&](double x) { return approx(std::abs(x) <= tolerance ? 0.0 : x); };
  return shown(lambda[0]) + ", " + shown(lambda[1]) + ", " + shown(lambda[2]);
}

// A link's placement in its body's frame and in the world, moved along joints together.
struct BodyAndWorld {
  SE3 in_body, in_world;
  friend BodyAndWorld operator*(const BodyAndWorld& at, const SE3& origin) {
    return {at.in_body * origin, at.in_world * origin};
  }
};

// The pivot S^T I S of a leaf body of mass m (rotational inertia I_o about the joint frame
// origin, I_c about its centre of mass) and the scale of its round-off: the body has kinetic
// energy for every motion of its joint when detail::pivot_positive(value, scale). Each compares
// quantities of one unit, with the round-off of aba's pivot rule allowed relative to the body
// alone (no floor: a tiny body is not a massless one).
struct Pivot {
  double value = 0, scale = 0;
};

Pivot leaf_pivot(const Mover& mover, double m, const Mat3& I_o, const Mat3& I_c) {
  const Vec3 a = mover.axis.stableNormalized();
  if (mover.type == "prismatic") return {m, 0};
  if (mover.type == "planar") {
    // det S^T I S = m^2 a^T I_c a: in-plane translations, then rotation about the centre of mass
    return m > 0 ? Pivot{a.dot(I_c * a), I_c.trace()} : Pivot{};
  }
  if (mover.type == "floating") {
    const Eigen::SelfAdjointEigenSolver<Mat3> solver(I_c, Eigen::EigenvaluesOnly);
    return m > 0 ? Pivot{solver.eigenvalues()[0], I_c.trace()} : Pivot{};
  }
  return {a.dot(I_o * a), I_o.trace()};  // revolute, continuous
}

// "ixx 1e+308, iyy 1e+308": the entries of an inertia tensor that `shown` picks
template <typename Pick>
std::string inertia_entries(const Mat3& I, Pick shown) {
  const std::array<std::pair<const char*, double>, 6> entries = {{{"ixx", I(0, 0)},
                                                                  {"ixy", I(0, 1)},
                                                                  {"ixz", I(0, 2)},
                                                                  {"iyy", I(1, 1)},
                                                                  {"iyz", I(1, 2)},
                                                                  {"izz", I(2, 2)}}};
  std::vector<std::string> picked;
  for (const auto& [name, value] : entries) {
    if (shown(value)) picked.push_back(std::string(name) + " " + exact(value));
  }
  return listing(picked);
}

}  // namespace

// the link's own numbers; true when they are all finite
bool UrdfChecker::check_link(const UrdfLink& link) {
  if (!link.has_inertial) return true;
  const std::string who = "link " + quote_input(link.name) + ": ";
  const int line = link.inertial_line;
  bool finite = true;
  if (!link.inertial_origin.p.allFinite()) {
    error(line, who + "inertial origin xyz " + exact(link.inertial_origin.p) + " must be finite");
    finite = false;
  }
  if (!link.inertial_origin.R.allFinite()) {
    error(line, who + "inertial origin rpy must be finite");
    finite = false;
  }
  if (!std::isfinite(link.mass)) {
    error(line, who + "mass " + exact(link.mass) + " must be finite");
    finite = false;
  } else if (link.mass < 0) {
    error(line, who + "mass " + exact(link.mass) + " must be non-negative");
  }
  const Mat3& I = link.inertia;
  if (!I.allFinite()) {
    error(line, who + "inertia " + inertia_entries(I, [](double x) { return !std::isfinite(x); }) +
                    " must be finite");
    finite = false;
  } else if (!std::isfinite(I.cwiseAbs().sum())) {
    // finite entries whose sums are not: the dynamics add them up (I w, the trace)
    const double largest = I.cwiseAbs().maxCoeff();
    error(line, who + "inertia " + inertia_entries(I, [&](double x) {
                  return std::abs(x) >= largest / 16;
                }) + " overflows: the sums of its entries are beyond a double (1.8e308)");
    finite = false;
  }
  return finite;
}

// A link's inertia tensor: positive semi-definite, then the triangle inequality of its
// principal moments, both within round-off of the body's scale (numerically zero tensors such
// as -2.4e-35, 0, 2.4e-35 are fine). What a defect means depends on the body the dynamics use
// (`body`, null when the tree is unsound and the link is judged alone): none if the link is
// welded to the world; none if it is merged by fixed joints into a moving body whose combined
// inertia is positive semi-definite; wrong results if that body is not.
void UrdfChecker::check_inertia(int index, const Body* body) {
  const UrdfLink& link = urdf_.links[index];
  const Vec3 lambda = principal_moments(link.inertia);
  if (!lambda.allFinite()) return;
  const double tolerance = kModelRoundOff * body_scale(lambda, body);
  const bool definite = lambda[0] >= -tolerance;
  // sorted, so a + b >= c is the only inequality that can fail
  const bool triangle = lambda[0] + lambda[1] >= lambda[2] - tolerance;
  if (definite && triangle) return;
  const std::string who = "link " + quote_input(link.name) + ": ";
  const std::string defect = definite ? "principal inertias " + moments(lambda, tolerance) +
                                            " violate the triangle inequality (a + b < c)"
                                      : "inertia is not positive semi-definite (eigenvalues " +
                                            moments(lambda, tolerance) + ")";
  const int line = link.inertial_line;
  if (body && body->mover < 0 && !options_.floating_base) {
    note(line, who + defect + "; welded to the world: not used", !definite);
    return;
  }
  if (definite) {
    warning(line, who + defect + ": not a physical rigid body");
    return;
  }
  if (!body || body->links.size() == 1) {
    error(line, who + defect);
    return;
  }
  // an indefinite link merged into a moving body: the body is what the dynamics use
  const Vec3 combined = principal_moments(body->inertia.I_c);
  const double body_tolerance = kModelRoundOff * body_scale(combined, body);
  if (combined[0] < -body_tolerance) {
    error(line, who + defect + ", and so is the body it is merged by fixed joints into (" +
                    body_name(*body) + "; eigenvalues " + moments(combined, body_tolerance) + ")");
  } else {
    warning(line,
            who + defect + "; harmless: merged by fixed joints into " + body_name(*body) +
                ", whose combined inertia is positive semi-definite (principal inertias " +
                moments(combined, body_tolerance) + ")",
            true);
  }
}

std::string UrdfChecker::body_name(const Body& body) const {
  const std::string root = quote_input(urdf_.links[body.links.front()].name);
  if (body.mover >= 0) {
    return "link " + root + ", the body moved by joint " +
           quote_input(urdf_.joints[body.mover].name);
  }
  return "the floating base (root link " + root + ", moved by the free-flyer 'root')";
}

// The bodies the dynamics use: links merged by fixed joints into the body of the joint that
// moves them (or of the root). Placing every link in the world (at the neutral configuration)
// and merging must give finite numbers: two 1e308 kg links on a fixed joint, or an origin of
// 1e200 under a massive link, do not. False (with errors) when they do not.
bool UrdfChecker::merge_bodies() {
  const int errors_before = errors_;
  body_of_.assign(urdf_.links.size(), -1);
  bodies_.clear();
  bodies_.push_back({-1, {}, Inertia::Zero(), false});
  merge_tree();
  for (const Body& body : bodies_) {
    const Inertia& in = body.inertia;
    if (body.misplaced || (std::isfinite(in.m) && in.c.allFinite() && in.I_c.allFinite())) {
      continue;
    }
    std::vector<std::string> names;
    int line = 0;
    for (int link : body.links) {
      if (urdf_.links[link].mass == 0) continue;
      names.push_back(quote_input(urdf_.links[link].name));
      line = std::max(line, urdf_.links[link].inertial_line);
    }
    error(line, "links " + listing(names) +
                    ", merged by fixed joints into one body, overflow when combined (mass " +
                    approx(in.m) + " kg): the numbers are beyond a double");
  }
  return errors_ == errors_before;
}

// a joint's child link, for detail::walk_links (over child_joints_: document order)
auto UrdfChecker::child_link() const {
  return [this](int joint) { return link_index(urdf_.joints[joint].child); };
}

// the links from the root link down, each into its body: the root's, or the one a moving joint
// above it opens
void UrdfChecker::merge_tree() {
  detail::walk_links(
      urdf_, child_joints_, child_link(), root_, 0, BodyAndWorld{SE3::Identity(), SE3::Identity()},
      [&](int link, int body, const BodyAndWorld& at) {
        merge_link(link, body, at.in_body, at.in_world);
      },
      [&](int joint, int, int, const BodyAndWorld& at) {
        bodies_.push_back({joint, {}, Inertia::Zero(), false});
        return std::optional<std::pair<int, BodyAndWorld>>{
            {static_cast<int>(bodies_.size()) - 1, BodyAndWorld{SE3::Identity(), at.in_world}}};
      });
}

// link `link` joins body `body`, at `in_body` in the body's frame and `in_world` in the world
void UrdfChecker::merge_link(int link, int body, const SE3& in_body, const SE3& in_world) {
  body_of_[link] = body;
  bodies_[body].links.push_back(link);
  const UrdfLink& l = urdf_.links[link];
  if (!in_world.p.allFinite() || !in_world.R.allFinite()) {
    error(l.line, "link " + quote_input(l.name) +
                      ": its placement overflows (the joint origins from the root link add "
                      "up to more than a double holds)");
    bodies_[body].misplaced = true;
  } else if (l.has_inertial) {
    const Inertia own = detail::link_inertia(l);
    const Inertia placed = own.transformed(in_world);
    if (!placed.about_origin().allFinite()) {
      error(l.inertial_line, "link " + quote_input(l.name) + ": mass " + approx(l.mass) +
                                 " kg placed " + approx(placed.c.cwiseAbs().maxCoeff()) +
                                 " m from the root: its inertia about the root overflows");
      bodies_[body].misplaced = true;
    }
    bodies_[body].inertia += own.transformed(in_body);
  }
}

// which subtrees have neither mass nor inertia: each link's own, then folded into its parent's
// backwards over a breadth-first order (children after their parents); no recursion
void UrdfChecker::find_empty_subtrees() {
  std::vector<int> order{root_}, parent_link(urdf_.links.size(), -1);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const int link = order[k];
    const UrdfLink& l = urdf_.links[link];
    subtree_empty_[link] = l.mass == 0 && l.inertia.isZero(0);
    for (int j : child_joints_[link]) {
      const int child = link_index(urdf_.joints[j].child);
      parent_link[child] = link;
      order.push_back(child);
    }
  }
  for (std::size_t k = order.size(); k-- > 1;) {
    const int link = order[k];
    subtree_empty_[parent_link[link]] = subtree_empty_[parent_link[link]] && subtree_empty_[link];
  }
}

// Warnings about what the dynamics will see: moving bodies without mass make the joint-space
// inertia matrix M singular. Runs only on an error-free description (a tree, finite numbers).
void UrdfChecker::check_motion() {
  const int nlinks = static_cast<int>(urdf_.links.size());
  subtree_empty_.assign(nlinks, true);
  find_empty_subtrees();

  std::vector<Mover> movers;
  if (options_.floating_base) {
    movers.push_back(
        {kFreeFlyerJoint, "floating", urdf_.links[root_].line, root_, Vec3::UnitX(), true});
  }
  for (const UrdfJoint& joint : urdf_.joints) {
    if (is_moving(joint.type)) {
      movers.push_back(
          {joint.name, joint.type, joint.line, link_index(joint.child), joint.axis, false});
    }
  }
  for (const Mover& mover : movers) check_mover(mover);
}

void UrdfChecker::check_mover(const Mover& mover) {
  const UrdfLink& child = urdf_.links[mover.child];
  const std::string who =
      (mover.free_flyer ? "the floating base joint " : "joint ") + quote_input(mover.name);
  if (subtree_empty_[mover.child]) {
    warning(mover.line, who +
                            " moves only massless links: the mass matrix is singular "
                            "(forward dynamics impossible)");
    return;
  }
  // the links of the moved body, in its frame, and whether a moving joint leaves it
  std::vector<std::pair<int, SE3>> body;
  bool moving_below = false;
  detail::walk_links(
      urdf_, child_joints_, child_link(), mover.child, 0, SE3::Identity(),
      [&](int link, int, const SE3& placement) { body.emplace_back(link, placement); },
      [&](int, int, int, const SE3&) {
        moving_below = true;
        return std::optional<std::pair<int, SE3>>{};
      });

  // mass, centre of mass and rotational inertia of the body in the joint (= child link) frame
  double m = 0;
  Vec3 first_moment = Vec3::Zero();
  Mat3 I_o = Mat3::Zero();  // about the frame origin
  for (const auto& [link, placement] : body) {
    const Inertia here = detail::link_inertia(urdf_.links[link]).transformed(placement);
    m += here.m;
    first_moment += here.m * here.c;
    I_o += here.about_origin();
  }
  const std::string body_name =
      quote_input(child.name) + (body.size() > 1 ? " (with the links fixed to it)" : "");

  // a leaf's diagonal block of M is configuration-independent: singular -> M singular
  if (!moving_below) {
    const Vec3 c = m > 0 ? Vec3(first_moment / m) : Vec3::Zero();
    // parallel axis: I_o = I_c + m [c]x^T [c]x
    const Mat3 I_c = I_o - Inertia{m, c, Mat3::Zero()}.about_origin();
    const Pivot pivot = leaf_pivot(mover, m, I_o, I_c);
    if (!detail::pivot_positive(pivot.value, pivot.scale)) {
      // a pivot lost in the round-off of a much larger moment (izz="1e308" beside 0.01) is
      // not the absence of inertia: say which it is
      const std::string inertia =
          pivot.value > 0 ? " whose inertia about the joint's motion, " + approx(pivot.value) +
                                " kg m^2, is lost in the round-off of its inertia (trace " +
                                approx(pivot.scale) + " kg m^2)"
                          : " without inertia about the joint's motion";
      warning(mover.line,
              who + " moves leaf body " + body_name +
                  (m == 0 ? " of zero mass" : " (mass " + approx(m) + " kg)" + inertia) +
                  ": the mass matrix is singular (forward dynamics impossible)");
      return;
    }
    if (m == 0) {
      warning(mover.line, who + " moves leaf body " + body_name +
                              " of zero mass (rotational inertia only): not a physical rigid "
                              "body");
      return;
    }
  }
  if (mover.free_flyer && m == 0) {
    warning(child.line, "root link " + quote_input(child.name) +
                            " has zero mass: with a floating base it moves and needs mass");
    return;
  }
  // a link without <inertial> whose body gets mass from links fixed to it (a base_footprint, a
  // mounting frame) is ordinary: only a body left without any mass is worth a word
  if (!child.has_inertial && m == 0) {
    warning(child.line, "link " + quote_input(child.name) + " (moved by joint " +
                            quote_input(mover.name) + ") has no <inertial>: treated as massless");
  }
}

}  // namespace eom::detail
