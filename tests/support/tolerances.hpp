// Named test tolerances, in one place. EOM_TOL_SCALE multiplies them (0 shows actual residuals by
// making every comparison fail); never widen one to make a test pass.
#pragma once

#include <cstdlib>
#include <string>

namespace eom::test {

inline double tol_scale() {
  const char* s = std::getenv("EOM_TOL_SCALE");
  return s ? std::atof(s) : 1.0;
}

inline const double kTolRoundoff = 1e-12 * tol_scale();    // identities exact up to round-off
inline const double kTolKinematics = 1e-12 * tol_scale();  // reference poses (absolute)
inline const double kTolReference = 1e-9 * tol_scale();    // reference dynamics (relative)

}  // namespace eom::test
