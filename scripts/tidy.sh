#!/bin/bash
# clang-tidy with the checks of .clang-tidy on the C++ files changed against main (default), on the files changed
# since a revision (--changed-since=REV: what scripts/test.sh runs, REV=HEAD~1, the commit under test), on FILES
# given, or with --all on every source of src/ and tests/. A changed header brings the source of the same name
# (headers are checked through the sources that include them). The baseline is empty: any finding exits 1.
# Uses its own build directory (build-tidy, configured without the unity build so that every source has its own
# compile command; only sluice_revision is built); configuring it takes a few seconds, checking 3-20 s of CPU a
# file (up to a minute for the largest tests).
# --max-files=N (first) checks at most N of the chosen files and names the rest: CI's bound in time, since a
# commit that rewrites hundreds of files would otherwise take hours.
#   usage: scripts/tidy.sh [--max-files=N] [--all | --changed-since=REV | FILE...]
set -euo pipefail
max_files=0
if [[ "${1:-}" == --max-files=* ]]; then
  max_files=${1#--max-files=}
  shift
fi
cd "$(dirname "$0")/.."
command -v clang-tidy >/dev/null || { echo "tidy.sh: clang-tidy is missing (scripts/install-deps.sh --with-peers)" >&2; exit 1; }
dir=build-tidy
if [ ! -f "$dir/compile_commands.json" ] || [ CMakeLists.txt -nt "$dir/compile_commands.json" ]; then
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DSLUICE_TESTS=ON -DSLUICE_UNITY=OFF \
        -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
fi
cmake --build "$dir" --target sluice_revision >/dev/null  # generated/revision.h, which the sources include
files=()
if [ "${1:-}" = "--all" ]; then
  mapfile -t files < <(git ls-files 'src/*.cpp' 'tests/*.cpp')
elif [[ "${1:-}" == --changed-since=* ]]; then
  since=${1#--changed-since=}
  if ! git rev-parse --verify --quiet "$since^{commit}" >/dev/null; then
    echo "tidy.sh: no revision $since (a first commit?): nothing to compare with"; exit 0
  fi
  mapfile -t files < <(git diff --name-only --diff-filter=AM "$since" -- 'src/*.cpp' 'src/*.h' 'tests/*.cpp' 'tests/*.h' |
    sed 's/\.h$/.cpp/' | while read -r f; do [ -f "$f" ] && echo "$f"; done)
elif [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git diff --name-only --diff-filter=AM main -- 'src/*.cpp' 'tests/*.cpp'; git diff --name-only --diff-filter=AM -- 'src/*.cpp' 'tests/*.cpp')
fi
# fuzz/ is built only by the libFuzzer build, so it is not in the database; headers are checked through the
# sources that include them (HeaderFilterRegex).
mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -v '^fuzz/' | sort -u | grep . || true)
[ ${#files[@]} -eq 0 ] && { echo "tidy.sh: no changed C++ source"; exit 0; }
if [ "$max_files" -gt 0 ] && [ ${#files[@]} -gt "$max_files" ]; then
  echo "tidy.sh: ${#files[@]} files changed; checking the first $max_files, not: ${files[*]:$max_files}"
  files=("${files[@]:0:$max_files}")
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
for f in "${files[@]}"; do
  clang-tidy -p "$dir" --quiet "$f" >>"$log" 2>/dev/null || status=1
done
findings=$(grep -c ': warning: \|: error: ' "$log" || true)
if [ "$findings" -gt 0 ]; then
  grep -A3 ': warning: \|: error: ' "$log"
  echo "tidy.sh: $findings finding(s) in ${#files[@]} file(s); by check:" >&2
  grep -o '\[[a-z-]*\(,[a-z-]*\)*\]$' "$log" | sort | uniq -c | sort -rn >&2
  exit 1
fi
[ "$status" -ne 0 ] && { echo "tidy.sh: clang-tidy failed (see above)" >&2; exit 1; }
echo "tidy.sh: ${#files[@]} file(s), no finding"
