#!/bin/bash
# A real one-hour run of 64 jobs (null engine, rate-limited so it costs little CPU) with the resident set
# sampled every minute; the record is in bench/README.md ("One hour, 64 jobs").
# Usage: bench/hour_rss.sh [OUTDIR] [SECONDS]   (defaults: a new temporary directory, 3600)
set -euo pipefail
sluice="$(cd "$(dirname "$0")/.." && pwd)/build/sluice"
out="${1:-$(mktemp -d)}"
seconds="${2:-3600}"
cd "$out"
/usr/bin/time -v "$sluice" run --name=day --ioengine=null --rw=randread --bs=4k --size=1g --numjobs=64 \
  --rate_iops=500 --time_based --runtime="$seconds" --output-format=json --output=hour.json 2> time.txt &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
  child=$(pgrep -P "$pid" -f "sluice run" | head -1 || true)
  [ -n "$child" ] && echo "$(date +%s) $(grep VmRSS "/proc/$child/status" 2>/dev/null || true)" >> rss.log
  sleep 60
done
wait "$pid" && rc=0 || rc=$?
echo "rc=$rc" >> rss.log
echo "$out: $(grep 'Maximum resident' time.txt); per-minute VmRSS in rss.log"
