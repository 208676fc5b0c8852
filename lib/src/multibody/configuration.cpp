#include "eom/multibody/configuration.hpp"

#include <algorithm>
#include <cmath>

#include "eom/core/errors.hpp"
#include "core/constants.hpp"
#include "core/sizes.hpp"

namespace eom {

using detail::kPi;

using detail::check_size;

void integrate(const Model& model, ConstVec q, ConstVec v, VecRef q_out) {
  check_size(q.size(), model.nq, "q");
  check_size(v.size(), model.nv, "v");
  for (int i = 1; i < model.njoints; ++i) joint_integrate(model.joints[i], q, v, q_out);
}

Eigen::VectorXd integrate(const Model& model, ConstVec q, ConstVec v) {
  Eigen::VectorXd out(model.nq);
  integrate(model, q, v, out);
  return out;
}

void difference(const Model& model, ConstVec q0, ConstVec q1, VecRef v_out) {
  check_size(q0.size(), model.nq, "q0");
  check_size(q1.size(), model.nq, "q1");
  for (int i = 1; i < model.njoints; ++i) joint_difference(model.joints[i], q0, q1, v_out);
}

Eigen::VectorXd difference(const Model& model, ConstVec q0, ConstVec q1) {
  Eigen::VectorXd out(model.nv);
  difference(model, q0, q1, out);
  return out;
}

Eigen::VectorXd neutral(const Model& model) {
  Eigen::VectorXd q(model.nq);
  for (int i = 1; i < model.njoints; ++i) joint_neutral(model.joints[i], q);
  return q;
}

double normalize(const Model& model, VecRef q) {
  check_size(q.size(), model.nq, "q");
  double deviation = 0;
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    deviation = std::max(deviation, quaternion_deviation(j, q));
    if (!joint_normalize(j, q)) {
      throw InputError("joint '" + model.joint_names[i] + "': the quaternion has zero norm");
    }
  }
  return deviation;
}

std::uint64_t Rng::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double Rng::uniform(double lo, double hi) {
  const double u = static_cast<double>(next() >> 11) * 0x1.0p-53;
  const double width = hi - lo;
  // limits as wide as a double allows (a joint exported with no limits) overflow the width
  return std::isfinite(width) ? lo + width * u : lo * (1 - u) + hi * u;
}

Eigen::Vector4d random_unit_quaternion(Rng& rng) {
  // uniform rotation: a normalised 4-D Gaussian would need Box-Muller; Shoemake's method is exact
  const double u1 = rng.uniform(0, 1), u2 = rng.uniform(0, 2 * kPi), u3 = rng.uniform(0, 2 * kPi);
  const double a = std::sqrt(1 - u1), b = std::sqrt(u1);
  return {a * std::sin(u2), a * std::cos(u2), b * std::sin(u3), b * std::cos(u3)};
}

Eigen::VectorXd random_configuration(const Model& model, Rng& rng) {
  Eigen::VectorXd q = neutral(model);
  for (int i = 1; i < model.njoints; ++i) {
    const Joint& j = model.joints[i];
    for (int k = 0; k < j.nq; ++k) {
      const int iq = j.idx_q + k;
      const bool finite =
          std::isfinite(model.lower_limit[iq]) && std::isfinite(model.upper_limit[iq]);
      // (a quaternion's entries are drawn too, then replaced: the draws keep their number)
      q[iq] = finite ? rng.uniform(model.lower_limit[iq], model.upper_limit[iq])
                     : (coordinate_is_angle(j, k) ? rng.uniform(-kPi, kPi) : rng.uniform(-1, 1));
    }
    if (has_quaternion(j))
      q.segment<4>(j.idx_q + quaternion_offset(j)) = random_unit_quaternion(rng);
  }
  return q;
}

Eigen::VectorXd random_tangent(const Model& model, Rng& rng, double scale) {
  Eigen::VectorXd v(model.nv);
  for (int k = 0; k < model.nv; ++k) v[k] = rng.uniform(-scale, scale);
  return v;
}

}  // namespace eom
