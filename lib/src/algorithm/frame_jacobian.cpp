#include "eom/algorithm/frame_jacobian.hpp"

#include <array>

namespace eom {

namespace {

struct ReferenceName {
  ReferenceFrame value;
  const char* name;
};
constexpr ReferenceName kReferences[] = {
    {ReferenceFrame::world, "world"},
    {ReferenceFrame::local, "local"},
    {ReferenceFrame::local_world_aligned, "local-world-aligned"}};

struct ParametrizationName {
  OrientationParametrization value;
  const char* name;
  std::array<const char*, 4> parameters;  // the fourth for the quaternion only
};
constexpr ParametrizationName kParametrizations[] = {
    {OrientationParametrization::euler_zyx, "euler-zyx", {"ez", "ey", "ex", nullptr}},
    {OrientationParametrization::euler_xyz, "euler-xyz", {"ex", "ey", "ez", nullptr}},
    {OrientationParametrization::quaternion, "quaternion", {"qx", "qy", "qz", "qw"}},
    {OrientationParametrization::rotation_vector, "rotation-vector", {"rx", "ry", "rz", nullptr}},
};

const ParametrizationName& entry(OrientationParametrization parametrization) {
  for (const auto& p : kParametrizations) {
    if (p.value == parametrization) return p;
  }
  return kParametrizations[0];
}

}  // namespace

const char* reference_frame_name(ReferenceFrame reference) {
  for (const auto& r : kReferences) {
    if (r.value == reference) return r.name;
  }
  return "";
}

std::optional<ReferenceFrame> parse_reference_frame(std::string_view name) {
  for (const auto& r : kReferences) {
    if (name == r.name) return r.value;
  }
  return std::nullopt;
}

const char* orientation_parametrization_name(OrientationParametrization parametrization) {
  return entry(parametrization).name;
}

std::optional<OrientationParametrization> parse_orientation_parametrization(std::string_view name) {
  for (const auto& p : kParametrizations) {
    if (name == p.name) return p.value;
  }
  return std::nullopt;
}

std::vector<std::string> orientation_parameter_names(OrientationParametrization parametrization) {
  std::vector<std::string> names;
  for (const char* name : entry(parametrization).parameters) {
    if (name) names.emplace_back(name);
  }
  return names;
}

double inverse_condition(const Eigen::VectorXd& sigma) {
  const Eigen::Index m = sigma.size();
  return m > 0 && sigma[0] > 0 ? sigma[m - 1] / sigma[0] : 0;
}

FrameJacobianAnalysis::FrameJacobianAnalysis(const Model& model,
                                             const FrameJacobianOptions& options)
    : model_(model),
      options_(options),
      data_(model),
      singularity_(model.nv, options.task, options.tolerance),
      dynamics_(model,
                TaskSpaceOptions{options.task, options.inverse, TaskSpaceOptions{}.tolerance}),
      J_(6, model.nv),
      dJ_(options.time_variation ? options.task.size : 0, model.nv),
      analytical_(options.analytical ? 3 + orientation_parameter_count(*options.analytical) : 0,
                  model.nv),
      null_rows_(Eigen::MatrixXd::Zero(model.nv, model.nv)),
      dJv_(options.time_variation ? options.task.size : 0) {}

void FrameJacobianAnalysis::compute(ConstVec q, ConstVec v) {
  const TaskRows& task = options_.task;
  // the analytical Jacobian first: it leaves data.J local-world-aligned
  if (options_.analytical) {
    eom::analytical_jacobian(model_, data_, q, options_.frame, *options_.analytical, analytical_);
  }
  // dJ/dt needs v; frame_jacobian_time_variation fills data.J as well
  if (options_.time_variation) {
    frame_jacobian_time_variation(model_, data_, q, v, options_.frame, options_.reference);
    for (int r = 0; r < task.size; ++r) {
      dJ_.row(r) = data_.dJ.row(task.rows[r]);
      dJv_[r] = data_.dJ.row(task.rows[r]).dot(v);
    }
  } else {
    frame_jacobian(model_, data_, q, options_.frame, options_.reference);
  }
  J_ = data_.J;
  oMf_ = data_.oMf[options_.frame];
  // the singular values alone: the vectors only when asked for (compute_directions)
  singularity_.compute_values(J_);
}

void FrameJacobianAnalysis::compute_directions() {
  singularity_.compute(J_, options_.reference, oMf_);
  const auto basis = singularity_.null_space();
  null_rows_.setZero();
  null_rows_.topRows(basis.cols()) = basis.transpose();
}

void FrameJacobianAnalysis::compute_dynamics(ConstVec q, ConstVec v) {
  dynamics_.compute(model_, data_, q, v, options_.frame, options_.reference);
}

}  // namespace eom
