#include "eom/kinematics.hpp"

#include "sizes.hpp"

namespace eom {

void forward_kinematics(const Model& model, Data& data, ConstVec q) {
  detail::check_size(q.size(), model.nq, "q");
  data.oMi[0] = SE3::Identity();
  // oMi = oMparent * liMi, liMi = placement * joint transform
  for (int i = 1; i < model.njoints; ++i) place_joint(model, data, i, q);
}

void update_frame_placements(const Model& model, Data& data) {
  for (size_t k = 0; k < model.frames.size(); ++k) {
    const Frame& frame = model.frames[k];
    data.oMf[k] = data.oMi[frame.parent] * frame.placement;
  }
}

void frame_placements(const Model& model, Data& data, ConstVec q) {
  forward_kinematics(model, data, q);
  update_frame_placements(model, data);
}

const Eigen::Matrix<double, 6, Eigen::Dynamic>& frame_jacobian(const Model& model, Data& data,
                                                               ConstVec q, int frame,
                                                               ReferenceFrame reference) {
  forward_kinematics(model, data, q);
  return frame_jacobian(model, data, frame, reference);
}

const Eigen::Matrix<double, 6, Eigen::Dynamic>& frame_jacobian(const Model& model, Data& data,
                                                               int frame,
                                                               ReferenceFrame reference) {
  const Frame& f = model.frames.at(frame);
  const SE3 oMf = data.oMi[f.parent] * f.placement;
  data.oMf[frame] = oMf;
  data.J.setZero();
  // columns of the joints that support the frame: S in world axes at the world origin
  for (int i = f.parent; i > 0; i = model.parent[i]) {
    const Joint& j = model.joints[i];
    for (int k = 0; k < j.nv; ++k) {
      Motion column;
      joint_column(j, k, data.oMi[i], column);
      if (reference != ReferenceFrame::world) {
        // velocity of the frame origin: v_O + w x p
        column.lin += column.ang.cross(oMf.p);
        if (reference == ReferenceFrame::local) {
          column = {oMf.R.transpose() * column.lin, oMf.R.transpose() * column.ang};
        }
      }
      data.J.col(j.idx_v + k) = column.vector();
    }
  }
  return data.J;
}

}  // namespace eom
