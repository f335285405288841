#!/usr/bin/env bash
# Installs dependencies, builds sluice and its tests with -Werror (Release, then ASan+UBSan) and runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-peers
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSLUICE_TESTS=ON -DSLUICE_WERROR=ON >/dev/null
cmake --build build -j"$(nproc)"
(cd build && ctest --output-on-failure -j"$(nproc)" --timeout 300)
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DSLUICE_TESTS=ON -DSLUICE_SANITIZE=ON -DSLUICE_WERROR=ON >/dev/null
cmake --build build-asan -j"$(nproc)"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --output-on-failure -j"$(nproc)" --timeout 600 -L unit)
