#!/usr/bin/env python3
"""Open loop against closed loop, and against fio's rate_process=poisson, printed as ratios.

1. Closed loop: 4 KiB random reads (direct) at depth DEPTH on a temp file find the capacity C (IOPS) and
   the closed-loop p50 latency.
2. sluice open loop (open_loop=1) at 3 x C, same depth, poisson arrivals: lat runs from the scheduled
   arrival, so the growing queue shows. Goal: p50 latency >= 10x the closed-loop p50.
3. fio with the same rate_iops and rate_process=poisson: fio's lat starts at submission (service time), so
   its p50 stays near the closed-loop value and hides the overload.

usage: bench/open_loop.py [--sluice build/sluice] [--fio fio] [--dir DIR] [--size 1g] [--runtime 10]
                          [--engine io_uring] [--depth 4] [--factor 3]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile


def run_json(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out[out.index("{"):])


def read_stats(doc):
    d = doc["jobs"][0]["read"]
    return {"iops": d["iops"], "lat_p50_ns": d["lat_ns"]["percentile"]["50.000000"],
            "qwait_p50_ns": d.get("queue_wait_ns", {}).get("percentile", {}).get("50.000000")}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sluice", default=os.path.join(os.path.dirname(__file__), "..", "build", "sluice"))
    parser.add_argument("--fio", default="fio")
    parser.add_argument("--dir", default=None, help="directory for the test file (default: a temp dir under .)")
    parser.add_argument("--size", default="1g")
    parser.add_argument("--runtime", default="10", help="per run, as fio writes it (10, 2s, 500ms)")
    parser.add_argument("--engine", default="io_uring")
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--factor", type=float, default=3.0, help="open-loop rate as a multiple of capacity")
    args = parser.parse_args()
    have_fio = shutil.which(args.fio) is not None
    workdir = tempfile.mkdtemp(prefix="sluice-bench-", dir=args.dir or ".")
    path = os.path.join(workdir, "bench.file")
    common = ["--name=bench", f"--filename={path}", f"--ioengine={args.engine}", "--rw=randread", "--bs=4k",
              f"--size={args.size}", "--direct=1", f"--iodepth={args.depth}", "--time_based",
              f"--runtime={args.runtime}", "--lat_percentiles=1", "--output-format=json"]
    try:
        # A first short run lays the file out and warms the device; the second measures capacity.
        run_json([args.sluice, "run"] + [o for o in common if not o.startswith("--runtime=")] + ["--runtime=1"])
        closed = read_stats(run_json([args.sluice, "run"] + common))
        rate = max(1, int(closed["iops"] * args.factor))
        print(f"closed loop ({args.engine}, depth {args.depth}): capacity {closed['iops']:.0f} IOPS, "
              f"p50 lat {closed['lat_p50_ns'] / 1000:.1f} us")
        rated = common + [f"--rate_iops={rate}", "--rate_process=poisson"]
        opened = read_stats(run_json([args.sluice, "run"] + rated + ["--open_loop=1"]))
        ratio = opened["lat_p50_ns"] / max(closed["lat_p50_ns"], 1)
        print(f"sluice open loop at {args.factor:g}x ({rate} IOPS, poisson): achieved {opened['iops']:.0f} IOPS, "
              f"p50 lat {opened['lat_p50_ns'] / 1000:.1f} us, p50 queue wait {opened['qwait_p50_ns'] / 1000:.1f} us")
        print(f"  open/closed p50 lat ratio = {ratio:.1f} ({'ok' if ratio >= 10 else 'below goal'}; goal >= 10)")
        if have_fio:
            fio = read_stats(run_json([args.fio] + rated))
            fio_ratio = fio["lat_p50_ns"] / max(closed["lat_p50_ns"], 1)
            print(f"fio rate_iops={rate} rate_process=poisson: achieved {fio['iops']:.0f} IOPS, "
                  f"p50 lat {fio['lat_p50_ns'] / 1000:.1f} us")
            print(f"  fio/closed p50 lat ratio = {fio_ratio:.1f} (fio measures from submission: service time)")
        else:
            print("fio is not installed: comparison skipped")
    except subprocess.CalledProcessError as e:
        sys.exit(f"{' '.join(e.cmd[:2])} failed ({e.returncode}):\n{e.stderr}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
