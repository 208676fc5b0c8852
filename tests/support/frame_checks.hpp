// The frames of two models of one robot (a reduced or re-loaded model against the original): every
// frame of `expected` is in `actual` by name, at the same world placement (`actual` may have more).
#pragma once

#include <catch2/catch.hpp>

#include <eom/multibody/data.hpp>
#include <eom/multibody/model.hpp>

#include "matchers.hpp"
#include "tolerances.hpp"

namespace eom::test {

/// After frame_placements on both: positions to kTolKinematics relative to their distance from
/// the origin, rotations to kTolKinematics.
inline void check_same_frames(const Model& expected, const Data& expected_data, const Model& actual,
                              const Data& actual_data) {
  for (size_t f = 0; f < expected.frames.size(); ++f) {
    INFO("frame " << expected.frames[f].name);
    const int g = actual.frame_index(expected.frames[f].name);
    REQUIRE(g >= 0);
    const SE3& want = expected_data.oMf[f];
    const double scale = 1 + want.p.norm();
    CHECK_THAT(actual_data.oMf[g].p, AllClose(want.p, kTolKinematics * scale));
    CHECK_THAT(actual_data.oMf[g].R, AllClose(want.R, kTolKinematics));
  }
}

}  // namespace eom::test
