#!/usr/bin/env bash
# ThreadSanitizer run of the tests that involve threads: the runner and its workers, background jobs, the
# status line, the open-loop queue, job control (tests/run: test_run), the methods that drive runs
# (test_method), the suites' worker threads (test_suites: metadata's thread team and its communicator, the
# file-tree steps), and, unless --unit-only, the integration tests that run a TSan-built sluice (it_run: open
# loop, verify). Builds build-tsan (SLUICE_TSAN, -O1 -g1); the whole script before each release
# (docs/reliability.md); scripts/test.sh builds the unit targets itself (beside the Release tests) and runs them
# with --unit-only --no-build. The test binaries run one after another. Two unit tests that measure wall-clock
# windows are left out here (they run in the Release and ASan builds): under TSan on a machine at load 7-9 (other
# sessions' compilers) JobControl.FlowKeepsTheRatioOfWeights measured a ratio of 1.66 for 4 +- 1 and
# HistLog.WindowsAreDeltas wrote 2 windows of 20 ms in a 70 ms run; their code (flow, the histogram log) runs
# under TSan in the other tests of the same suites.
# usage: scripts/tsan.sh [--unit-only] [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."
targets=(test_run test_method test_suites)
unit_only=0
build=1
for arg in "$@"; do
  case "$arg" in
    --unit-only) unit_only=1 ;;
    --no-build) build=0 ;;
    *) echo "usage: scripts/tsan.sh [--unit-only] [--no-build]" >&2; exit 2 ;;
  esac
done
[ "$unit_only" = 1 ] || targets+=(sluice it_run)
if [ "$build" = 1 ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" -DSLUICE_TSAN=ON -DSLUICE_TESTS=ON \
    -DSLUICE_WERROR=ON "${launcher[@]}" >/dev/null
  cmake --build build-tsan -j"$(nproc)" --target "${targets[@]}"
fi
# halt_on_error: the first race fails the test that showed it; second_deadlock_stack for lock-order reports.
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}"
export SLUICE_STATE_DIR="$PWD/build-tsan/test-state"  # as ctest sets it: journals stay in the build dir
failed=0
for t in "${targets[@]}"; do
  [ "$t" = sluice ] && continue
  echo "tsan.sh: $t"
  build-tsan/"$t" --gtest_brief=1 --gtest_filter="-JobControl.FlowKeepsTheRatioOfWeights:HistLog.WindowsAreDeltas" ||
    failed=1
done
[ "$failed" = 0 ] && echo "tsan.sh: no data race reported" || { echo "tsan.sh: failures above" >&2; exit 1; }
