#!/usr/bin/env python3
"""sluice bonnie against the real bonnie++ (Debian's 2.00a), alternating, printed as per-phase ratios.

Both run the same sizes on the same file system (their scratch files go in --dir), taking turns going
first. Each prints bonnie++'s CSV line; the script takes every phase's rate, %CP and latency from it and prints
the median of each tool and the ratio sluice / bonnie++. A phase either tool timed under 0.5 s is "+++++"
(bonnie++'s too-fast-to-time rule) and has no rate to compare: raise -s / -n until the phases you care about
are timed. Wall time of each process is compared too.

usage: bench/vs_bonnie.py [--sluice build/sluice] [--bonnie bonnie++] [--dir DIR] [--rounds 3]
                          [--size 512] [--ram 256] [--files 4]
"""
import argparse
import os
import statistics
import subprocess
import time

PHASES = ["putc", "put_block", "rewrite", "getc", "get_block", "seeks",
          "seq_create", "seq_stat", "seq_del", "ran_create", "ran_stat", "ran_del"]
# 1.98 CSV rows (bonnie++ 2.00a writes two more fields than its header names): rate and %CP of the IO phases
# from field 9, of the file phases from field 26 (after num_files..file_chunk_size at 21-25); latencies from 38.
RATE_FIELD = {p: (9 + 2 * i if i < 6 else 26 + 2 * (i - 6)) for i, p in enumerate(PHASES)}
LATENCY_FIELD = {p: 38 + i for i, p in enumerate(PHASES)}


def latency_us(text):
    for suffix, scale in (("us", 1), ("ms", 1e3), ("s", 1e6)):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * scale
    return None


def run_once(cmd):
    start = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, stdin=subprocess.DEVNULL).stdout
    wall = time.perf_counter() - start
    line = next(l for l in out.splitlines() if l.startswith("1.98,"))
    return wall, line.split(",")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--sluice", default=os.path.join(here, "..", "build", "sluice"))
    p.add_argument("--bonnie", default="bonnie++")
    p.add_argument("--dir", default=".", help="file system to run on (default: the current directory)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--size", default="512", help="-s, MiB")
    p.add_argument("--ram", default="256", help="-r, MiB")
    p.add_argument("--files", default="4", help="-n, 1024s of files")
    a = p.parse_args()
    common = ["-d", a.dir, "-s", a.size, "-r", a.ram, "-n", a.files, "-q", "-m", "bench"]
    tools = {"bonnie++": [a.bonnie] + common + (["-u", "root"] if os.geteuid() == 0 else []),
             "sluice": [a.sluice, "bonnie"] + common}
    rows = {t: [] for t in tools}
    walls = {t: [] for t in tools}
    for r in range(a.rounds):
        order = list(tools) if r % 2 == 0 else list(reversed(list(tools)))
        for t in order:
            wall, fields = run_once(tools[t])
            rows[t].append(fields)
            walls[t].append(wall)
            print(f"round {r + 1} {t:8s} {wall:6.1f} s", flush=True)

    def median_of(tool, field, convert):
        values = [convert(f[field]) for f in rows[tool]]
        values = [v for v in values if v is not None]
        return (statistics.median(values), len(values)) if values else (None, 0)

    def number(text):
        try:
            return float(text)
        except ValueError:
            return None

    print(f"\n-s {a.size} -r {a.ram} -n {a.files} on {os.path.abspath(a.dir)}, {a.rounds} rounds, medians")
    print(f"{'phase':11s} {'bonnie++':>12s} {'sluice':>12s} {'ratio':>6s}   {'%CP b/s':>9s}   "
          f"{'lat b++':>10s} {'lat sluice':>10s}")
    for phase in PHASES:
        b, nb = median_of("bonnie++", RATE_FIELD[phase], number)
        s, ns = median_of("sluice", RATE_FIELD[phase], number)
        cb, _ = median_of("bonnie++", RATE_FIELD[phase] + 1, number)
        cs, _ = median_of("sluice", RATE_FIELD[phase] + 1, number)
        lb, _ = median_of("bonnie++", LATENCY_FIELD[phase], latency_us)
        ls, _ = median_of("sluice", LATENCY_FIELD[phase], latency_us)
        ratio = f"{s / b:6.2f}" if b and s else "   n/a"
        show = lambda v, n: f"{v:12.1f}" if v is not None else f"{'+++++':>12s}"
        cpu = f"{cb if cb is not None else '+':>4}/{cs if cs is not None else '+':<4}"
        lat = lambda v: f"{v:8.0f}us" if v is not None else f"{'':>10s}"
        print(f"{phase:11s} {show(b, nb)} {show(s, ns)} {ratio}   {cpu:>9s}   {lat(lb)} {lat(ls)}")
    wb, ws = statistics.median(walls["bonnie++"]), statistics.median(walls["sluice"])
    print(f"{'wall s':11s} {wb:12.1f} {ws:12.1f} {ws / wb:6.2f}")


if __name__ == "__main__":
    main()
