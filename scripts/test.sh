#!/usr/bin/env bash
# Install the dependencies, build everything (Release) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
# Ninja for a new build directory: it compiles a target's files while the libraries they link are
# still building, where make waits target by target (an existing directory keeps its generator).
generator=()
[[ -f build/CMakeCache.txt ]] || generator=(-G Ninja)
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DEOM_UNITY_BUILD=ON
cmake --build build -j"$(nproc)"
ctest --test-dir build -j"$(nproc)" --output-on-failure
