// Time-stepping contacts on a flat ground (private to libeom): point contacts with Coulomb
// friction, one velocity-level impulse problem per step, no events (the Moreau-Jean /
// Anitescu-Potra family: M. Anitescu and F. Potra, "Formulating dynamic multi-rigid-body contact
// problems with friction as solvable linear complementarity problems", Nonlinear Dynamics 14,
// 1997; J. J. Moreau, "Unilateral contact and dry friction in finite freedom dynamics", 1988).
//
// A step of length h from (q, v) under the generalized force tau (what drives the coordinates,
// friction and external forces included):
//   v_free = v + h M^-1 (tau - h(q, v))                      the motion without contacts
//   v+     = v_free + M^-1 J_c^T lambda                      lambda: the contacts' impulses (N s)
//   q+     = q (+) h v+                                      on the manifold (eom::integrate)
// with, per contact k (world axes: normal z, tangents x and y), u_k = J_k v+ its velocity:
//   0 <= lambda_n  complementary to  u_n - b_n >= 0          unilateral (Signorini at velocity
//                                                            level)
//   |lambda_t| <= mu lambda_n, and u_t = -c lambda_t, c >= 0  Coulomb's exact (circular) cone,
//                                                            maximal dissipation
// or, with N friction facets, lambda_t in the regular N-gon circumscribing that disc, its facets'
// normals at the angles 2 pi i / N from world x (N = 4: |lambda_x|, |lambda_y| <= mu lambda_n,
// the pyramid of ODE and Bullet), and -u_t in the polygon's normal cone at lambda_t (maximal
// dissipation over the polygon).
// The bound b_n says where the contact may go in the step (its height phi above the ground, the
// velocity u_n- = J_k v at the step's start):
//   phi > 0 (open)     b_n = -phi / h: it may close the gap, not cross it (it lands on the ground
//                      at the end of the step, not below)
//   phi <= 0 (on, in)  b_n = max(e u_a, beta (-phi) / h): it leaves at e times the speed it came
//                      in with, u_a = max(-u_n-, 0), or the free approach speed -u_free_n of the
//                      step before when it landed then (restitution e, 0 inelastic: the bounce a
//                      step after the landing), and a penetration is removed at the fraction beta
//                      of itself per step (a Baumgarte-style velocity bias; beta = 0 leaves it)
// The plane may also be any other (a schedule's contacts, SimulationOptions::schedule_slips): each
// contact k closed on the plane of the unit normal n through a point, its height phi = n . p - d_k,
// its velocity and impulse taken in the axes (t1, t2, n) of the plane (t1 world x projected on the
// plane, or world y when x is within acos(0.9) of n; t2 = n x t1), so the rows of J_c and of G
// are those of the ground rotated by R = [t1 t2 n] per contact: u_k = R^T J_k v, G_kl = R^T G_kl R,
// and the impulses go back to world axes as R lambda_k. For n = z the axes are the world's and
// nothing is rotated. A contact may be open (not in the problem: no impulse, no height), as a
// schedule says.
//
// The problem is solved by a projected Gauss-Seidel on the Delassus operator
// G = J_c M^-1 J_c^T (the contact-space inverse inertia), one contact at a time: its normal
// impulse projected onto lambda_n >= 0, then its tangential one by a scalar step onto the disc
// |lambda_t| <= mu lambda_n, or the polygon (a scalar step and the Euclidean projection keep the
// fixed point that of maximal dissipation: -u_t in the set's normal cone at lambda_t). The sweeps stop when none changes any contact's
// velocity by more than the tolerance, or at the iteration cap; the impulses of the step before
// start them (warm start: a robot at rest converges in one sweep). Redundant contacts (four
// corners of a box) leave G singular: the sweeps then converge to one of the impulses that give
// the same v+.
//
// Joint position limits are unilateral constraints of the same problem: a 1-DoF joint k near a
// limit (one it could reach within the step) adds the row s e_k^T (s = 1 at its lower limit,
// -1 at its upper one) with an impulse 0 <= lambda_l complementary to s v+_k - b_l >= 0, b_l
// from its distance to the limit as b_n from a contact's height (inelastic: a joint reaching its
// limit stops there). Their Delassus entries are those of e_k: s s' M^-1_kk', and
// s (M^-1 J_c^T)_k against the contacts.
//
// The scheme is semi-implicit Euler with impulses: first order in h with contacts (and without
// them), a contact whatever the problem says at each step, so no event and no chatter.
#pragma once

#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Cholesky>

#include "eom/algorithm/contacts.hpp"
#include "eom/multibody/data.hpp"
#include "eom/multibody/model.hpp"

namespace eom {

/// Is a joint held at its position limit by the impulse problem past it? The projected
/// Gauss-Seidel stops at a velocity residual (tolerance below), which moves a joint held there by
/// up to about 1e-9 rad per step; a crossing is beyond this.
constexpr double kLimitHeld = 1e-6;

/// The fewest facets of a friction pyramid (a triangle is the coarsest polygon about the disc).
constexpr int kFewestFrictionFacets = 3;

/// The ground, the contacts' law and the solver's stopping rule.
struct TimeSteppingSettings {
  double ground = 0;                  // m: the plane z = ground (world z up)
  Vec3 normal = Vec3::UnitZ();        // unit: the planes' normal (world z for a ground)
  double friction_coefficient = 1;    // mu > 0
  int friction_facets = 0;            // 0: the exact cone; N >= 3: the N-facet pyramid around it
  double restitution = 0;             // e in [0, 1]
  double penetration_fraction = 0.2;  // beta in [0, 1]: of a penetration, removed per step
  double contact_margin = 1e-9;       // m: a point this close to the ground is on it
  double tolerance = 1e-12;           // m/s: the largest velocity change of a converged sweep
  int max_iterations = 2000;          // sweeps per step
};

class TimeSteppingContacts {
 public:
  /// A position limit of a 1-DoF joint: its coordinate in q and in v, the limit, and s (1: lower,
  /// -1: upper).
  struct Limit {
    int q = 0, v = 0;
    double value = 0, sign = 1;
  };

  /// Workspaces for `model` and the point contacts of `contacts` (the set must outlive this).
  /// Throws InputError when a contact is not a point (3d) contact, saying it is `where` (its
  /// plane: "on the ground").
  TimeSteppingContacts(const Model& model, const ContactSet& contacts,
                       const std::string& where = "on the ground");

  /// A run starts: the settings (checked: mu > 0, no facets or at least 3, e and beta in [0, 1],
  /// finite ground, unit normal; InputError naming the quantity), no impulses remembered,
  /// heights() at q0. `closed` null: every contact on the ground n . p = ground; else the
  /// contacts flagged are closed on the planes through where they are at q0 (close()), the
  /// others open. Throws InputError naming the contact that is below the ground at q0 by more
  /// than the margin, or the joint outside its limits by more than it.
  void start(const TimeSteppingSettings& settings, ConstVec q0,
             const std::vector<char>* closed = nullptr);
  /// Contact k closes on the plane of the settings' normal through where it is at q (no impulse
  /// remembered); open(k) takes it out of the problem (its force and height gone).
  void close(int k, ConstVec q);
  void open(int k);
  bool closed(int k) const { return closed_[k] != 0; }

  /// One step of length h from (q, v) under the generalized force tau: v_next, q_next (may not
  /// alias q, v). Throws NumericalError when M is not positive definite at q.
  void step(ConstVec q, ConstVec v, ConstVec tau, double h, VecRef q_next, VecRef v_next);
  /// The same step's impulse problem without moving: v_next = v+ only (the forces at a state
  /// for an output; the impulses kept warm for the step that follows).
  void solve(ConstVec q, ConstVec v, ConstVec tau, double h, VecRef v_next);

  /// Whether every contact is above the ground by more than the margin at q (heights() then at q)
  /// and every limited joint within its limits by more than the margin.
  bool clear_of_ground(ConstVec q);
  /// Whether some joint limit pushed in the last step.
  bool limits_pressing() const { return limits_pressing_; }

  /// The mean contact forces over the last step, lambda / h (N, world axes, on the robot; stacked
  /// as ContactSet::offset).
  const Eigen::VectorXd& forces() const { return forces_; }
  /// One flag per contact: pressing (lambda_n > 0) in the last step.
  const std::vector<char>& active() const { return active_; }
  /// The last step's sweeps, and whether they met the tolerance before the cap.
  int iterations() const { return iterations_; }
  bool converged() const { return converged_; }
  /// The contacts' heights above their planes at the q of the last step, start or
  /// clear_of_ground (m, one per contact; infinite for an open one).
  const Eigen::VectorXd& heights() const { return heights_; }

 private:
  // heights_ from the placements of inertia_'s jacobian's last compute
  void measure_heights();
  // contact k's height above its plane (placements as measure_heights)
  double height(int k);
  // with a plane other than the ground: u_free_'s and G_'s contact rows into the planes' axes
  void rotate_problem();
  // contact k's impulse (or force) between world axes and its plane's: R x, or R^T x
  Vec3 to_world(const Vec3& x) const { return rotated_ ? Vec3(axes_ * x) : x; }
  Vec3 to_plane(const Vec3& x) const { return rotated_ ? Vec3(axes_.transpose() * x) : x; }
  // the bounds b_n of the contacts (at heights_) for a step of length h from v
  void bounds(ConstVec v, double h);
  // the projected Gauss-Seidel sweeps on lambda_
  void sweep_until_converged();
  // one contact's block update; returns the largest velocity change it made
  double update_contact(int k);
  // one limit row's update (row r of G_), likewise
  double update_limit(int r, int l);
  // the limits the step from (q, v_free) may reach into candidates_, their rows of G_, u_free_,
  // bound_ and W_ (s M^-1 e_k per row)
  void limit_rows(ConstVec q, ConstVec v, double h);

  const Model& model_;
  const ContactSet& contacts_;
  ContactSpaceInertia inertia_;
  TimeSteppingSettings settings_;
  Eigen::VectorXd v_free_, u_free_, bound_, landing_speed_, lambda_, forces_, heights_, scratch_;
  Eigen::VectorXd offset_, world_;  // per contact: its plane's n . p; the impulses in world axes
  Mat3 axes_ = Mat3::Identity();    // [t1 t2 n]: the planes' axes
  bool rotated_ = false;            // axes_ is not the identity
  std::vector<char> active_, closed_;
  std::vector<Limit> limits_;
  std::vector<int> candidates_;  // limits_ in the problem this step (reserved: no allocation)
  Eigen::MatrixXd G_, W_;        // the problem's Delassus matrix; s M^-1 e_k per limit row
  bool limits_pressing_ = false;
  int iterations_ = 0;
  bool converged_ = true;
};

}  // namespace eom
