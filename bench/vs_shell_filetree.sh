#!/usr/bin/env bash
# sluice filetree against the lab notebook's shell procedure, alternating (shell, sluice, shell, sluice, ...)
# on the same directory, with the same tree (--dirs x --files-per-dir files sharing --size), and prints each
# step's seconds and the ratio sluice time / shell time (below 1: sluice is faster), per round and the median.
#
# The shell procedure, step by step, each timed until a final `sync`, with the page cache dropped before each
# step after create when run as root (as sluice does by default):
#   create    mkdir the dirs; head -c SIZE < pool > file for every file (pool: random data made beforehand)
#   read      cat tree/*/* > /dev/null
#   copy      cp -a tree copy
#   tar       tar cf tree.tar tree
#   read-tar  cat tree.tar > /dev/null
#   delete    rm -rf tree copy tree.tar
#
# usage: bench/vs_shell_filetree.sh [DIR] [--size=256m] [--dirs=16] [--files-per-dir=64] [--rounds=3]
set -euo pipefail
dir=.
size=256m
dirs=16
files_per_dir=64
rounds=3
for arg in "$@"; do
  case "$arg" in
    --size=*) size="${arg#*=}" ;;
    --dirs=*) dirs="${arg#*=}" ;;
    --files-per-dir=*) files_per_dir="${arg#*=}" ;;
    --rounds=*) rounds="${arg#*=}" ;;
    -*) echo "unknown option $arg" >&2; exit 1 ;;
    *) dir="$arg" ;;
  esac
done
sluice="$(dirname "$0")/../build/sluice"
[ -x "$sluice" ] || { echo "build sluice first (scripts/build.sh)" >&2; exit 1; }
bytes=$(numfmt --from=iec "${size^^}")
count=$((dirs * files_per_dir))
each=$((bytes / count))
work=$(mktemp -d "$dir/shell-filetree.XXXXXX")
trap 'rm -rf "$work"' EXIT
head -c "$each" /dev/urandom > "$work/pool"
steps=(create read copy tar read-tar delete)

drop() { sync; if [ "$(id -u)" -eq 0 ]; then echo 3 > /proc/sys/vm/drop_caches; fi; }
now() { date +%s.%N; }

shell_step() {
  local t=$work/t
  case "$1" in
    create)
      mkdir "$t/tree"
      for ((d = 0; d < dirs; d++)); do mkdir "$t/tree/$(printf d%04d $d)"; done
      for ((i = 0; i < count; i++)); do
        head -c "$each" < "$work/pool" > "$t/tree/$(printf d%04d $((i / files_per_dir)))/$(printf f%06d $i)"
      done ;;
    read) cat "$t"/tree/*/* > /dev/null ;;
    copy) cp -a "$t/tree" "$t/copy" ;;
    tar) (cd "$t" && tar cf tree.tar tree) ;;
    read-tar) cat "$t/tree.tar" > /dev/null ;;
    delete) rm -rf "$t/tree" "$t/copy" "$t/tree.tar" ;;
  esac
  sync
}

# Prints "create=SECONDS read=SECONDS ..." for one shell run.
shell_run() {
  mkdir "$work/t"
  local out=""
  for s in "${steps[@]}"; do
    [ "$s" != create ] && drop
    local start; start=$(now)
    shell_step "$s"
    out+="$s=$(echo "$(now) - $start" | bc) "
  done
  rmdir "$work/t"
  echo "$out"
}

sluice_run() {
  "$sluice" filetree "$work" --size="$size" --dirs="$dirs" --files-per-dir="$files_per_dir" --output-format=json |
    python3 -c 'import json,sys; print(" ".join(s["name"] + "=" + str(s["seconds"]) for s in json.load(sys.stdin)["sluice"]["filetree"]["steps"]))'
}

echo "tree: $count files of $each bytes in $dirs dirs ($size), $rounds rounds, in $dir ($(df -T "$dir" | awk 'NR==2{print $2}'))"
results=()
for ((r = 1; r <= rounds; r++)); do
  sh=$(shell_run)
  sl=$(sluice_run)
  echo "round $r shell:  $sh"
  echo "round $r sluice: $sl"
  results+=("$sh|$sl")
done
printf '%s\n' "${results[@]}" | python3 -c '
import sys, statistics
steps = ["create", "read", "copy", "tar", "read-tar", "delete"]
ratios = {s: [] for s in steps}
for line in sys.stdin:
    shell, sluice = (dict(kv.split("=") for kv in part.split()) for part in line.strip().split("|"))
    for s in steps:
        ratios[s].append(float(sluice[s]) / float(shell[s]))
print("step       sluice/shell time (median; per round)")
for s in steps:
    print(f"{s:<10} {statistics.median(ratios[s]):6.2f}   " + " ".join(f"{x:.2f}" for x in ratios[s]))
'
