#!/bin/bash
# clang-format with .clang-format on every tracked C++ file (src/, tests/, fuzz/, bench/).
#   scripts/format.sh          reformat the files in place
#   scripts/format.sh --check  change nothing; list each file that is not formatted and exit 1 (scripts/test.sh)
# The tree was formatted once with Debian 12's clang-format 14; another major version may format differently,
# so --check names the version it ran.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "format.sh: clang-format is missing (scripts/install-deps.sh --with-peers)" >&2; exit 1; }
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.cc' '*.hpp')
if [ "${1:-}" = "--check" ]; then
  unformatted=$(printf '%s\0' "${files[@]}" | xargs -0 -P"$(nproc)" -n 50 clang-format --dry-run 2>&1 |
                sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u)
  if [ -n "$unformatted" ]; then
    echo "$unformatted" | sed 's/^/  /' >&2
    echo "format.sh: $(echo "$unformatted" | wc -l) file(s) not formatted by $(clang-format --version | head -1);" \
         "run scripts/format.sh" >&2
    exit 1
  fi
  echo "format.sh: ${#files[@]} files formatted"
  exit 0
fi
printf '%s\0' "${files[@]}" | xargs -0 -P"$(nproc)" -n 50 clang-format -i
