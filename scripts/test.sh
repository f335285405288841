#!/usr/bin/env bash
# Installs dependencies, then: the README's first build (scripts/build.sh: the binary only, checked to build
# no test), then sluice and its tests with -Werror (Release, then clang with ASan+UBSan, then GCC with TSan for
# the threaded modules' unit tests), runs them all, runs each fuzz target briefly, and clang-tidy on the files
# the commit under test changed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-peers

# Every skip is said, with its reason, when the script ends (also when a test failed).
junit_files=()
list_skips() { [ ${#junit_files[@]} -eq 0 ] || python3 scripts/list-skips.py "${junit_files[@]}"; }
trap list_skips EXIT

# The unity build (SLUICE_UNITY) needs names private to a file to be unique within their target.
scripts/check-unity-names.py
# The code keeps the map and the folders' Rules of docs/ARCHITECTURE.md (folders, /proc and /sys, engines,
# json.hpp, I/O where a folder is pure, ...); its self-test shows every check failing on a violation (<1 s each).
scripts/check-layers.py --self-test
scripts/check-layers.py
# Every tracked C++ file is as clang-format (.clang-format, Debian 12's clang-format 14) leaves it (4 s).
scripts/format.sh --check
started=$(date +%s)
SLUICE_WERROR=ON scripts/build.sh
if compgen -G "build/test_*" >/dev/null || compgen -G "build/it_*" >/dev/null; then
  echo "test.sh: scripts/build.sh built test binaries; it must build only build/sluice" >&2
  exit 1
fi
echo "test.sh: scripts/build.sh built only build/sluice in $(( $(date +%s) - started )) s"

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSLUICE_TESTS=ON -DSLUICE_WERROR=ON >/dev/null
cmake --build build -j"$(nproc)"
# The sanitizer build: clang with ASan, UBSan and libFuzzer's coverage (SLUICE_FUZZ, -O0 to compile fast): every
# unit test runs under the sanitizers, then each fuzz target replays its seeds and fuzzes briefly. It compiles
# at the lowest CPU and I/O priority while the Release tests run (they wait on devices and subprocesses more
# than they compute; no test depends on an idle machine: docs/reliability.md, "Timing in tests"), which takes
# its time off the critical path; the tests that time something (label "timing", tests/test-resources.txt) then
# run one at a time, still beside it: they passed beside stress-ng --cpu 2 at normal priority (scripts/fresh-check.sh
# --load), and a nice-19 compile yields the CPU to them; those a changing load moves (label "idle": two sets of
# runs compared, the lab's kernel path) run after it, alone. Its output goes to build-asan/build.log, printed
# when it fails.
# After it, in the same background job and at the same priority: the ThreadSanitizer build of the unit tests
# of the modules with threads (test_run, test_method, test_suites: GCC, -O1 -g1, as scripts/tsan.sh), then
# clang-tidy (.clang-tidy, empty baseline) on the sources the commit under test changed against its parent
# (scripts/tidy.sh --max-files=30 --changed-since=HEAD~1; a changed header brings its source; at most 30 files,
# the rest named, so that a commit rewriting hundreds of files stays bounded in time). They are paid for by the
# unity batches of 16 (CMakeLists.txt, SLUICE_UNITY_BATCH), measured in CPU seconds (user+sys, without
# ccache, 2026-12-04): docs/ARCHITECTURE.md, "The test command's time".
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_COMPILER=clang++ -DSLUICE_FUZZ=ON -DSLUICE_FUZZ_OPT=-O0 \
  -DSLUICE_TESTS=ON -DSLUICE_INTEGRATION_TESTS=OFF -DSLUICE_WERROR=ON >/dev/null
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" -DSLUICE_TSAN=ON -DSLUICE_TESTS=ON \
  -DSLUICE_INTEGRATION_TESTS=OFF -DSLUICE_WERROR=ON >/dev/null
mkdir -p build-tidy
asan_started=$(date +%s)
setsid -w nice -n 19 ionice -c 3 bash -c '
  cmake --build build-asan -j"$(nproc)" >build-asan/build.log 2>&1 || exit 11
  cmake --build build-tsan -j"$(nproc)" --target test_run test_method test_suites >build-tsan/build.log 2>&1 || exit 12
  scripts/tidy.sh --max-files=30 --changed-since=HEAD~1 >build-tidy/tidy.log 2>&1 || exit 13' &
asan_build=$!
trap 'kill -- -"$asan_build" 2>/dev/null || kill "$asan_build" 2>/dev/null || true; list_skips' EXIT
rm -f build/ctest-junit.xml build/ctest-timing-junit.xml build/ctest-idle-junit.xml build-asan/ctest-junit.xml
junit_files+=(build/ctest-junit.xml)
(cd build && ctest --output-on-failure -j"$(nproc)" -LE '^timing$' --output-junit ctest-junit.xml)
junit_files+=(build/ctest-timing-junit.xml)
timing_started=$(date +%s)
(cd build && ctest --output-on-failure -L '^timing$' -LE '^idle$' --output-junit ctest-timing-junit.xml)
echo "test.sh: the timing tests, one at a time beside the sanitizer build, took $(( $(date +%s) - timing_started )) s"
background_status=0
wait "$asan_build" || background_status=$?
case "$background_status" in
  0) ;;
  12) tail -n 100 build-tsan/build.log >&2; echo "test.sh: the TSan build failed (build-tsan/build.log)" >&2; exit 1 ;;
  13) cat build-tidy/tidy.log >&2; echo "test.sh: clang-tidy found something (build-tidy/tidy.log)" >&2; exit 1 ;;
  *) tail -n 100 build-asan/build.log >&2; echo "test.sh: the sanitizer build failed (build-asan/build.log)" >&2; exit 1 ;;
esac
tail -n 1 build-tidy/tidy.log
echo "test.sh: the sanitizer builds and clang-tidy, beside the tests, took $(( $(date +%s) - asan_started )) s"
trap list_skips EXIT
junit_files+=(build/ctest-idle-junit.xml)
# The sanitizer build leaves hundreds of MB of dirty pages; their writeback beside the idle tests moved the lab's
# path (SelftestQuick: ssd's depth-1 latency +30% once, in a clean-clone CI): written out first.
sync
idle_started=$(date +%s)
(cd build && ctest --output-on-failure -L '^idle$' --output-junit ctest-idle-junit.xml)
echo "test.sh: the timing tests that need an idle machine took $(( $(date +%s) - idle_started )) s"
junit_files+=(build-asan/ctest-junit.xml)
# The fuzz targets (one process at a time) run beside the unit tests under the sanitizers, which wait more than
# they compute (118 s of CPU in 161 s on 2 cores): both are CPU-bound checks without timing, and each input
# may take 10 s before it counts as a hang.
scripts/fuzz.sh 5 --build-dir=build-asan >build-asan/fuzz.log 2>&1 &
fuzz=$!
# The TSan unit tests beside them too: 4.6 s of CPU in 44 s at load 8 (the three binaries one after another,
# as scripts/tsan.sh runs them; they wait on their runs' threads).
scripts/tsan.sh --unit-only --no-build >build-tsan/tests.log 2>&1 &
tsan=$!
asan_status=0
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --output-on-failure -j"$(nproc)" -L unit --output-junit ctest-junit.xml) || asan_status=$?
fuzz_status=0
wait "$fuzz" || fuzz_status=$?
cat build-asan/fuzz.log
tsan_status=0
wait "$tsan" || tsan_status=$?
cat build-tsan/tests.log
if [ "$asan_status" != 0 ] || [ "$fuzz_status" != 0 ] || [ "$tsan_status" != 0 ]; then
  echo "test.sh: under the sanitizers, the unit tests exited with $asan_status, the fuzz targets with $fuzz_status," \
    "the TSan unit tests with $tsan_status" >&2
  exit 1
fi
