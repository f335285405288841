#!/bin/bash
# The nbdkit cross-check of `sluice lab` (issue 34; docs/lab.md, "Cross-check with nbdkit"): the same model
# served two independent ways, each as a loop device with direct I/O over a FUSE file,
#   sluice:  sluice lab up MODEL DIR --fs=none, MODEL = SERVERS servers of read_time = DELAY ms
#   nbdkit:  nbdkit --threads=SERVERS --filter=delay memory delay-read=DELAYms on a Unix socket,
#            nbdfuse -C 1 (one NBD connection: nbdkit serves up to --threads requests of it at once),
#            losetup --direct-io=on over nbdfuse's file
# then fio 4 KiB randread, --direct=1 --ioengine=libaio, at depth 1 and at DEPTH (above the servers: it keeps
# them busy), alternating sluice, nbdkit, sluice, ... ROUNDS times. Prints each run's IOPS and mean latency,
# against `sluice lab truth` and the ratio sluice/nbdkit of the same round, then each side's own record of
# the service (sluice lab stats; nbdkit's stats filter). Everything is taken down on exit.
# Needs root, /dev/fuse, loop devices, fio, nbdkit (with its delay and stats filters) and nbdfuse.
# Usage: bench/lab-nbdkit.sh [SLUICE]   env: SERVERS=4 DELAY_MS=2 DEPTH=32 ROUNDS=3 RUNTIME=5
set -euo pipefail
sluice="${1:-$(cd "$(dirname "$0")/.." && pwd)/build/sluice}"
servers="${SERVERS:-4}" delay_ms="${DELAY_MS:-2}" depth="${DEPTH:-32}" rounds="${ROUNDS:-3}"
runtime="${RUNTIME:-5}" size=64m
for tool in fio nbdkit nbdfuse losetup fusermount3 python3; do
  command -v "$tool" >/dev/null || { echo "lab-nbdkit.sh: $tool not found" >&2; exit 2; }
done
[ -x "$sluice" ] || { echo "lab-nbdkit.sh: $sluice is not executable" >&2; exit 2; }

work="$(mktemp -d /tmp/lab-nbdkit.XXXXXX)"
mkdir "$work/lab" "$work/nbd"
lab_up="" nbdkit_pid="" nbd_mounted="" nbd_loop=""
teardown() {
  set +e
  [ -n "$nbd_loop" ] && losetup -d "$nbd_loop"
  [ -n "$nbd_mounted" ] && fusermount3 -u "$work/nbd"
  if [ -n "$nbdkit_pid" ]; then
    kill "$nbdkit_pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$nbdkit_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$nbdkit_pid" 2>/dev/null
  fi
  [ -n "$lab_up" ] && "$sluice" lab down "$work/lab" >/dev/null
  rm -rf "$work"
}
trap teardown EXIT
trap 'exit 130' INT TERM

model="$work/nbdkit-${servers}x${delay_ms}ms.model"
cat > "$model" <<EOF
description = the nbdkit cross-check: $servers servers of $delay_ms ms (nbdkit --threads=$servers --filter=delay delay-read=${delay_ms}ms)
servers = $servers
read_time = ${delay_ms}ms
write_time = ${delay_ms}ms
EOF

# sluice's side
"$sluice" lab up "$model" "$work/lab" --fs=none --size="$size" --output-format=json > "$work/up.json"
lab_up=1
lab_dev="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sluice"]["lab"]["device"])' "$work/up.json")"

# nbdkit's side
nbdkit --foreground --unix "$work/nbdkit.sock" --threads="$servers" \
  --filter=stats --filter=delay memory "$size" delay-read="${delay_ms}ms" delay-write="${delay_ms}ms" \
  statsfile="$work/nbdkit-stats.txt" statsappend=false < /dev/null > "$work/nbdkit.log" 2>&1 &
nbdkit_pid=$!
for _ in $(seq 100); do [ -S "$work/nbdkit.sock" ] && break; sleep 0.1; done
[ -S "$work/nbdkit.sock" ] || { echo "lab-nbdkit.sh: nbdkit did not start: $(cat "$work/nbdkit.log")" >&2; exit 1; }
nbdfuse -C 1 -P "$work/nbdfuse.pid" "$work/nbd/disk" --unix "$work/nbdkit.sock" \
  < /dev/null > "$work/nbdfuse.log" 2>&1 &
for _ in $(seq 100); do [ -s "$work/nbdfuse.pid" ] && break; sleep 0.1; done
[ -s "$work/nbdfuse.pid" ] || { echo "lab-nbdkit.sh: nbdfuse did not mount: $(cat "$work/nbdfuse.log")" >&2; exit 1; }
nbd_mounted=1
nbd_loop="$(losetup -f --show --direct-io=on "$work/nbd/disk")"

"$sluice" lab truth "$model" --output-format=json > "$work/truth.json"
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "model: $servers servers of $delay_ms ms; sluice $lab_dev, nbdkit $nbd_loop (nbdkit $(nbdkit --version | cut -d' ' -f2), nbdfuse -C 1)"

run_fio() {  # DEVICE DEPTH OUT
  fio --name=x --filename="$1" --rw=randread --bs=4k --direct=1 --ioengine=libaio --iodepth="$2" \
    --runtime="$runtime" --time_based --norandommap --output-format=json > "$3"
}
for round in $(seq "$rounds"); do
  for d in 1 "$depth"; do
    run_fio "$lab_dev" "$d" "$work/s.$round.$d.json"
    run_fio "$nbd_loop" "$d" "$work/n.$round.$d.json"
  done
done

python3 - "$work" "$rounds" "$depth" <<'EOF'
import json, sys
work, rounds, depth = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
truth = {r["iodepth"]: r for r in json.load(open(f"{work}/truth.json"))["sluice"]["lab"]["truth"]["expect"]
         if r["rw"] == "randread" and r["bs"] == 4096 and r["what"] == "depth"}
def read(path):
    j = json.load(open(path))["jobs"][0]["read"]
    return j["iops"], j["lat_ns"]["mean"] / 1e6
print(f"{'round':>5} {'depth':>5} | {'sluice IOPS':>11} {'mean ms':>8} {'/truth':>7} | {'nbdkit IOPS':>11} "
      f"{'mean ms':>8} {'/truth':>7} | {'sluice/nbdkit IOPS':>18} {'lat':>6}")
for d in (1, depth):
    t = truth.get(d)
    if t:
        print(f"truth {d:>5} | {t['iops']:>11.1f} {t['mean_lat_ns'] / 1e6:>8.3f}")
    for r in range(1, rounds + 1):
        si, sl = read(f"{work}/s.{r}.{d}.json")
        ni, nl = read(f"{work}/n.{r}.{d}.json")
        st = f"{si / t['iops']:>7.3f}" if t else f"{'-':>7}"
        nt = f"{ni / t['iops']:>7.3f}" if t else f"{'-':>7}"
        print(f"{r:>5} {d:>5} | {si:>11.1f} {sl:>8.3f} {st} | {ni:>11.1f} {nl:>8.3f} {nt} | {si / ni:>18.3f} {sl / nl:>6.3f}")
print("(/truth: measured IOPS over the truth's)")
EOF
echo "sluice's record (sluice lab stats):"
"$sluice" lab stats "$work/lab" | sed 's/^/  /'
echo "nbdkit's record (stats filter, over the delay filter: time per read includes the delay's own sleep):"
losetup -d "$nbd_loop"; nbd_loop=""
fusermount3 -u "$work/nbd"; nbd_mounted=""
kill -INT "$nbdkit_pid" 2>/dev/null || true  # the stats filter writes its file when nbdkit exits
for _ in $(seq 50); do kill -0 "$nbdkit_pid" 2>/dev/null || break; sleep 0.1; done
nbdkit_pid=""
grep -E '^(total|read):' "$work/nbdkit-stats.txt" | sed 's/^/  /' || true
python3 - "$work/nbdkit-stats.txt" <<'EOF' || true
import re, sys
m = re.search(r"^read: (\d+) ops, ([\d.]+) s", open(sys.argv[1]).read(), re.M)
if m: print(f"  mean time of a read inside nbdkit: {float(m.group(2)) / int(m.group(1)) * 1e3:.3f} ms")
EOF
