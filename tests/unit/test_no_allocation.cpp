// The per-row algorithms allocate nothing: malloc itself is interposed (glibc lets a program
// define it; Eigen and operator new both end there) and counts while switched on, turning "no heap
// allocation inside per-row loops" into an assertion. Other unit tests use it through
// allocations.hpp.

#include <catch2/catch.hpp>

#include <atomic>
#include <cstddef>

#include <eom/multibody/configuration.hpp>
#include <eom/algorithm/dynamics.hpp>
#include <eom/trajectory/finite_difference.hpp>
#include <eom/algorithm/kinematics.hpp>
#include <eom/parsers/urdf.hpp>

#include "allocations.hpp"
#include "paths.hpp"

namespace {
std::atomic<bool> counting{false};
std::atomic<long> allocations{0};
}  // namespace

namespace eom::test {
void count_allocations(bool on) {
  if (on) allocations = 0;
  counting = on;
}
#if defined(EOM_ALLOCATIONS_UNCOUNTED)
long counted_allocations() { return -1; }  // nothing counted: see allocations.hpp
#else
long counted_allocations() { return allocations; }
#endif
}  // namespace eom::test

#if !defined(EOM_ALLOCATIONS_UNCOUNTED)
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* p, std::size_t size);
void* malloc(std::size_t size) {
  if (counting) ++allocations;
  return __libc_malloc(size);
}
void* calloc(std::size_t count, std::size_t size) {
  if (counting) ++allocations;
  return __libc_calloc(count, size);
}
void* realloc(void* p, std::size_t size) {
  if (counting) ++allocations;
  return __libc_realloc(p, size);
}
}
#endif

using namespace eom;

TEST_CASE(
    "rnea, aba, crba, nle, gravity, friction, wrenches, kinematics and differentiation do not "
    "allocate",
    EOM_ALLOCATION_TAG) {
  for (const bool floating : {false, true}) {
    LoadOptions options;
    options.floating_base = floating;
    const Model model = load_urdf(test::kRobotsDir + "/solo12.urdf", options);
    Data data(model);
    Rng rng(5);
    const Eigen::VectorXd q0 = random_configuration(model, rng),
                          q1 = random_configuration(model, rng),
                          q2 = random_configuration(model, rng);
    const Eigen::VectorXd v = random_tangent(model, rng), a = random_tangent(model, rng);
    const Friction friction = Friction::from_model(model);
    const std::vector<int> frames{model.require_frame("FL_FOOT"), model.require_frame("HR_FOOT")};
    const Eigen::VectorXd wrenches = Eigen::VectorXd::Ones(12);
    Eigen::VectorXd out(model.nv), v_out(model.nv), a_out(model.nv), q_out(model.nq);
    ConfigurationDifferentiator differentiate(model);

    const long n = test::allocations_during([&] {
      rnea(model, data, q0, v, a);
      aba(model, data, q0, v, a);
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
    });
    CHECK(n == 0);
  }
}

TEST_CASE("the counter sees Eigen's and new's allocations", EOM_ALLOCATION_TAG) {
  static double* volatile kept;  // volatile: the compiler may not elide the allocation
  Eigen::Index size = 0;
  const long n = test::allocations_during([&] {
    Eigen::VectorXd x(1000);
    size = x.size();
    kept = new double[10];
  });
  delete[] kept;
  CHECK(n == 2);
  CHECK(size == 1000);
}
