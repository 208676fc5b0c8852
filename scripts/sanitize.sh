#!/usr/bin/env bash
# Build eom, libeom and the test suite with AddressSanitizer + UndefinedBehaviorSanitizer
# (-DEOM_SANITIZE=ON) in BUILD_DIR (default build-asan) and run the suite under them: unit, engine,
# CLI and fuzz-replay tests, every code path a user's input reaches; the reference and property
# programs, the CLI's numerical checks (eom_cli_checks) and the algorithms' own unit tests (the
# same paths over more numbers) run in the Release pass only, and so do the CLI cases labelled
# `long` (long runs of paths the other cases take: tests/cli/CMakeLists.txt). Any finding aborts
# the process that made it, so the test that triggered it fails. bench/ is not built; the fuzz
# targets are, as corpus replays (their own clang build is tests/fuzz/run.sh). The [allocation]
# tests are hidden there: they interpose malloc, which ASan owns. The install check (the
# packaging, which the Release suite checks) is not run here, so nothing is built for it.
# -O1 -g1: quicker to compile than -O2 -g, still with file:line in the reports.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-asan}
generator=()  # Ninja for a new build directory, as in scripts/test.sh
[[ -f "$build/CMakeCache.txt" ]] || generator=(-G Ninja)
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" \
  -DEOM_SANITIZE=ON -DEOM_BUILD_BENCH=OFF -DEOM_NUMERIC_TESTS=OFF -DEOM_UNITY_BUILD=ON
cmake --build "$build" -j"$(nproc)"
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1:check_initialization_order=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
# the system libraries' own leaks (fontconfig, libltdl under PLplot's PNG): scripts/lsan.supp
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp:print_suppressions=0
ctest --test-dir "$build" -j"$(nproc)" --output-on-failure --label-exclude 'install|long'
