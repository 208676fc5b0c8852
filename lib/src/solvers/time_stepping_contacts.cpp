#include "solvers/time_stepping_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "eom/algorithm/dynamics.hpp"
#include "eom/core/errors.hpp"
#include "eom/multibody/configuration.hpp"
#include "core/constants.hpp"
#include "solvers/time_text.hpp"

namespace eom {

namespace {

// contacts_ must be points: a plane holds a point's motion along its normal
const ContactSet& point_contacts_only(const Model& model, const ContactSet& contacts,
                                      const std::string& where) {
  for (const Contact& contact : contacts.contacts) {
    if (contact.kind != ContactKind::point) {
      throw InputError("contact '" + model.frames[contact.frame].name + "' " + where +
                       " is not a point (3d) contact");
    }
  }
  return contacts;
}

// The axes [t1 t2 n] of the planes of normal n: t1 world x projected on the plane (world y when
// x is nearly along n, |n_x| > 0.9), t2 = n x t1; world axes for n = z.
Mat3 plane_axes(const Vec3& n) {
  const Vec3 along = std::abs(n.x()) > 0.9 ? Vec3::UnitY() : Vec3::UnitX();
  Mat3 axes;
  axes.col(0) = (along - n.dot(along) * n).normalized();
  axes.col(1) = n.cross(axes.col(0));
  axes.col(2) = n;
  return axes;
}

// the finite position limits of the 1-DoF joints (continuous joints have none)
std::vector<TimeSteppingContacts::Limit> joint_limits(const Model& model) {
  std::vector<TimeSteppingContacts::Limit> limits;
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    if (j.nq != 1 || j.nv != 1) continue;
    if (std::isfinite(model.lower_limit[j.idx_q]))
      limits.push_back({j.idx_q, j.idx_v, model.lower_limit[j.idx_q], 1.0});
    if (std::isfinite(model.upper_limit[j.idx_q]))
      limits.push_back({j.idx_q, j.idx_v, model.upper_limit[j.idx_q], -1.0});
  }
  return limits;
}

}  // namespace

TimeSteppingContacts::TimeSteppingContacts(const Model& model, const ContactSet& contacts,
                                           const std::string& where)
    : model_(model),
      contacts_(point_contacts_only(model, contacts, where)),
      inertia_(model, contacts),
      v_free_(model.nv),
      landing_speed_(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(contacts.contacts.size()))),
      forces_(Eigen::VectorXd::Zero(contacts.size())),
      heights_(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(contacts.contacts.size()))),
      scratch_(model.nv),
      offset_(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(contacts.contacts.size()))),
      world_(Eigen::VectorXd::Zero(contacts.size())),
      active_(contacts.contacts.size(), 0),
      closed_(contacts.contacts.size(), 1),
      limits_(joint_limits(model)) {
  const Eigen::Index rows = contacts.size() + static_cast<Eigen::Index>(limits_.size());
  u_free_.setZero(rows);
  lambda_.setZero(rows);
  bound_.setZero(static_cast<Eigen::Index>(contacts.contacts.size() + limits_.size()));
  G_.setZero(rows, rows);
  W_.setZero(model.nv, static_cast<Eigen::Index>(limits_.size()));
  candidates_.reserve(limits_.size());
}

void TimeSteppingContacts::start(const TimeSteppingSettings& settings, ConstVec q0,
                                 const std::vector<char>* closed) {
  if (!(settings.friction_coefficient > 0) || !std::isfinite(settings.friction_coefficient))
    throw InputError("the friction coefficient must be positive and finite");
  if (settings.friction_facets != 0 && settings.friction_facets < kFewestFrictionFacets)
    throw InputError("a friction pyramid needs at least " + std::to_string(kFewestFrictionFacets) +
                     " facets (0: the exact cone)");
  if (!(settings.restitution >= 0 && settings.restitution <= 1))
    throw InputError("the coefficient of restitution must be within [0, 1]");
  if (!(settings.penetration_fraction >= 0 && settings.penetration_fraction <= 1))
    throw InputError("the penetration fraction must be within [0, 1]");
  if (!std::isfinite(settings.ground)) throw InputError("the ground height must be finite");
  if (!(std::abs(settings.normal.norm() - 1) <= 1e-6))
    throw InputError("the contacts' plane normal must be a unit vector");
  settings_ = settings;
  // the ground's axes are the world's: nothing to rotate
  rotated_ = settings.normal != Vec3::UnitZ();
  axes_ = rotated_ ? plane_axes(settings.normal) : Mat3::Identity();
  forces_.setZero();
  landing_speed_.setZero();
  std::fill(active_.begin(), active_.end(), 0);
  limits_pressing_ = false;
  offset_.setConstant(closed ? 0.0 : settings.ground);
  for (std::size_t k = 0; k < closed_.size(); ++k) {
    closed_[k] = closed ? (*closed)[k] : 1;
    inertia_.jacobian().set_active(static_cast<int>(k), closed_[k] != 0);
  }
  inertia_.jacobian().compute(q0);
  for (Eigen::Index k = 0; closed && k < offset_.size(); ++k) {
    if (closed_[k]) offset_[k] = height(static_cast<int>(k));  // the plane through it at q0
  }
  measure_heights();
  for (const Limit& limit : limits_) {
    const double gap = limit.sign * (q0[limit.q] - limit.value);
    if (gap < -settings.contact_margin) {
      int joint = 1;
      while (model_.joints[joint].idx_q != limit.q) ++joint;
      throw InputError("joint '" + model_.joint_names[joint] + "' starts " + time_string(-gap) +
                       " outside its " + (limit.sign > 0 ? "lower" : "upper") + " limit " +
                       time_string(limit.value) + " (the ground's steps hold the limits)");
    }
  }
  for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
    const double height = heights_[static_cast<Eigen::Index>(k)];
    if (height < -settings.contact_margin) {
      throw InputError("contact '" + model_.frames[contacts_.contacts[k].frame].name + "' starts " +
                       time_string(-height) + " m below the ground");
    }
  }
}

void TimeSteppingContacts::close(int k, ConstVec q) {
  closed_[k] = 1;
  inertia_.jacobian().set_active(k, true);
  inertia_.jacobian().compute(q);
  offset_[k] = 0;
  offset_[k] = height(k);
  measure_heights();
}

void TimeSteppingContacts::open(int k) {
  closed_[k] = 0;
  inertia_.jacobian().set_active(k, false);
  forces_.segment<3>(contacts_.offset(k)).setZero();
  active_[k] = 0;
  landing_speed_[k] = 0;
  heights_[k] = std::numeric_limits<double>::infinity();
}

bool TimeSteppingContacts::clear_of_ground(ConstVec q) {
  inertia_.jacobian().compute(q);
  measure_heights();
  for (const Limit& limit : limits_) {
    if (limit.sign * (q[limit.q] - limit.value) <= settings_.contact_margin) return false;
  }
  return heights_.size() == 0 || heights_.minCoeff() > settings_.contact_margin;
}

double TimeSteppingContacts::height(int k) {
  const Vec3& p = inertia_.jacobian().placement(k).p;
  return (rotated_ ? settings_.normal.dot(p) : p.z()) - offset_[k];
}

void TimeSteppingContacts::measure_heights() {
  for (Eigen::Index k = 0; k < heights_.size(); ++k) {
    heights_[k] =
        closed_[k] ? height(static_cast<int>(k)) : std::numeric_limits<double>::infinity();
  }
}

void TimeSteppingContacts::step(ConstVec q, ConstVec v, ConstVec tau, double h, VecRef q_next,
                                VecRef v_next) {
  solve(q, v, tau, h, v_next);
  scratch_ = h * v_next;
  integrate(model_, q, scratch_, q_next);
}

void TimeSteppingContacts::solve(ConstVec q, ConstVec v, ConstVec tau, double h, VecRef v_next) {
  // M, its factor, J_c and G at q; v_free = v + h M^-1 (tau - h(q, v))
  inertia_.compute(q);
  v_free_ = tau;
  v_free_ -= nonlinear_effects(model_, inertia_.data(), q, v);
  inertia_.solve_mass(v_free_);
  v_free_ = v + h * v_free_;
  const Eigen::MatrixXd& J = inertia_.jacobian().jacobian();
  const Eigen::Index nc = contacts_.size();
  u_free_.head(nc).noalias() = J * v_free_;
  if (rotated_) {
    for (std::size_t k = 0; k < closed_.size(); ++k) {
      const int r = contacts_.offset(static_cast<int>(k));
      u_free_.segment<3>(r) = to_plane(u_free_.segment<3>(r));
    }
  }
  measure_heights();
  bounds(v, h);
  limit_rows(q, v, h);
  if (rotated_) rotate_problem();
  const Eigen::Index nl = static_cast<Eigen::Index>(candidates_.size());
  // warm start: the contacts' impulses of the last step, scaled to this one's length
  for (std::size_t k = 0; k < closed_.size(); ++k) {
    const int r = contacts_.offset(static_cast<int>(k));
    lambda_.segment<3>(r) = to_plane(h * forces_.segment<3>(r));
  }
  lambda_.segment(nc, nl).setZero();
  sweep_until_converged();
  for (std::size_t k = 0; k < closed_.size(); ++k) {
    const int r = contacts_.offset(static_cast<int>(k));
    world_.segment<3>(r) = to_world(lambda_.segment<3>(r));
  }
  v_next = v_free_;
  inertia_.add_inverse_mass_jacobian(world_, v_next);
  v_next.noalias() += W_.leftCols(nl) * lambda_.segment(nc, nl);
  forces_ = world_ / h;
  for (std::size_t k = 0; k < active_.size(); ++k)
    active_[k] = lambda_[contacts_.offset(static_cast<int>(k)) + 2] > 0 ? 1 : 0;
  limits_pressing_ = nl > 0 && lambda_.segment(nc, nl).maxCoeff() > 0;
}

void TimeSteppingContacts::limit_rows(ConstVec q, ConstVec v, double h) {
  const Eigen::Index nc = contacts_.size();
  G_.topLeftCorner(nc, nc) = inertia_.inverse_inertia();
  candidates_.clear();
  for (std::size_t l = 0; l < limits_.size(); ++l) {
    const Limit& limit = limits_[l];
    // within reach: the distance the joint may cover in the step, at its speed before or after
    // the free motion, twice over (the contacts' impulses change it too)
    const double gap = limit.sign * (q[limit.q] - limit.value);
    const double reach = 2 * h * std::max(std::abs(v_free_[limit.v]), std::abs(v[limit.v]));
    if (gap <= settings_.contact_margin + reach) candidates_.push_back(static_cast<int>(l));
  }
  const Eigen::Index nl = static_cast<Eigen::Index>(candidates_.size());
  if (nl == 0) return;
  const Eigen::Index contacts = static_cast<Eigen::Index>(contacts_.contacts.size());
  for (Eigen::Index c = 0; c < nl; ++c) {
    const Limit& limit = limits_[candidates_[c]];
    scratch_.setZero();
    scratch_[limit.v] = limit.sign;
    inertia_.solve_mass(scratch_);
    W_.col(c) = scratch_;
    u_free_[nc + c] = limit.sign * v_free_[limit.v];
    const double gap = limit.sign * (q[limit.q] - limit.value);
    // as a contact's height (bounds): close the gap, not cross it; inelastic; a penetration
    // removed at its fraction per step
    bound_[contacts + c] = gap > settings_.contact_margin
                               ? -gap / h
                               : settings_.penetration_fraction * std::max(-gap, 0.0) / h;
  }
  const Eigen::MatrixXd& J = inertia_.jacobian().jacobian();
  G_.block(nc, 0, nl, nc).noalias() = W_.leftCols(nl).transpose() * J.transpose();
  G_.block(0, nc, nc, nl) = G_.block(nc, 0, nl, nc).transpose();
  for (Eigen::Index c = 0; c < nl; ++c) {
    const Limit& limit = limits_[candidates_[c]];
    G_.block(nc, nc, nl, nl).row(c) = limit.sign * W_.row(limit.v).head(nl);
  }
}

// The contact rows of u_free_ (already) and G_ (here) in the planes' axes: G_kl := R^T G_kl R,
// and the limits' rows against the contacts likewise.
void TimeSteppingContacts::rotate_problem() {
  const Eigen::Index nc = contacts_.size();
  const Eigen::Index nl = static_cast<Eigen::Index>(candidates_.size());
  for (Eigen::Index i = 0; i < nc; i += 3) {
    for (Eigen::Index j = 0; j < nc; j += 3) {
      G_.block<3, 3>(i, j) = axes_.transpose() * G_.block<3, 3>(i, j) * axes_;
    }
    if (nl == 0) continue;
    G_.block(nc, i, nl, 3) = G_.block(nc, i, nl, 3) * axes_;
    G_.block(i, nc, 3, nl) = G_.block(nc, i, nl, 3).transpose();
  }
}

void TimeSteppingContacts::bounds(ConstVec v, double h) {
  const Eigen::MatrixXd& J = inertia_.jacobian().jacobian();
  for (Eigen::Index k = 0; k < heights_.size(); ++k) {
    const int contact = static_cast<int>(k);
    const double phi = heights_[k];
    const int normal = contacts_.offset(contact) + 2;
    if (!closed_[k]) continue;  // not in the problem
    if (phi > settings_.contact_margin) {
      // close the gap, not cross it; a contact that lands keeps its free approach speed for
      // the bounce of the step after
      bound_[k] = -phi / h;
      landing_speed_[k] = u_free_[normal] < bound_[k] ? -u_free_[normal] : 0.0;
      continue;
    }
    // > 0: coming in (at the step's start, or when it landed in the step before)
    const double speed =
        rotated_ ? settings_.normal.dot(J.middleRows<3>(normal - 2) * v) : J.row(normal).dot(v);
    const double approach = std::max(-speed, landing_speed_[k]);
    landing_speed_[k] = 0;
    bound_[k] = std::max(settings_.restitution * std::max(approach, 0.0),
                         settings_.penetration_fraction * std::max(-phi, 0.0) / h);
  }
}

void TimeSteppingContacts::sweep_until_converged() {
  // a sweep is converged when no contact's velocity changed by more than the tolerance, relative
  // to the contacts' free speeds when those exceed 1 m/s
  const Eigen::Index rows = contacts_.size() + static_cast<Eigen::Index>(candidates_.size());
  const double limit =
      settings_.tolerance * std::max(1.0, rows ? u_free_.head(rows).cwiseAbs().maxCoeff() : 0.0);
  converged_ = false;
  const int contacts = static_cast<int>(heights_.size());
  for (iterations_ = 1; iterations_ <= settings_.max_iterations; ++iterations_) {
    double change = 0;
    for (int k = 0; k < contacts; ++k) {
      if (closed_[k]) change = std::max(change, update_contact(k));
    }
    for (int l = 0; l < static_cast<int>(candidates_.size()); ++l)
      change = std::max(change, update_limit(static_cast<int>(contacts_.size()) + l, l));
    if (change <= limit) {
      converged_ = true;
      return;
    }
  }
  iterations_ = settings_.max_iterations;
}

// The Euclidean projection of p onto the regular polygon of `facets` facets circumscribing the
// disc of `radius` about 0, the facets' normals at the angles 2 pi i / facets. The facet whose
// normal is nearest p's direction holds the projection, or one of its two vertices: p within
// pi / N of that normal and beyond the facet's half-width h = radius tan(pi / N) lies in the
// vertex's normal cone (its distance along the normal exceeds radius by at least
// (t - h) cot(pi / N) >= (t - h) cot(2 pi / N), t its coordinate along the facet).
namespace {
Eigen::Vector2d project_on_polygon(const Eigen::Vector2d& p, double radius, int facets) {
  const double sector = 2 * detail::kPi / facets;
  const double facet = std::round(std::atan2(p.y(), p.x()) / sector);
  const Eigen::Vector2d normal(std::cos(facet * sector), std::sin(facet * sector));
  const Eigen::Vector2d along(-normal.y(), normal.x());
  const double distance = normal.dot(p);
  if (distance <= radius) return p;  // inside: the nearest facet's constraint is the binding one
  const double half_width = radius * std::tan(detail::kPi / facets);
  return radius * normal + std::clamp(along.dot(p), -half_width, half_width) * along;
}
}  // namespace

// Contact k's velocity u_k = u_free_k + G_k lambda; its normal impulse by a projected Newton step
// on its own row, then its tangential one by a scalar step onto the friction disc of the new
// normal impulse (the step 1 / mean tangential diagonal of G).
double TimeSteppingContacts::update_contact(int k) {
  const Eigen::Index rows = contacts_.size() + static_cast<Eigen::Index>(candidates_.size());
  const auto G = G_.topLeftCorner(rows, rows);
  const auto lambda = lambda_.head(rows);
  const int r = contacts_.offset(k), n = r + 2;
  double change = 0;
  const double g_nn = G(n, n);
  if (g_nn > 0) {
    const double u_n = u_free_[n] + G.col(n).dot(lambda) - bound_[k];  // G symmetric
    const double next = std::max(0.0, lambda_[n] - u_n / g_nn);
    change = std::abs(g_nn * (next - lambda_[n]));
    lambda_[n] = next;
  }
  const double g_tt = 0.5 * (G(r, r) + G(r + 1, r + 1));
  if (!(g_tt > 0)) return change;
  const Eigen::Vector2d u_t(u_free_[r] + G.col(r).dot(lambda),
                            u_free_[r + 1] + G.col(r + 1).dot(lambda));
  Eigen::Vector2d next = lambda_.segment<2>(r) - u_t / g_tt;
  const double radius = settings_.friction_coefficient * lambda_[n];
  if (settings_.friction_facets == 0) {
    const double norm = next.norm();
    if (norm > radius) next *= radius / norm;  // norm > radius >= 0
  } else {
    next = project_on_polygon(next, radius, settings_.friction_facets);
  }
  change = std::max(change, g_tt * (next - lambda_.segment<2>(r)).cwiseAbs().maxCoeff());
  lambda_.segment<2>(r) = next;
  return change;
}

// Limit row r (the l-th candidate): its impulse by a projected Newton step on its own row.
double TimeSteppingContacts::update_limit(int r, int l) {
  const Eigen::Index rows = contacts_.size() + static_cast<Eigen::Index>(candidates_.size());
  const double g = G_(r, r);
  if (!(g > 0)) return 0;
  const double u = u_free_[r] + G_.col(r).head(rows).dot(lambda_.head(rows)) -
                   bound_[static_cast<Eigen::Index>(heights_.size()) + l];
  const double next = std::max(0.0, lambda_[r] - u / g);
  const double change = std::abs(g * (next - lambda_[r]));
  lambda_[r] = next;
  return change;
}

}  // namespace eom
