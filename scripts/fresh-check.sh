#!/usr/bin/env bash
# The clean-machine proof: runs the README's two commands in a fresh clone of HEAD (what is committed, nothing
# else of this work tree) with some features withheld, so that the tests' skip paths run too, not only the
# paths of this machine.
#
#   scripts/fresh-check.sh [--without=LIST] [--load] [--tests-only] [--keep]
#
# --without=LIST  features to withhold, by the names of tests/support/machine_features.h (default:
#                 fio,fio_examples,sysbench,postmark,bonnie++,wrk,ab,postal,strace,ext4_move_ext). Those that
#                 are programs are also taken out of PATH (a directory of links to every other program), so a
#                 test that calls one without probing it fails here; the rest reach the tests through
#                 SLUICE_TEST_WITHOUT.
# --load          runs `stress-ng --cpu 2` (Debian's stress-ng) beside the whole check: no test may depend on an
#                 idle machine.
# --tests-only    skips the first command (build the binary, run sluice quick).
# --keep          keeps the clone (default: removed when the check passes).
# Prints each command's time and exits with the first failing command's status.
set -euo pipefail
cd "$(dirname "$0")/.."

without="fio,fio_examples,sysbench,postmark,bonnie++,wrk,ab,postal,strace,ext4_move_ext"
load=0 tests_only=0 keep=0
for arg in "$@"; do
  case "$arg" in
    --without=*) without="${arg#--without=}" ;;
    --load) load=1 ;;
    --tests-only) tests_only=1 ;;
    --keep) keep=1 ;;
    *) echo "fresh-check.sh: unknown argument '$arg' (--without=LIST, --load, --tests-only, --keep)" >&2; exit 2 ;;
  esac
done
[ -z "$(git status --porcelain --untracked-files=no)" ] ||
  echo "fresh-check.sh: the work tree has uncommitted changes; the check runs HEAD without them" >&2

scratch=$(mktemp -d "${TMPDIR:-/tmp}/sluice-fresh-XXXXXX")
chmod 755 "$scratch"  # as a clone anywhere else: the tests' jobs running as another user (uid=) reach build/
clone="$scratch/sluice"
git clone --quiet --no-hardlinks . "$clone"

# A PATH without the withheld programs: links to every other program of the usual directories.
shadow="$scratch/bin"
mkdir -p "$shadow"
withheld_programs=()
IFS=',' read -r -a features <<<"$without"
for f in "${features[@]}"; do
  case "$f" in
    fio | sysbench | postmark | bonnie++ | wrk | ab | postal | strace | mpirun | chromium | stress-ng) withheld_programs+=("$f") ;;
  esac
done
for dir in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
  [ -d "$dir" ] || continue
  for program in "$dir"/*; do
    name=${program##*/}
    [ -e "$shadow/$name" ] && continue
    for w in "${withheld_programs[@]}"; do [ "$name" = "$w" ] && continue 2; done
    ln -s "$program" "$shadow/$name"
  done
done

if [ "$load" = 1 ]; then
  command -v stress-ng >/dev/null || { echo "fresh-check.sh: --load needs stress-ng (apt-get install stress-ng)" >&2; exit 2; }
  stress-ng --cpu 2 --quiet &
  hog=$!
  trap 'kill "$hog" 2>/dev/null || true' EXIT
fi

# The README's commands: its first two ```sh blocks.
mapfile -t commands < <(awk '/^```sh$/ {inside=1; next} /^```$/ {if (inside) n++; inside=0; next} inside && n < 2 {print}' "$clone/README.md")
[ ${#commands[@]} -eq 2 ] || { echo "fresh-check.sh: README.md does not start with two one-line sh blocks" >&2; exit 1; }

run_step() {
  local label=$1 command=$2 started status=0
  started=$(date +%s)
  echo "fresh-check.sh: $label: $command (withheld: $without$([ "$load" = 1 ] && echo '; beside stress-ng --cpu 2'))"
  (cd "$clone" && env PATH="$shadow" SLUICE_TEST_WITHOUT="$without" bash -c "$command") || status=$?
  echo "fresh-check.sh: $label: exit $status after $(( $(date +%s) - started )) s"
  return "$status"
}
[ "$tests_only" = 1 ] || run_step "command 1" "${commands[0]}"
run_step "command 2" "${commands[1]}"
if [ "$keep" = 0 ]; then rm -rf "$scratch"; else echo "fresh-check.sh: kept $clone"; fi
