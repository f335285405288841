#!/usr/bin/env python3
"""sluice postmark against the real PostMark (Debian's postmark 1.53), alternating, printed as ratios.

Both run the same configuration file on the same file system (a fresh directory under --dir for each run).
The tools take turns going first. PostMark's own clock counts whole seconds, so the comparison is the wall time of each process (measured
here), its transactions per second (transactions / that time), and the counts of its report, which must be
identical (same seed, same sequence). Cases: PostMark's defaults (500 files, 500 transactions) and 10x the
files and transactions (5000, 5000).

usage: bench/vs_postmark.py [--sluice build/sluice] [--postmark postmark] [--dir DIR] [--rounds 5]
                            [--case defaults|10x ...] [--buffering true|false]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

CASES = {
    "defaults": {"number": 500, "transactions": 500},
    "10x": {"number": 5000, "transactions": 5000},
}

COUNT_LINE = re.compile(r"^\t+(\d+ (?:created|read|appended|deleted)|(?:Creation|Deletion) alone: \d+ files|"
                        r"Mixed with transactions: \d+ files|[\d.]+ \w+bytes (?:read|written)) \(", re.M)


def counts(report):
    return COUNT_LINE.findall(report)


def run_once(cmd, workdir, config_text):
    cfg = os.path.join(workdir, "bench.pmrc")
    with open(cfg, "w") as f:
        f.write(config_text)
    start = time.perf_counter()
    out = subprocess.run(cmd + [cfg], check=True, capture_output=True, text=True, stdin=subprocess.DEVNULL).stdout
    return time.perf_counter() - start, out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--sluice", default=os.path.join(here, "..", "build", "sluice"))
    p.add_argument("--postmark", default="postmark")
    p.add_argument("--dir", default=".", help="file system to run on (default: the current directory)")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--case", action="append", choices=sorted(CASES), help="default: all")
    p.add_argument("--buffering", default="true", choices=["true", "false"])
    args = p.parse_args()
    if shutil.which(args.postmark) is None:
        sys.exit(f"{args.postmark}: not found (apt-get install postmark)")

    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    for name in args.case or ["defaults", "10x"]:
        case = CASES[name]
        ratios = []
        tools = {"postmark": [args.postmark], "sluice": [args.sluice, "postmark"]}
        times = {t: [] for t in tools}
        reference = None
        for r in range(args.rounds):
            # Alternate which tool goes first, so neither always inherits the other's writeback.
            order = list(tools.items()) if r % 2 == 0 else list(reversed(tools.items()))
            for tool, cmd in order:
                work = tempfile.mkdtemp(prefix=f"vs_postmark_{tool}_", dir=args.dir)
                try:
                    loc = os.path.join(work, "files")
                    os.mkdir(loc)
                    cfg = (f"set location {loc}\nset number {case['number']}\nset transactions {case['transactions']}\n"
                           f"set buffering {args.buffering}\nrun\nquit\n")
                    seconds, out = run_once(cmd, work, cfg)
                finally:
                    shutil.rmtree(work, ignore_errors=True)
                c = counts(out)
                if reference is None:
                    reference = c
                elif c != reference:
                    sys.exit(f"{name}: {tool}'s counts differ from postmark's:\n{c}\n{reference}")
                times[tool].append(seconds)
                print(f"  {name} round {r + 1}: {tool} {seconds:.3f} s "
                      f"({case['transactions'] / seconds:.0f} transactions/s over the whole run)")
            ratios.append(times["sluice"][-1] / times["postmark"][-1])
        print(f"{name}: {case['number']} files, {case['transactions']} transactions, buffering {args.buffering}: "
              f"counts identical; median wall time postmark {statistics.median(times['postmark']):.3f} s, "
              f"sluice {statistics.median(times['sluice']):.3f} s; sluice/postmark time ratio = "
              f"{statistics.median(ratios):.3f} (per round: {', '.join(f'{x:.2f}' for x in ratios)})")


if __name__ == "__main__":
    main()
