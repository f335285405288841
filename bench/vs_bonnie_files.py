#!/usr/bin/env python3
"""sluice metadata's file phases against bonnie++'s file tests (Debian's bonnie++ 2.00a), alternating.

bonnie++ -s 0 -n N creates N*1024 empty files in one directory, stats them in readdir order and deletes them
("Sequential Create / Read / Delete"), with sync() at the end of create and delete inside the timing.
The sluice counterpart is `sluice metadata -F -n N*1024 -Y` (files only, one directory, one task, a sync
at the end of every phase): create, stat and remove of as many empty files. The two take turns going
first; per round the script prints both rates and sluice/bonnie++, then the median ratio per phase.
bonnie++ prints +++++ for a phase under 0.5 s; such rounds are left out of that phase's ratio.

usage: bench/vs_bonnie_files.py [--sluice build/sluice] [--bonnie bonnie++] [--dir DIR] [--n 16] [--rounds 3]
"""
import argparse
import json
import os
import statistics
import subprocess
import tempfile

# bonnie++ 2.00a CSV (format 1.98): seq_create, seq_stat, seq_del are fields 26, 28, 30.
BONNIE_FIELDS = {"create": 26, "stat": 28, "remove": 30}
SLUICE_KEYS = {"create": "file_create", "stat": "file_stat", "remove": "file_remove"}


def bonnie(cmd, workdir, n):
    args = [cmd, "-d", workdir, "-s", "0", "-n", str(n), "-r", "0", "-q", "-m", "bench"]
    if os.geteuid() == 0:
        args += ["-u", "root"]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    row = [line for line in out.splitlines() if line.startswith("1.98,")][-1].split(",")
    return {phase: (None if row[i].startswith("+") else float(row[i])) for phase, i in BONNIE_FIELDS.items()}


def sluice(cmd, workdir, n):
    args = [cmd, "metadata", "-d", workdir, "-F", "-n", str(n * 1024), "-Y", "--output-format=json"]
    doc = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    summary = doc["sluice"]["metadata"]["summary"]
    return {phase: summary[key]["mean"] for phase, key in SLUICE_KEYS.items()}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sluice", default=os.path.join(os.path.dirname(__file__), "..", "build", "sluice"))
    p.add_argument("--bonnie", default="bonnie++")
    p.add_argument("--dir", default=tempfile.gettempdir())
    p.add_argument("--n", type=int, default=16, help="bonnie++ -n: thousands (x1024) of files")
    p.add_argument("--rounds", type=int, default=3)
    a = p.parse_args()
    ratios = {phase: [] for phase in BONNIE_FIELDS}
    print(f"{a.n * 1024} empty files in {a.dir}; files/s")
    print(f"{'round':>5} {'phase':>7} {'bonnie++':>10} {'sluice':>10} {'ratio':>6}")
    for r in range(a.rounds):
        with tempfile.TemporaryDirectory(dir=a.dir) as work:
            first, second = (bonnie, sluice) if r % 2 == 0 else (sluice, bonnie)
            results = {}
            for tool in (first, second):
                results[tool] = tool(a.bonnie if tool is bonnie else a.sluice, work, a.n)
        for phase in BONNIE_FIELDS:
            b, s = results[bonnie][phase], results[sluice][phase]
            ratio = s / b if b else None
            if ratio:
                ratios[phase].append(ratio)
            print(f"{r + 1:>5} {phase:>7} {'+++++' if b is None else f'{b:.0f}':>10} {s:>10.0f} "
                  f"{'-' if ratio is None else f'{ratio:.2f}':>6}")
    for phase, values in ratios.items():
        text = f"{statistics.median(values):.2f} over {len(values)} rounds" if values else "no timed rounds"
        print(f"median sluice/bonnie++ {phase}: {text}")


if __name__ == "__main__":
    main()
