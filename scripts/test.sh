#!/usr/bin/env bash
# Installs dependencies, then: the README's first build (scripts/build.sh: the binary only, checked to build
# no test), then sluice and its tests with -Werror (Release, then ASan+UBSan), and runs them all.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-peers

started=$(date +%s)
SLUICE_WERROR=ON scripts/build.sh
if compgen -G "build/test_*" >/dev/null || compgen -G "build/it_*" >/dev/null; then
  echo "test.sh: scripts/build.sh built test binaries; it must build only build/sluice" >&2
  exit 1
fi
echo "test.sh: scripts/build.sh built only build/sluice in $(( $(date +%s) - started )) s"

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSLUICE_TESTS=ON -DSLUICE_WERROR=ON >/dev/null
cmake --build build -j"$(nproc)"
(cd build && ctest --output-on-failure -j"$(nproc)" --timeout 300)
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DSLUICE_TESTS=ON -DSLUICE_INTEGRATION_TESTS=OFF \
  -DSLUICE_SANITIZE=ON -DSLUICE_WERROR=ON >/dev/null
cmake --build build-asan -j"$(nproc)"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --output-on-failure -j"$(nproc)" --timeout 600 -L unit)
