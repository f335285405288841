#!/usr/bin/env python3
"""fio's file operation engines (filecreate, filestat, filedelete), sluice against fio, alternating.

Each round runs fio and then sluice (the order alternates every round) on the same job in a fresh
directory: NRFILES files of 4 KiB, one operation each. It prints each tool's operations, latency samples
and mean operation latency, and the median of the per-round ratios sluice/fio of the mean latency (goal:
within 0.8-1.25x: both time the same system call) and checks the counts are equal.

usage: bench/file_engines.py [--sluice build/sluice] [--fio fio] [--dir DIR] [--rounds 5] [--nrfiles 2000]
                             [--engine filecreate|filestat|filedelete ...]
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


def one_run(tool, engine, nrfiles, workdir):
    directory = tempfile.mkdtemp(prefix=f"{engine}-", dir=workdir)
    options = [f"--directory={directory}", "--name=t", f"--ioengine={engine}", f"--nrfiles={nrfiles}",
               "--filesize=4k", "--bs=4k", "--output-format=json"]
    if engine == "filecreate":
        options += ["--openfiles=1", "--create_on_open=1", "--fallocate=none"]
    subprocess.run(["sync"], check=True)
    doc = run_json(tool + options)
    shutil.rmtree(directory)
    read = doc["jobs"][0]["read"]
    return {"ios": read["total_ios"], "samples": read["clat_ns"]["N"], "mean_ns": read["clat_ns"]["mean"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sluice", default=os.path.join(os.path.dirname(__file__), "..", "build", "sluice"))
    parser.add_argument("--fio", default="fio")
    parser.add_argument("--dir", default=None, help="where the test directories go (default: a temp dir under .)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--nrfiles", type=int, default=2000)
    parser.add_argument("--engine", action="append", choices=["filecreate", "filestat", "filedelete"])
    args = parser.parse_args()
    if not shutil.which(args.fio):
        sys.exit("fio is not installed (scripts/install-deps.sh installs it)")
    workdir = tempfile.mkdtemp(prefix="sluice-bench-", dir=args.dir or ".")
    tools = {"fio": [args.fio], "sluice": [args.sluice, "run"]}
    failed = False
    try:
        for engine in args.engine or ["filecreate", "filestat", "filedelete"]:
            ratios = []
            for r in range(args.rounds):
                order = ["fio", "sluice"] if r % 2 == 0 else ["sluice", "fio"]
                got = {name: one_run(tools[name], engine, args.nrfiles, workdir) for name in order}
                f, s = got["fio"], got["sluice"]
                print(f"  {engine}: fio ops={f['ios']} samples={f['samples']} mean={f['mean_ns'] / 1000:.1f}us"
                      f"  sluice ops={s['ios']} samples={s['samples']} mean={s['mean_ns'] / 1000:.1f}us")
                if (f["ios"], f["samples"]) != (s["ios"], s["samples"]):
                    print(f"  {engine}: the counts differ")
                    failed = True
                ratios.append(s["mean_ns"] / f["mean_ns"])
            median = statistics.median(ratios)
            ok = 0.8 <= median <= 1.25
            failed = failed or not ok
            print(f"{engine}: sluice/fio mean operation latency = {median:.3f} ({'ok' if ok else 'off goal'})")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
