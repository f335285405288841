#!/bin/sh
# A script written for fio, as users have them: it calls `fio` from PATH, treats anything on stderr as a
# failure, reads the JSON report with python3 and the terse (--minimal) line with cut and awk.
# tests/cli/it_fio_dropin_test.cpp runs it with build/ (holding the fio link to sluice) first in PATH.
# Usage: fio_script.sh WORKDIR
set -eu
work=$1
cd "$work"

cat > job.fio <<'JOB'
[global]
ioengine=null
size=8m
bs=4k

[seqread]
rw=read

[randwrite]
rw=randwrite
JOB

fio --output-format=json job.fio > report.json 2> err.txt
if [ -s err.txt ]; then echo "fio wrote on stderr:"; cat err.txt; exit 1; fi
python3 - <<'PY'
import json, sys
doc = json.load(open("report.json"))
assert doc["fio version"], "no fio version"
jobs = {j["jobname"]: j for j in doc["jobs"]}
assert set(jobs) == {"seqread", "randwrite"}, jobs.keys()
assert jobs["seqread"]["read"]["io_kbytes"] == 8192, jobs["seqread"]["read"]["io_kbytes"]
assert jobs["randwrite"]["write"]["total_ios"] == 2048, jobs["randwrite"]["write"]["total_ios"]
assert jobs["seqread"]["read"]["iops"] > 0
print("json ok")
PY

fio --minimal job.fio > terse.txt 2> err.txt
if [ -s err.txt ]; then echo "fio wrote on stderr:"; cat err.txt; exit 1; fi
lines=$(wc -l < terse.txt)
[ "$lines" -eq 2 ] || { echo "expected 2 terse lines, got $lines"; exit 1; }
# terse v3: field 1 version, 3 job name, 6 read KiB, 47 write KiB, 121 fields in all.
[ "$(head -1 terse.txt | cut -d';' -f1)" = 3 ] || { echo "not terse version 3"; exit 1; }
[ "$(head -1 terse.txt | cut -d';' -f3)" = seqread ] || { echo "first job is not seqread"; exit 1; }
[ "$(head -1 terse.txt | cut -d';' -f6)" = 8192 ] || { echo "seqread read_kb is not 8192"; exit 1; }
[ "$(sed -n 2p terse.txt | cut -d';' -f47)" = 8192 ] || { echo "randwrite write_kb is not 8192"; exit 1; }
awk -F';' 'NF != 121 { print "line " NR " has " NF " fields"; bad = 1 } END { exit bad }' terse.txt
awk -F';' '{ if ($8 + $48 <= 0) { print "no iops on line " NR; exit 1 } }' terse.txt
echo "terse ok"
