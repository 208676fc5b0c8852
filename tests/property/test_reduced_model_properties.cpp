// Locked joints (build_reduced_model): the reduced model must move and weigh exactly as the full
// one does with the locked joints held still, on every test robot, fixed and floating.

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <eom/algorithm/dynamics.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/core/errors.hpp>
#include <eom/multibody/configuration.hpp>
#include <eom/multibody/data.hpp>
#include <eom/parsers/reduced_model.hpp>
#include <eom/parsers/urdf.hpp>

#include "frame_checks.hpp"
#include "matchers.hpp"
#include "models.hpp"
#include "paths.hpp"
#include "tolerances.hpp"

using namespace eom;
using namespace eom::test;

namespace {

// index in `full` of each of `names` (coordinate names of the reduced model): by name, not by any
// index arithmetic of the code under test
std::vector<int> indices_by_name(const std::vector<std::string>& names,
                                 const std::vector<std::string>& full) {
  std::vector<int> out;
  for (const auto& name : names) {
    const auto it = std::find(full.begin(), full.end(), name);
    REQUIRE(it != full.end());
    out.push_back(static_cast<int>(it - full.begin()));
  }
  return out;
}

Eigen::VectorXd select(const Eigen::VectorXd& x, const std::vector<int>& index) {
  Eigen::VectorXd out(index.size());
  for (size_t k = 0; k < index.size(); ++k) out[k] = x[index[k]];
  return out;
}

// the full model's rnea, M and frame placements with the locked joints held at q (v = a = 0 on
// them) against the reduced model's
void check_reduction(const Model& full, const std::vector<int>& locked, unsigned seed) {
  Rng rng(seed);
  const Eigen::VectorXd q = random_configuration(full, rng);
  Eigen::VectorXd v = random_tangent(full, rng), a = random_tangent(full, rng);
  for (const int j : locked) {
    v.segment(full.joints[j].idx_v, full.joints[j].nv).setZero();
    a.segment(full.joints[j].idx_v, full.joints[j].nv).setZero();
  }
  const Model reduced = build_reduced_model(full, locked, q);

  // the remaining joints, in the full model's order, with the locked ones listed
  std::vector<std::string> remaining;
  for (int j = 0; j < full.njoints; ++j) {
    if (std::find(locked.begin(), locked.end(), j) == locked.end()) {
      remaining.push_back(full.joint_names[j]);
    }
  }
  CHECK(reduced.joint_names == remaining);
  CHECK(reduced.locked.size() == locked.size());
  CHECK(reduced.total_mass == full.total_mass);
  double full_mass = 0, reduced_mass = 0;
  for (const Inertia& I : full.inertia) full_mass += I.m;
  for (const Inertia& I : reduced.inertia) reduced_mass += I.m;
  CHECK(reduced_mass == Approx(full_mass).epsilon(kTolRoundoff));

  const std::vector<int> iq = indices_by_name(reduced.q_names, full.q_names);
  const std::vector<int> iv = indices_by_name(reduced.v_names, full.v_names);
  REQUIRE(static_cast<int>(iq.size()) == reduced.nq);
  REQUIRE(static_cast<int>(iv.size()) == reduced.nv);
  const Eigen::VectorXd qr = select(q, iq), vr = select(v, iv), ar = select(a, iv);

  Data dfull(full), dred(reduced);
  frame_placements(full, dfull, q);
  frame_placements(reduced, dred, qr);
  REQUIRE(reduced.frames.size() == full.frames.size());
  check_same_frames(full, dfull, reduced, dred);

  if (reduced.nv == 0) return;  // every joint locked (the block): nothing moves, only frames
  const Eigen::VectorXd tau = rnea(full, dfull, q, v, a);
  const Eigen::VectorXd tau_r = rnea(reduced, dred, qr, vr, ar);
  CHECK_THAT(tau_r, AllClose(select(tau, iv), kTolRoundoff * (1 + magnitude(tau))));

  const Eigen::MatrixXd M = crba(full, dfull, q);
  const Eigen::MatrixXd Mr = crba(reduced, dred, qr);
  Eigen::MatrixXd expected(reduced.nv, reduced.nv);
  for (int r = 0; r < reduced.nv; ++r) {
    for (int c = 0; c < reduced.nv; ++c) expected(r, c) = M(iv[r], iv[c]);
  }
  CHECK_THAT(Mr, AllClose(expected, kTolRoundoff * (1 + magnitude(M))));
}

}  // namespace

TEST_CASE("a reduced model moves as the full one with the locked joints held", "[property]") {
  for (const TestModel& tm : test_models()) {
    SECTION(tm.name) {
      const Model full = tm.load();
      // every third moving joint (the free-flyer among them on some robots), then a single joint
      std::vector<int> some;
      for (int j = 1; j < full.njoints; ++j) {
        if ((j + tm.seed) % 3 == 0) some.push_back(j);
      }
      if (!some.empty()) check_reduction(full, some, tm.seed);
      check_reduction(full, {full.njoints - 1}, tm.seed + 100);
      // locking in two steps is locking at once
      if (some.size() >= 2) {
        Rng rng(tm.seed);
        const Eigen::VectorXd q = random_configuration(full, rng);
        const Model once = build_reduced_model(full, some, q);
        const Model first = build_reduced_model(full, {some.front()}, q);
        const std::vector<int> iq = indices_by_name(first.q_names, full.q_names);
        std::vector<int> rest;
        for (size_t k = 1; k < some.size(); ++k) {
          rest.push_back(first.joint_index(full.joint_names[some[k]]));
        }
        const Model twice = build_reduced_model(first, rest, select(q, iq));
        CHECK(twice.joint_names == once.joint_names);
        CHECK(twice.locked.size() == once.locked.size());
        Data d1(once), d2(twice);
        const Eigen::VectorXd qr = select(q, indices_by_name(once.q_names, full.q_names));
        const Eigen::VectorXd g1 = gravity_torque(once, d1, qr);
        CHECK_THAT(gravity_torque(twice, d2, qr), AllClose(g1, kTolRoundoff * (1 + magnitude(g1))));
      }
    }
  }
}

TEST_CASE("locking the free-flyer at the identity gives the fixed-base model", "[property]") {
  for (const TestModel& tm : test_models()) {
    if (!tm.floating_base) continue;
    SECTION(tm.name) {
      const Model floating = tm.load();
      const Model locked = build_reduced_model(floating, {1}, neutral(floating));
      LoadOptions fixed_options;
      const Model fixed = load_urdf(tm.path, fixed_options);
      CHECK_FALSE(locked.floating_base);
      CHECK(locked.q_names == fixed.q_names);
      Rng rng(tm.seed);
      const Eigen::VectorXd q = random_configuration(fixed, rng);
      const Eigen::VectorXd v = random_tangent(fixed, rng), a = random_tangent(fixed, rng);
      Data d1(fixed), d2(locked);
      const Eigen::VectorXd tau = rnea(fixed, d1, q, v, a);
      CHECK_THAT(rnea(locked, d2, q, v, a), AllClose(tau, kTolRoundoff * (1 + magnitude(tau))));
    }
  }
}

TEST_CASE("locking massless fingers makes the mass matrix regular", "[property]") {
  const Model full = load_urdf(kDataDir + "/urdf/massless_gripper.urdf");
  const int finger = full.joint_index("finger_joint_1");
  const int follower = full.joint_index("finger_joint_2");
  const int turning = full.joint_index("finger_joint_3");
  REQUIRE(joints_without_inertia(full) == std::vector<int>{finger, follower, turning});

  std::vector<int> locked{finger, turning};
  Eigen::VectorXd q = neutral(full);
  q[full.joints[finger].idx_q] = 0.03;
  q[full.joints[turning].idx_q] = 0.2;
  // the follower mimics with multiplier 1 and offset 0 (the URDF's <mimic>)
  CHECK(lock_mimic_followers(full, locked, q) == std::vector<int>{follower});
  CHECK(locked == std::vector<int>{finger, turning, follower});
  CHECK(q[full.joints[follower].idx_q] == 0.03);
  CHECK(lock_mimic_followers(full, locked, q).empty());

  const Model reduced = build_reduced_model(full, locked, q);
  CHECK(reduced.nv == 2);
  CHECK(joints_without_inertia(reduced).empty());
  CHECK(reduced.is_locked_coordinate("finger_joint_2"));
  CHECK_FALSE(reduced.is_locked_coordinate("finger_joint_"));
  CHECK_FALSE(reduced.is_locked_coordinate("elbow"));
  // fingertip_1 rides on the forearm now: finger origin (0, 0.01, 0.3) + 0.03 along y, then the
  // fixed joint's 0.05 along z
  const Frame& tip = reduced.frames[reduced.frame_index("fingertip_1")];
  CHECK(reduced.joint_names[tip.parent] == "elbow");
  CHECK_THAT(tip.placement.p, AllClose(Eigen::Vector3d(0, 0.04, 0.35), 1e-15));
  // the massless links add nothing: the forearm's body is its 1 kg
  CHECK(reduced.inertia[reduced.joint_index("elbow")].m == 1.0);

  CHECK_THROWS_AS(build_reduced_model(full, {0}, q), InputError);
  CHECK_THROWS_AS(build_reduced_model(full, {finger, finger}, q), InputError);
  q[full.joints[finger].idx_q] = NAN;
  CHECK_THROWS_AS(build_reduced_model(full, {finger}, q), InputError);
}
