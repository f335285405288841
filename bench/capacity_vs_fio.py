#!/usr/bin/env python3
"""sluice capacity against a fio depth sweep, printed as ratios.

The question: the highest 4 KiB random-read IOPS this disk serves with a mean latency of at most LIMIT.
fio answers it with a sweep (iodepth 1, 2, 4, ... 128, RUNTIME s each, io_uring, direct); sluice with one
`sluice capacity --slo=LIMIT`. Printed: sluice's capacity / the best fio IOPS within the limit (goal >= 0.95)
and sluice's wall time / the sweep's wall time (goal <= 0.33).

usage: bench/capacity_vs_fio.py [--sluice build/sluice] [--fio fio] [--dir DIR] [--size 4g] [--slo 500us]
                                [--runtime 10] [--max-depth 128] [--budget 25s]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


def run_json(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out[out.index("{"):])


def duration_ns(text):
    m = re.fullmatch(r"([0-9.]+)\s*(ns|us|ms|s)?", text)
    if not m:
        sys.exit(f"--slo={text}: not a duration such as 500us or 2ms")
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9, None: 1e3}[m.group(2)]
    return float(m.group(1)) * scale


def fio_sweep(args, path, limit_ns):
    """Runs fio at each depth; returns (best IOPS within the limit, its depth, wall seconds)."""
    best, best_depth, depth = 0.0, None, 1
    start = time.monotonic()
    while depth <= args.max_depth:
        doc = run_json([args.fio, "--name=sweep", f"--filename={path}", f"--size={args.size}", "--rw=randread",
                        "--bs=4k", "--ioengine=io_uring", "--direct=1", f"--iodepth={depth}", "--time_based",
                        f"--runtime={args.runtime}", "--output-format=json"])
        read = doc["jobs"][0]["read"]
        iops, lat = read["iops"], read["lat_ns"]["mean"]
        within = lat <= limit_ns
        print(f"  fio iodepth={depth:<4} iops={iops:10.1f} lat_mean={lat / 1e3:9.1f} us {'ok' if within else 'over'}")
        if within and iops > best:
            best, best_depth = iops, depth
        depth *= 2
    return best, best_depth, time.monotonic() - start


def sluice_capacity(args, path):
    start = time.monotonic()
    doc = run_json([args.sluice, "capacity", f"--filename={path}", f"--size={args.size}", f"--slo={args.slo}",
                    f"--budget={args.budget}", f"--max-concurrency={args.max_depth}", "--no-status", "--output-format=json"])
    elapsed = time.monotonic() - start
    cap = doc["sluice"]["capacity"]
    for p in cap["curve"]:
        print(f"  sluice concurrency={p['concurrency']:<4} iops={p['iops']:10.1f} "
              f"lat_mean={p['lat_mean_ns'] / 1e3:9.1f} us steady={p['steady']}")
    return cap, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sluice", default=os.path.join(os.path.dirname(__file__), "..", "build", "sluice"))
    parser.add_argument("--fio", default="fio")
    parser.add_argument("--dir", default=None, help="directory for the test file (default: a temp dir under .)")
    parser.add_argument("--size", default="4g", help="test file size (default 4g)")
    parser.add_argument("--slo", default="500us", help="mean latency limit (default 500us)")
    parser.add_argument("--runtime", type=int, default=10, help="seconds per fio depth (default 10)")
    parser.add_argument("--max-depth", type=int, default=128)
    parser.add_argument("--budget", default="25s", help="sluice's time budget (default 25s: under a third of the 8 x 10 s sweep)")
    args = parser.parse_args()
    if not shutil.which(args.fio):
        sys.exit("fio is not installed (scripts/install-deps.sh installs it)")
    limit_ns = duration_ns(args.slo)
    workdir = tempfile.mkdtemp(prefix="sluice-bench-", dir=args.dir or ".")
    path = os.path.join(workdir, "capacity.file")
    try:
        subprocess.run([args.fio, "--name=layout", f"--filename={path}", "--rw=write", "--bs=1m",
                        f"--size={args.size}", "--direct=1", "--output=/dev/null"], check=True)
        fio_version = subprocess.run([args.fio, "--version"], capture_output=True, text=True).stdout.strip()
        sluice_version = subprocess.run([args.sluice, "--version"], capture_output=True, text=True).stdout.strip()
        print(f"# {sluice_version} vs {fio_version}: 4 KiB randread, io_uring, direct, {args.size} file, "
              f"mean lat <= {args.slo}; fio sweep 1..{args.max_depth} x {args.runtime} s")
        cap, sluice_s = sluice_capacity(args, path)
        best, best_depth, sweep_s = fio_sweep(args, path, limit_ns)
        if not best:
            print("fio: no depth stayed within the limit; nothing to compare")
            return 1
        sluice_iops = cap["iops"] or 0.0
        iops_ratio = sluice_iops / best
        time_ratio = sluice_s / sweep_s
        ok_iops, ok_time = iops_ratio >= 0.95, time_ratio <= 0.33
        print(f"fio: best {best:.1f} IOPS within the limit at iodepth {best_depth}, sweep {sweep_s:.1f} s")
        print(f"sluice: {sluice_iops:.1f} IOPS at concurrency {cap['concurrency']}, {sluice_s:.1f} s")
        print(f"capacity: sluice/fio IOPS ratio = {iops_ratio:.3f} ({'ok' if ok_iops else 'MISSED'}; goal >= 0.95)")
        print(f"capacity: sluice/fio time ratio = {time_ratio:.3f} ({'ok' if ok_time else 'MISSED'}; goal <= 0.33)")
        return 0 if ok_iops and ok_time else 1
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
