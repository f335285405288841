#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, SLUICE_FUZZ: clang, ASan+UBSan) in build-fuzz, replays each target's
# seed corpus (fuzz/corpus/<target>), then fuzzes each for SECONDS (default 20) with its dictionary. New
# inputs go to build-fuzz/corpus/<target> (kept between runs, never into the repository); a crash, a hang
# (-timeout), a sanitizer report or an input over -rss_limit_mb stops with the input saved as
# build-fuzz/artifacts/<target>-crash-... and exit status 1. Prints each target's executions.
# usage: scripts/fuzz.sh [SECONDS] [--jobs=N] [--only=TARGET] [--timeout=S] [--build-dir=DIR]
#        a long run: scripts/fuzz.sh 3600
#        (--timeout: seconds one input may take before it counts as a hang, default 10; raise it on a loaded
#        machine, where a starved input can exceed 10 s and replay in under one)
#        (--build-dir: another SLUICE_FUZZ build than build-fuzz, e.g. the CI's build-asan, which also holds
#        the unit tests built with the same sanitizers)
#        scripts/fuzz.sh --regen    rewrites the dictionaries and generated seeds from the option tables
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=20
jobs=1
only=""
timeout=10
regen=0
build=build-fuzz
for arg in "$@"; do
  case "$arg" in
    --regen) regen=1 ;;
    --jobs=*) jobs=${arg#--jobs=} ;;
    --only=*) only=${arg#--only=} ;;
    --timeout=*) timeout=${arg#--timeout=} ;;
    --build-dir=*) build=${arg#--build-dir=} ;;
    [0-9]*) seconds=$arg ;;
    *) echo "usage: scripts/fuzz.sh [SECONDS] [--jobs=N] [--only=TARGET] [--timeout=S] [--build-dir=DIR] | --regen" >&2
       exit 2 ;;
  esac
done
targets=(job_file option_value command_line result_input hist_log postmark_script iolog)
[ -n "$only" ] && targets=("$only")

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# A build directory already configured for fuzzing (the CI's build-asan, whose unit tests may be running beside
# this script) is built as it is, not configured again.
if ! grep -qs '^SLUICE_FUZZ:BOOL=ON$' "$build/CMakeCache.txt"; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=None -DSLUICE_FUZZ=ON -DSLUICE_WERROR=ON -DCMAKE_CXX_COMPILER=clang++ \
    "${launcher[@]}" >/dev/null
fi
if [ "$regen" = 1 ]; then
  cmake --build "$build" -j"$(nproc)" --target gen_fuzz_inputs
  "$build/gen_fuzz_inputs" fuzz
  echo "fuzz.sh: wrote fuzz/*.dict and the generated seeds"
  exit 0
fi
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/%/_fuzz}"

mkdir -p "$build/artifacts"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:${UBSAN_OPTIONS:-}"
failed=0
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t"
  options=("-timeout=$timeout" -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 "-artifact_prefix=$build/artifacts/$t-")
  [ -f "fuzz/$t.dict" ] && options+=("-dict=fuzz/$t.dict")
  log="$build/fuzz-$t.log"
  rm -f fuzz-*.log  # libFuzzer's per-worker logs of --jobs, counted below
  # Replay: every seed once (a regression in a seed fails here, before any mutation).
  if ! "$build/${t}_fuzz" "${options[@]}" -runs=0 "fuzz/corpus/$t" >"$log" 2>&1; then
    echo "fuzz.sh: $t: a seed fails; see $log" >&2; failed=1; continue
  fi
  if [ "$jobs" -gt 1 ]; then
    options+=("-jobs=$jobs" "-workers=$jobs")
  fi
  if ! "$build/${t}_fuzz" "${options[@]}" -max_total_time="$seconds" "$build/corpus/$t" "fuzz/corpus/$t" \
      >>"$log" 2>&1; then
    echo "fuzz.sh: $t: FAILED; the input is in $build/artifacts/, the report in $log" >&2; failed=1; continue
  fi
  # fuzz-*.log exist only with --jobs; grep's "no such file" must not end the script (set -e, pipefail).
  runs=$({ grep -h "stat::number_of_executed_units" "$log" fuzz-*.log 2>/dev/null || true; } | awk '{s += $2} END {print s + 0}')
  echo "fuzz.sh: $t: $runs executions in ${seconds}s, no crash, hang or sanitizer report"
done
rm -f fuzz-*.log
exit "$failed"
