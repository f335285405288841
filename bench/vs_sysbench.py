#!/usr/bin/env python3
"""sluice sysbench fileio vs the real sysbench 1.0.20, alternating on the same files.

Prepares one file set with sysbench (both tools then run in the same directory, sysbench first, then sluice,
round after round), parses the same report fields from both (their layouts are identical) and prints each
round's numbers, the per-round ratio sluice/sysbench and the median ratio.

  bench/vs_sysbench.py                          # every case, 3 rounds of 5 s, 256 MiB in 16 files
  bench/vs_sysbench.py --case rndwr-fsync-1 --rounds 5 --time 10 --dir /mnt/test
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SLUICE = os.path.join(HERE, "..", "build", "sluice")

# name: (extra options, the report field compared, description)
CASES = {
    "rndwr-fsync-1": (["--file-test-mode=rndwr", "--file-fsync-all=on", "--threads=1"], "writes/s",
                      "random 16 KiB writes, fsync after every write, 1 thread"),
    "rndwr-fsync-10": (["--file-test-mode=rndwr", "--file-fsync-all=on", "--threads=10"], "writes/s",
                       "random 16 KiB writes, fsync after every write, 10 threads"),
    "rndrd-direct": (["--file-test-mode=rndrd", "--file-extra-flags=direct"], "reads/s",
                     "random 16 KiB reads, O_DIRECT, 1 thread"),
    "seqwr": (["--file-test-mode=seqwr"], "written, MiB/s", "sequential write (re-created files), 1 thread"),
}


def field(text, name):
    m = re.search(r"^\s*" + re.escape(name) + r":\s+([0-9.]+)", text, re.M)
    if not m:
        raise RuntimeError(f"no '{name}' in output:\n{text[-2000:]}")
    return float(m.group(1))


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout[-1500:]}\n{p.stderr[-1500:]}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--case", action="append", choices=sorted(CASES), help="run only these cases")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--time", type=int, default=5, help="seconds per run")
    ap.add_argument("--size", default="256M", help="--file-total-size")
    ap.add_argument("--files", type=int, default=16, help="--file-num")
    ap.add_argument("--dir", default=HERE, help="a directory on the filesystem to test (a temporary one is made in it)")
    args = ap.parse_args()
    if not shutil.which("sysbench"):
        sys.exit("sysbench is not installed (scripts/install-deps.sh --with-peers)")
    if not os.access(SLUICE, os.X_OK):
        sys.exit(f"{SLUICE} is missing: build sluice first (scripts/build.sh)")
    work = tempfile.mkdtemp(prefix="vs-sysbench-", dir=args.dir)
    common = [f"--file-total-size={args.size}", f"--file-num={args.files}", f"--time={args.time}"]
    try:
        for name in args.case or list(CASES):
            extra, metric, what = CASES[name]
            ratios = []
            for r in range(args.rounds):
                values = {}
                for tool, cmd in (("sysbench", ["sysbench"]), ("sluice", [SLUICE, "sysbench"])):
                    run(["sysbench", "fileio"] + common + ["prepare"], work)  # seqwr re-creates the files
                    out = run(cmd + ["fileio"] + common + extra + ["run"], work)
                    values[tool] = field(out, metric)
                ratio = values["sluice"] / values["sysbench"] if values["sysbench"] else float("nan")
                ratios.append(ratio)
                print(f"  {name} round {r + 1}: sysbench {metric}={values['sysbench']:.2f} "
                      f"sluice={values['sluice']:.2f} ratio={ratio:.3f}", flush=True)
            print(f"{name}: {what}: {metric}, median sluice/sysbench = {statistics.median(ratios):.3f}", flush=True)
    finally:
        subprocess.run(["sysbench", "fileio", f"--file-num={args.files}", "cleanup"], cwd=work,
                       stdout=subprocess.DEVNULL)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
