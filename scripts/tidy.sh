#!/bin/bash
# clang-tidy with the checks of .clang-tidy on the C++ files changed against main (default), on FILES given, or
# with --all on every source of src/, tests/ and fuzz/. The baseline is empty: any finding exits 1.
# Uses its own build directory (build-tidy, configured without the unity build so that every source has its own
# compile command); configuring it takes a few seconds, checking takes about a minute per file on 1 core.
#   usage: scripts/tidy.sh [--all | FILE...]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-tidy >/dev/null || { echo "tidy.sh: clang-tidy is missing (scripts/install-deps.sh --with-peers)" >&2; exit 1; }
dir=build-tidy
if [ ! -f "$dir/compile_commands.json" ] || [ CMakeLists.txt -nt "$dir/compile_commands.json" ]; then
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSLUICE_TESTS=ON -DSLUICE_UNITY=OFF \
        -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
fi
ninja -C "$dir" sluice_revision >/dev/null  # generated/revision.h, which the sources include
files=()
if [ "${1:-}" = "--all" ]; then
  mapfile -t files < <(git ls-files 'src/*.cpp' 'tests/*.cpp')
elif [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(git diff --name-only --diff-filter=AM main -- 'src/*.cpp' 'tests/*.cpp'; git diff --name-only --diff-filter=AM -- 'src/*.cpp' 'tests/*.cpp')
fi
# fuzz/ is built only by the libFuzzer build, so it is not in the database; headers are checked through the
# sources that include them (HeaderFilterRegex).
mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -v '^fuzz/' | sort -u | grep . || true)
[ ${#files[@]} -eq 0 ] && { echo "tidy.sh: no changed C++ source"; exit 0; }
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
