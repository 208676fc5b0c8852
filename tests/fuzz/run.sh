#!/usr/bin/env bash
# Fuzz every target (or those named) for SECONDS each with libFuzzer (clang, ASan + UBSan):
#   tests/fuzz/run.sh 600 [urdf json_model mjcf csv json ndjson options friction sim]
# Builds build-fuzz/, grows build-fuzz/corpus/<target> from the seed corpus tests/fuzz/corpus/,
# and leaves crashes in build-fuzz/findings/<target>/. Add a minimised crash to the seed corpus
# once fixed: ctest then replays it in every build.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-60}
shift || true
targets=${*:-urdf json_model mjcf csv json ndjson options friction sim}
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEOM_FUZZ=ON \
  -DEOM_BUILD_TESTS=OFF -DEOM_BUILD_BENCH=OFF > /dev/null
cmake --build build-fuzz -j"$(nproc)" --target $(printf 'fuzz_%s ' $targets) > /dev/null
for target in $targets; do
  mkdir -p "build-fuzz/corpus/$target" "build-fuzz/findings/$target"
  echo "fuzzing $target for $seconds s"
  build-fuzz/fuzz/fuzz_$target -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
    -artifact_prefix="build-fuzz/findings/$target/" "build-fuzz/corpus/$target" \
    "tests/fuzz/corpus/$target" 2>&1 | grep -E '^#[0-9]+ +DONE|ERROR|SUMMARY|Done' || true
done
