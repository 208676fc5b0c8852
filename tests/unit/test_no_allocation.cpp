// The per-row algorithms allocate nothing: a counting global operator new, switched on around the
// calls, turns "no heap allocation inside per-row loops" into an assertion.

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <new>

#include <eom/configuration.hpp>
#include <eom/dynamics.hpp>
#include <eom/finite_difference.hpp>
#include <eom/kinematics.hpp>
#include <eom/urdf.hpp>

#include "paths.hpp"

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  if (counting) ++allocations;
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

using namespace eom;

TEST_CASE("rnea, crba, nle, gravity, friction, wrenches, kinematics and differentiation do not allocate",
          "[allocation]") {
  for (const bool floating : {false, true}) {
    UrdfOptions options;
    options.floating_base = floating;
    const Model model = load_urdf(test::kRobotsDir + "/solo12.urdf", options);
    Data data(model);
    Rng rng(5);
    const Eigen::VectorXd q0 = random_configuration(model, rng), q1 = random_configuration(model, rng),
                          q2 = random_configuration(model, rng);
    const Eigen::VectorXd v = random_tangent(model, rng), a = random_tangent(model, rng);
    const Friction friction = Friction::from_model(model);
    const std::vector<int> frames{model.require_frame("FL_FOOT"), model.require_frame("HR_FOOT")};
    const Eigen::VectorXd wrenches = Eigen::VectorXd::Ones(12);
    Eigen::VectorXd out(model.nv), v_out(model.nv), a_out(model.nv), q_out(model.nq);
    ConfigurationDifferentiator differentiate(model);

    allocations = 0;
    counting = true;
    rnea(model, data, q0, v, a);
    crba(model, data, q0);
    nonlinear_effects(model, data, q0, v);
    gravity_torque(model, data, q0);
    friction_torque(friction, v, out);
    external_torque(model, data, q0, frames, wrenches, ReferenceFrame::local_world_aligned, out);
    frame_placements(model, data, q0);
    kinetic_energy(model, data, q0, v);
    potential_energy(model, data, q0);
    integrate(model, q0, v, q_out);
    differentiate({0.0, 0.1, 0.2}, {&q0, &q1, &q2}, 1, v_out, a_out);
    counting = false;
    CHECK(allocations == 0);
  }
}
