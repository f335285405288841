#!/usr/bin/env python3
"""Checks `sluice iozone` against IOzone 3.414's rules (no real iozone: it is not in Debian).

Runs `sluice iozone -a -g 8m` and checks, from its JSON alone:
  * the matrix shape: file sizes 64 KB..8 MB doubling, records 4 KB..min(file, 16 MB) doubling;
  * the crossover (skip) rule: `-a -n 32m -g 32m -i 0` has records 64 KB..16 MB only (9 cells), and 13 with -z;
  * units: every pass's kB/s recomputed independently as floor(bytes / seconds) >> 10 (kB = 1024), and
    bytes = file size;
and prints one cell's figures.

usage: bench/iozone_check.py [--sluice build/sluice] [--dir DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def run(sluice, directory, args):
    path = os.path.join(directory, "iozone.tmp")
    cmd = [sluice, "iozone", *args, "-f", path, "--output-format=json"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)["sluice"]["iozone"]


def doubling(lo, hi):
    out = []
    while lo <= hi:
        out.append(lo)
        lo *= 2
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sluice", default=os.path.join(os.path.dirname(__file__), "..", "build", "sluice"))
    ap.add_argument("--dir", default=None)
    a = ap.parse_args()
    failures = []

    def check(cond, what):
        print(("ok   " if cond else "FAIL ") + what)
        if not cond:
            failures.append(what)

    with tempfile.TemporaryDirectory(dir=a.dir) as d:
        io = run(a.sluice, d, ["-a", "-g", "8m"])
        files = doubling(64, 8192)
        expected = [(f, r) for f in files for r in doubling(4, min(f, 16384))]
        got = [(c["file_kb"], c["reclen_kb"]) for c in io["cells"]]
        check(got == expected, f"-a -g 8m: {len(got)} cells in iozone's order (expected {len(expected)})")
        check(io["record_sizes_kb"] == doubling(4, 16384), "-R header: all 13 record sizes 4..16384")
        rates = 0
        for c in io["cells"]:
            for name, t in c["tests"].items():
                rates += 1
                if t["bytes"] != c["file_kb"] * 1024 or t["kB_per_s"] != int(t["bytes"] / t["seconds"]) >> 10:
                    failures.append(f"{c['file_kb']}/{c['reclen_kb']} {name}: {t}")
        check(rates == len(got) * 13, f"{rates} passes: kB/s == floor(bytes/seconds) >> 10 and bytes == file size")
        cell = next(c for c in io["cells"] if c["file_kb"] == 8192 and c["reclen_kb"] == 64)
        w = cell["tests"]["write"]
        print(f"     one cell, 8 MB x 64 KB write: {w['bytes']} B in {w['seconds']:.6f} s = "
              f"{w['bytes'] / w['seconds'] / 1024:.1f} kB/s -> reported {w['kB_per_s']}; "
              f"p99 {w['latency_ns']['percentile']['99.000000']} ns; page cache: {cell['page_cache']}")

        skip = run(a.sluice, d, ["-a", "-n", "32m", "-g", "32m", "-i", "0"])
        recs = [c["reclen_kb"] for c in skip["cells"]]
        check(recs == doubling(64, 16384), f"crossover: a 32 MB file gets records 64..16384 only ({len(recs)} cells)")
        noskip = run(a.sluice, d, ["-a", "-z", "-n", "32m", "-g", "32m", "-i", "0"])
        check(len(noskip["cells"]) == 13, f"-z: the 32 MB file gets all 13 records ({len(noskip['cells'])})")
        check(os.listdir(d) == [], "the test file was removed")
    if failures:
        print("\n".join(failures[:20]), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
