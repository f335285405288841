#!/usr/bin/env python3
"""sluice against fio, side by side in one run, alternating, printed as ratios.

Absolute numbers on a shared machine are noise; the ratio of two tools run back to back on the same file
is not. Each case runs fio and sluice alternately ROUNDS times and reports the median of the per-round
ratios.

usage: bench/vs_fio.py [--sluice build/sluice] [--fio fio] [--dir DIR] [--rounds 3] [--runtime 5]
                       [--case null|uring|psync|splice|zbd|zbd_null ...] [--cpu N] [--uring-rate IOPS]

--cpu N pins both tools to CPU N (taskset), so that neither gets the other core of a shared machine.
--uring-rate IOPS runs the uring case with rate_iops=IOPS in both tools: CPU per io compared at the same IOPS.
The null case also prints CPU per io (usr + sys over ios): on a machine shared with other work each tool gets a
varying share of the CPU, which moves IOPS (per wall-clock second) but not the CPU time each io took.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile


def run_json(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out[out.index("{"):])


def job_stats(doc, direction="read"):
    job = doc["jobs"][0]
    d = job[direction]
    runtime_s = d["runtime"] / 1000.0
    cpu_s = (job["usr_cpu"] + job["sys_cpu"]) / 100.0 * (job["job_runtime"] / 1000.0)
    return {
        "iops": d["iops"],
        "clat_mean_ns": d["clat_ns"]["mean"],
        "lat_mean_ns": d["lat_ns"]["mean"],
        "cpu_per_io_ns": cpu_s * 1e9 / max(d["total_ios"], 1),
        "runtime_s": runtime_s,
    }


def cases(args, path):
    common = ["--name=bench", "--time_based", f"--runtime={args.runtime}", "--output-format=json"]
    uring_rate = [f"--rate_iops={args.uring_rate}"] if args.uring_rate else []
    uring_rate_note = f" at rate_iops={args.uring_rate} in both" if args.uring_rate else ""
    return {
        "null": {
            "what": "null engine, depth 1, latency recording on: IOPS (goal: sluice >= 3.5x fio); CPU per I/O "
                    "(for information: fio/sluice is the IOPS ratio each would reach with a CPU of its own)",
            "options": ["--ioengine=null", "--rw=randread", "--bs=4k", "--size=1g", "--iodepth=1"] + common,
            "metric": "iops", "goal": lambda r: r >= 3.5,
            "second": "cpu_per_io_ns", "goal2": None,
        },
        "uring": {
            "what": "io_uring 4 KiB randread direct depth 32, 1 GiB file" + uring_rate_note
                    + ": IOPS (goal >= 0.97x), CPU per I/O (goal <= 0.5x)",
            "options": [f"--filename={path}", "--ioengine=io_uring", "--rw=randread", "--bs=4k", "--size=1g",
                        "--direct=1", "--iodepth=32"] + uring_rate + common,
            "metric": "iops", "second": "cpu_per_io_ns",
            "goal": lambda r: r >= 0.97, "goal2": lambda r: r <= 0.5,
        },
        "psync": {
            "what": "psync 4 KiB randread direct depth 1: mean clat (goal: sluice <= 1.05x fio)",
            "options": [f"--filename={path}", "--ioengine=psync", "--rw=randread", "--bs=4k", "--size=1g",
                        "--direct=1", "--iodepth=1"] + common,
            "metric": "clat_mean_ns", "goal": lambda r: r <= 1.05,
        },
        "splice": {
            "what": "splice 4 KiB randread direct depth 1 (splice into a pipe, vmsplice out): mean clat "
                    "(goal: sluice <= 1.05x fio)",
            "options": [f"--filename={path}", "--ioengine=splice", "--rw=randread", "--bs=4k", "--size=1g",
                        "--direct=1", "--iodepth=1"] + common,
            "metric": "clat_mean_ns", "goal": lambda r: r <= 1.05,
        },
        "zbd": {
            "what": "zonemode=zbd psync 4 KiB randwrite direct depth 1, 16 MiB zones, max_open_zones=8: mean clat "
                    "(goal: sluice <= 1.05x fio)",
            "options": [f"--filename={path}", "--ioengine=psync", "--rw=randwrite", "--bs=4k", "--size=1g",
                        "--direct=1", "--iodepth=1", "--zonemode=zbd", "--zonesize=16m", "--max_open_zones=8"]
                       + common,
            "direction": "write", "metric": "clat_mean_ns", "goal": lambda r: r <= 1.05,
        },
        "zbd_null": {
            "what": "zonemode=zbd on the null engine (the zone bookkeeping alone), 4 KiB randwrite, 1 MiB zones, "
                    "max_open_zones=8: IOPS (goal: sluice >= 1x fio)",
            "options": ["--ioengine=null", "--rw=randwrite", "--bs=4k", "--size=1g", "--iodepth=1",
                        "--zonemode=zbd", "--zonesize=1m", "--max_open_zones=8"] + common,
            "direction": "write", "metric": "iops", "goal": lambda r: r >= 1.0,
        },
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sluice", default=os.path.join(os.path.dirname(__file__), "..", "build", "sluice"))
    parser.add_argument("--fio", default="fio")
    parser.add_argument("--dir", default=None, help="directory for the 1 GiB test file (default: a temp dir under .)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runtime", type=int, default=5)
    parser.add_argument("--case", action="append", choices=["null", "uring", "psync", "splice", "zbd", "zbd_null"])
    parser.add_argument("--cpu", type=int, default=None, help="pin both tools to this CPU (taskset -c)")
    parser.add_argument("--uring-rate", type=int, default=0, help="rate_iops for both tools in the uring case")
    args = parser.parse_args()
    if not shutil.which(args.fio):
        sys.exit("fio is not installed (scripts/install-deps.sh installs it)")
    workdir = tempfile.mkdtemp(prefix="sluice-bench-", dir=args.dir or ".")
    path = os.path.join(workdir, "bench.file")
    try:
        subprocess.run([args.fio, "--name=layout", f"--filename={path}", "--rw=write", "--bs=1m", "--size=1g",
                        "--direct=1", "--output=/dev/null"], check=True)
        fio_version = subprocess.run([args.fio, "--version"], capture_output=True, text=True).stdout.strip()
        sluice_version = subprocess.run([args.sluice, "--version"], capture_output=True, text=True).stdout.strip()
        print(f"# {sluice_version} vs {fio_version}, {args.rounds} alternating rounds of {args.runtime} s")
        all_ok = True
        for name in args.case or ["null", "uring", "psync"]:
            case = cases(args, path)[name]
            ratios, ratios2 = [], []
            pin = ["taskset", "-c", str(args.cpu)] if args.cpu is not None else []
            for _ in range(args.rounds):
                direction = case.get("direction", "read")
                fio = job_stats(run_json(pin + [args.fio] + case["options"]), direction)
                slu = job_stats(run_json(pin + [args.sluice, "run", "--no-status"] + case["options"]), direction)
                ratios.append(slu[case["metric"]] / fio[case["metric"]])
                if "second" in case:
                    ratios2.append(slu[case["second"]] / fio[case["second"]])
                print(f"  {name}: fio {case['metric']}={fio[case['metric']]:.1f} sluice={slu[case['metric']]:.1f}"
                      + (f"; fio {case['second']}={fio[case['second']]:.1f} sluice={slu[case['second']]:.1f}"
                         if "second" in case else ""))
            ratio = statistics.median(ratios)
            ok = case["goal"](ratio)
            line = f"{name}: {case['what']}\n  sluice/fio {case['metric']} ratio = {ratio:.3f} ({'ok' if ok else 'MISSED'})"
            if ratios2:
                r2 = statistics.median(ratios2)
                if case["goal2"] is None:
                    line += f"; {case['second']} ratio = {r2:.3f} (fio/sluice {1 / r2:.3f})"
                else:
                    ok2 = case["goal2"](r2)
                    ok = ok and ok2
                    line += f"; {case['second']} ratio = {r2:.3f} ({'ok' if ok2 else 'MISSED'})"
            print(line)
            all_ok = all_ok and ok
        return 0 if all_ok else 1
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
