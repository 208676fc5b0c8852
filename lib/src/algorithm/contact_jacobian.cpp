#include "eom/algorithm/contact_jacobian.hpp"

#include "eom/algorithm/kinematics.hpp"
#include "core/sizes.hpp"

namespace eom {

namespace {

// Calls stack(contact, row, rows) for each active contact of `set`, its rows of J_c from `row`;
// an inactive contact's rows of J_c and of the drift are zero, so that its force comes out
// exactly zero
template <class Stack>
void for_each_active_contact(const ContactSet& set, const std::vector<char>& active,
                             Eigen::MatrixXd& J, Eigen::VectorXd& drift, Stack&& stack) {
  int row = 0;
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    const int rows = constraint_count(set.contacts[k].kind);
    if (active[k]) {
      stack(set.contacts[k], row, rows);
    } else {
      J.middleRows(row, rows).setZero();
      drift.segment(row, rows).setZero();
    }
    row += rows;
  }
}

}  // namespace

std::optional<Eigen::Vector2d> center_of_pressure(const SE3& oMf, const Vec6& wrench) {
  const Vec3 force = oMf.R.transpose() * wrench.head<3>();
  const Vec3 moment = oMf.R.transpose() * wrench.tail<3>();
  if (!(force.z() > 0)) return std::nullopt;
  return Eigen::Vector2d(-moment.y() / force.z(), moment.x() / force.z());
}

double friction_ratio(const Vec3& force, const Vec3& normal) {
  const double along = normal.dot(force);
  if (along > 0) return (force - along * normal).norm() / along;
  return force.squaredNorm() > 0.0 ? kPullingFrictionRatio : 0.0;
}

ContactJacobian::ContactJacobian(const Model& model, const ContactSet& contacts)
    : model_(model),
      contacts_(contacts),
      data_(model),
      active_(contacts.contacts.size(), 1),
      J_(Eigen::MatrixXd::Zero(contacts.size(), model.nv)),
      drift_(Eigen::VectorXd::Zero(contacts.size())) {
  // the floating base always: its rotation turns the residual of the inverse dynamics
  std::vector<char> supports(model.njoints, 0);
  if (model.floating_base) supports[1] = 1;
  for (const Contact& contact : contacts.contacts) {
    for (int i = model.frames[contact.frame].parent; i > 0; i = model.parent[i]) supports[i] = 1;
  }
  for (int i = 1; i < model.njoints; ++i) {
    if (supports[i]) supports_.push_back(i);
  }
}

int ContactJacobian::active_size() const {
  int rows = 0;
  for (std::size_t k = 0; k < contacts_.contacts.size(); ++k) {
    if (active_[k]) rows += constraint_count(contacts_.contacts[k].kind);
  }
  return rows;
}

void ContactJacobian::place(ConstVec q) {
  detail::check_size(q.size(), model_.nq, "q");
  for (const int i : supports_) {
    data_.liMi[i] = joint_placement(model_.joints[i], model_.placement[i], q);
  }
}

void ContactJacobian::compute(ConstVec q) {
  place(q);
  compute(data_);
}

void ContactJacobian::compute(const Data& placed) {
  compose(placed.liMi);
  stack_composed(nullptr);
}

void ContactJacobian::compute(ConstVec q, ConstVec v) {
  place(q);
  compute(data_, v);
}

void ContactJacobian::compute(const Data& placed, ConstVec v) {
  detail::check_size(v.size(), model_.nv, "v");
  compose(placed.liMi);
  stack_composed(&v);
}

void ContactJacobian::compute_in_base_frame(const Data& based, ConstVec v) {
  detail::check_size(v.size(), model_.nv, "v");
  // the base frame in the world: the free flyer's placement (its parent is the world), or the world
  const SE3 base = model_.floating_base ? based.liMi[1] : SE3::Identity();
  if (model_.floating_base) data_.oMi[1] = base;
  for_each_active_contact(
      contacts_, active_, J_, drift_, [&](const Contact& contact, int row, int /*rows*/) {
        const Frame& frame = model_.frames[contact.frame];
        const int body = frame.parent;
        const SE3 bMf = based.bMi[body] * frame.placement;
        data_.oMf[contact.frame] = body > 0 ? base * bMf : frame.placement;
        // the columns of the joints that support the frame (the row's other entries stay zero)
        for (int i = body; i > 0; i = model_.parent[i]) {
          const Joint& j = model_.joints[i];
          for (int c = j.idx_v; c < j.idx_v + j.nv; ++c) {
            const Motion& S = based.bS[c];
            const Vec3 lin = base.R * (S.lin + S.ang.cross(bMf.p));
            if (contact.kind == ContactKind::normal) {
              J_(row, c) = contact.normal.dot(lin);
              continue;
            }
            J_.block<3, 1>(row, c) = lin;
            if (contact.kind == ContactKind::frame) J_.block<3, 1>(row + 3, c) = base.R * S.ang;
          }
        }
        // the classical acceleration of the frame origin at qdd = 0 (frame_velocity_product)
        const Motion& vb = based.ov[body];
        const Motion& ab = based.oa[body];
        const Vec3 p_dot = vb.lin + vb.ang.cross(bMf.p);
        const Vec3 lin = base.R * (ab.lin + ab.ang.cross(bMf.p) + vb.ang.cross(p_dot));
        if (contact.kind == ContactKind::normal) {
          drift_[row] = contact.normal.dot(lin);
        } else {
          drift_.segment<3>(row) = lin;
          if (contact.kind == ContactKind::frame) drift_.segment<3>(row + 3) = base.R * ab.ang;
        }
      });
}

void ContactJacobian::compose(const std::vector<SE3>& liMi) {
  data_.oMi[0] = SE3::Identity();
  base_.setZero();
  for (const int i : supports_) {
    data_.oMi[i] = data_.oMi[model_.parent[i]] * liMi[i];
    // the rows are at the frame origins and do not depend on where the base stands: without its
    // translation the placements carry only the robot's own dimensions, and the rows are the
    // same bits 1000 km from the world origin (frame_jacobian's base centring)
    if (i == 1 && model_.floating_base) {
      base_ = data_.oMi[1].p;
      data_.oMi[1].p.setZero();
    }
  }
}

void ContactJacobian::stack_composed(const Eigen::Ref<const Eigen::VectorXd>* v) {
  for_each_active_contact(
      contacts_, active_, J_, drift_, [&](const Contact& contact, int row, int rows) {
        // world axes at the frame origin; the drift dJ v without dJ itself
        frame_jacobian(model_, data_, contact.frame, ReferenceFrame::local_world_aligned);
        const Vec6 drift =
            v ? frame_velocity_product(model_, data_, *v, contact.frame) : Vec6::Zero();
        if (contact.kind == ContactKind::normal) {
          J_.row(row).noalias() = contact.normal.transpose() * data_.J.topRows<3>();
          drift_[row] = contact.normal.dot(drift.head<3>());
        } else {
          J_.middleRows(row, rows) = data_.J.topRows(rows);
          drift_.segment(row, rows) = drift.head(rows);
        }
        data_.oMf[contact.frame].p += base_;
      });
  for (const int i : supports_) data_.oMi[i].p += base_;
}

Force total_contact_wrench(const ContactJacobian& jacobian, ConstVec f) {
  const ContactSet& set = jacobian.contacts();
  Force total = Force::Zero();
  for (std::size_t k = 0; k < set.contacts.size(); ++k) {
    const int contact = static_cast<int>(k);
    if (!jacobian.active(contact)) continue;
    const Contact& c = set.contacts[k];
    const int row = set.offset(contact);
    Force wrench;  // at the frame origin
    if (c.kind == ContactKind::normal) {
      wrench.lin = f[row] * c.normal;
    } else {
      wrench.lin = f.segment<3>(row);
      if (c.kind == ContactKind::frame) wrench.ang = f.segment<3>(row + 3);
    }
    // carried to the world origin: n_o = n + p x f
    total.lin += wrench.lin;
    total.ang += wrench.ang + jacobian.placement(contact).p.cross(wrench.lin);
  }
  return total;
}

}  // namespace eom
