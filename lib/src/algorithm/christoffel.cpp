#include "eom/algorithm/christoffel.hpp"

#include "core/sizes.hpp"

namespace eom {
namespace {

// B(Y, s) u and B(Y, s)^T u for the subtree term B(Y, s) = (s x* Y - Y s x + (Y s) x-bar*) / 2 of
// mass_coriolis_gravity_time_derivatives with every body of the subtree moving with the twist s:
// with A = s x* (Y u) - Y (s x u) and D = u x* (Y s), B u = (A + D) / 2 and B^T u = (A - D) / 2
// ((s x)^T = -s x*, and m -> m x* h is skew-symmetric).
struct SubtreeCoriolis {
  const Mat6& Y;
  Motion s;
  Force Ys;  // Y s, the subtree's momentum under the twist s

  SubtreeCoriolis(const Mat6& Y_, const Motion& s_)
      : Y(Y_), s(s_), Ys(Force::from(Y_ * s_.vector())) {}

  // Yu = Y u, which the callers need too
  void apply(const Motion& u, const Vec6& Yu, Vec6& Bu, Vec6& BTu) const {
    const Vec6 A = cross_force(s, Force::from(Yu)).vector() - Y * cross(s, u).vector();
    const Vec6 D = cross_force(u, Ys).vector();
    Bu = 0.5 * (A + D);
    BTu = 0.5 * (A - D);
  }
};

// m . f for a motion and a force given as a 6-vector (linear first), without assembling m's
double dot(const Motion& m, const Vec6& f) {
  return m.lin.dot(f.head<3>()) + m.ang.dot(f.tail<3>());
}

// whether joint `ancestor` is joint i or one of its ancestors
bool supports(const Model& model, int ancestor, int i) {
  while (i > ancestor) i = model.parent[i];
  return i == ancestor;
}

}  // namespace

// Gamma_rck = C(q, e_k)_rc (Echeandia & Wensing 2021, the Christoffel arrangement of C): with the
// velocity e_k, only the bodies moved by joint a (the joint of coordinate k) have a twist, S_k,
// and only the world columns of those joints move, dS_c/dt = S_k x S_c. So the subtree sums of
// mass_coriolis_gravity_time_derivatives reduce to, for a joint i and r a coordinate of i or of an
// ancestor:
//   i in a's subtree:        C_rc = S_r . (Y_i (S_k x S_c) + B(Y_i, S_k) S_c),
//                            C_cr = (Y_i S_c) . dS_r/dt + (B(Y_i, S_k)^T S_c) . S_r
//   i a strict ancestor of a: C_rc = S_r . B(Y_a, S_k) S_c, C_cr = (B(Y_a, S_k)^T S_c) . S_r
// and 0 for every other pair, with Y_i the subtree inertias of one crba-like sweep: O(n d^2) work
// for a tree of depth d besides the nv^3 entries themselves, where a coriolis_matrix per k costs
// O(n^2 d) and repeats the kinematics nv times.
void christoffel_symbols(const Model& model, TimeDerivativeData& data, ConstVec q,
                         Eigen::Ref<Eigen::MatrixXd> gamma) {
  const int nv = model.nv;
  detail::check_size(gamma.rows(), nv * nv, "gamma's rows");
  detail::check_size(gamma.cols(), nv, "gamma's columns");
  gamma.setZero();
  // the world columns S and subtree inertias Y at q (C at zero velocity is 0; the zero velocity is
  // gamma's own first column)
  mass_coriolis_gravity_time_derivatives(
      model, data, q, Eigen::Map<const Eigen::MatrixXd>(gamma.col(0).data(), nv, 1), 0);
  const int n = data.stride;
  const auto S = [&](int col) -> const Motion& { return data.S[col * n]; };
  const auto entry = [&](int row, int col, int k) -> double& { return gamma(row + col * nv, k); };
  for (int a = 1; a < model.njoints; ++a) {
    const Joint& moving = model.joints[a];
    for (int ka = 0; ka < moving.nv; ++ka) {
      const int k = moving.idx_v + ka;
      const Motion& Sk = S(k);
      // the joints of a's subtree: they follow a (depth-first order)
      for (int i = a; i < model.njoints && supports(model, a, i); ++i) {
        const Mat6& Y = data.Ycrb[i * n];
        const SubtreeCoriolis B(Y, Sk);
        const Joint& joint = model.joints[i];
        for (int cj = 0; cj < joint.nv; ++cj) {
          const int c = joint.idx_v + cj;
          const Vec6 YSc = Y * S(c).vector();
          Vec6 BSc, BTSc;
          B.apply(S(c), YSc, BSc, BTSc);
          const Vec6 F = Y * cross(Sk, S(c)).vector() + BSc;
          bool moved = true;  // joint `up` is in a's subtree: its columns turn with S_k
          for (int up = i; up > 0; up = model.parent[up]) {
            const Joint& ancestor = model.joints[up];
            for (int rj = 0; rj < ancestor.nv; ++rj) {
              const int r = ancestor.idx_v + rj;
              entry(r, c, k) = dot(S(r), F);
              if (up == i) continue;
              double transposed = dot(S(r), BTSc);
              if (moved) transposed += dot(cross(Sk, S(r)), YSc);
              entry(c, r, k) = transposed;
            }
            if (up == a) moved = false;
          }
        }
      }
      // the strict ancestors of a, which a's subtree hangs from
      const SubtreeCoriolis B(data.Ycrb[a * n], Sk);
      for (int i = model.parent[a]; i > 0; i = model.parent[i]) {
        const Joint& joint = model.joints[i];
        for (int cj = 0; cj < joint.nv; ++cj) {
          const int c = joint.idx_v + cj;
          Vec6 BSc, BTSc;
          B.apply(S(c), B.Y * S(c).vector(), BSc, BTSc);
          for (int up = i; up > 0; up = model.parent[up]) {
            const Joint& ancestor = model.joints[up];
            for (int rj = 0; rj < ancestor.nv; ++rj) {
              const int r = ancestor.idx_v + rj;
              entry(r, c, k) = dot(S(r), BSc);
              if (up != i) entry(c, r, k) = dot(S(r), BTSc);
            }
          }
        }
      }
    }
  }
}

}  // namespace eom
