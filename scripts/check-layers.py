#!/usr/bin/env python3
"""Checks that the code keeps the map of docs/ARCHITECTURE.md ("The map"): run by scripts/test.sh.

Fails, naming file:line and the rule, on:
- an #include of another folder that the map's "may include" column does not list for the including folder;
- an #include of a header that calls itself internal ("Internal to ...") from another folder;
- a path under /proc or /sys written in code outside observe/ (only observe/ reads the machine);
- a make_engine call outside engine/ and run/ (only the runner drives engines);
- nlohmann/json.hpp included in engine/, workload/, targets/, job/, run/ or common/ (the hot path and the
  parsers do not compile the JSON library);
unless the file is on that check's allowlist below, each entry with its reason (at most 5 a check).

Usage: check-layers.py   (from anywhere; exit 0 when the code keeps the map)"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SRC = ROOT / "src"

ALLOWED_MACHINE_READS = {
    "common/clock.cpp": "the TSC's flags in /proc/cpuinfo, read once when the clock is chosen, before observe/ exists",
    "run/job_cgroup.cpp": "the job's own cgroup (cgroup=): /proc/mounts and /proc/thread-self/cgroup of the worker",
    "run/zoned_targets.cpp": "whether a target device is zoned, asked when the job opens it",
    "run/io_memory.cpp": "the huge page size for mem=mmaphuge, asked when the job allocates its buffers",
}
ALLOWED_ENGINE_CALLS = {
    "suites/iozone_run.cpp": "iozone's tests make iozone's own system calls on one file (psync), cell by cell",
    "suites/sysbench_files.cpp": "sysbench prepares its test files with its own writes, as sysbench does",
    "suites/sysbench_run.cpp": "sysbench's request loop and counters are sysbench's, not a fio job's",
}
ALLOWED_JSON = {
    "common/json_read.h": "the one reader of JSON documents that every folder shares",
    "run/steady_state_monitor.h": "fio's steady-state section of the result is written where it is computed",
}
NO_JSON_FOLDERS = {"engine", "workload", "targets", "job", "run", "common"}
MAX_ALLOWLIST = 5

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]+)"', re.M)
MACHINE_PATH = re.compile(r'"/(proc|sys)/')
ENGINE_CALL = re.compile(r"\bmake_engine\s*\(")
JSON_INCLUDE = re.compile(r"#\s*include\s+<nlohmann/json\.hpp>")
MAP_ROW = re.compile(r"^\|\s*`([a-z_]+)/`\s*\|[^|]*\|([^|]*)\|\s*$")


def read_map():
    """folder -> the folders it may include, from the table under '## The map' in docs/ARCHITECTURE.md."""
    doc = (ROOT / "docs/ARCHITECTURE.md").read_text().splitlines()
    try:
        start = next(i for i, line in enumerate(doc) if line.startswith("## ") and "The map" in line)
    except StopIteration:
        sys.exit("check-layers: docs/ARCHITECTURE.md has no '## ... The map' section")
    allowed = {}
    for line in doc[start + 1:]:
        if line.startswith("## "):
            break
        m = MAP_ROW.match(line)
        if m:
            every = "every folder" in m.group(2)
            allowed[m.group(1)] = {"*"} if every else set(re.findall(r"`([a-z_]+)/`", m.group(2)))
    return allowed


def internal_headers():
    """Headers whose opening comment says they are internal to their folder."""
    internal = set()
    for header in SRC.rglob("*.h"):
        opening = "\n".join(header.read_text().splitlines()[:6])
        if re.search(r"[Ii]nternal to", opening):
            internal.add(str(header.relative_to(SRC)))
    return internal


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def main():
    for name, allowlist in (("machine reads", ALLOWED_MACHINE_READS), ("engine calls", ALLOWED_ENGINE_CALLS),
                            ("json.hpp", ALLOWED_JSON)):
        if len(allowlist) > MAX_ALLOWLIST:
            sys.exit(f"check-layers: the {name} allowlist has {len(allowlist)} entries (at most {MAX_ALLOWLIST})")
    allowed = read_map()
    internal = internal_headers()
    problems = []
    folders = sorted(p.name for p in SRC.iterdir() if p.is_dir())
    for folder in folders:
        if folder not in allowed:
            problems.append(f"src/{folder}/: not in the map of docs/ARCHITECTURE.md")
    for path in sorted(SRC.rglob("*")):
        if path.suffix not in (".h", ".cpp") or len(path.relative_to(SRC).parts) < 2:
            continue
        rel = str(path.relative_to(SRC))
        folder = path.relative_to(SRC).parts[0]
        text = path.read_text()
        for m in INCLUDE.finditer(text):
            target, header = m.group(1), f"{m.group(1)}/{m.group(2)}"
            where = f"src/{rel}:{line_of(text, m.start())}"
            may = allowed.get(folder, set())
            if target != folder and "*" not in may and target not in may:
                problems.append(f"{where}: {folder}/ includes {header}, but the map lets {folder}/ include only "
                                f"{', '.join(sorted(allowed.get(folder, []))) or 'nothing'}")
            if target != folder and header in internal:
                problems.append(f"{where}: {header} is internal to {target}/")
        if folder != "observe" and rel not in ALLOWED_MACHINE_READS:
            for m in MACHINE_PATH.finditer(text):
                problems.append(f"src/{rel}:{line_of(text, m.start())}: reads /{m.group(1)} outside observe/")
        if folder not in ("engine", "run") and rel not in ALLOWED_ENGINE_CALLS:
            for m in ENGINE_CALL.finditer(text):
                problems.append(f"src/{rel}:{line_of(text, m.start())}: make_engine outside run/ (the runner "
                                "drives engines)")
        if folder in NO_JSON_FOLDERS and rel not in ALLOWED_JSON:
            for m in JSON_INCLUDE.finditer(text):
                problems.append(f"src/{rel}:{line_of(text, m.start())}: includes nlohmann/json.hpp in {folder}/")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check-layers: {len(problems)} problems (docs/ARCHITECTURE.md, 'The map')", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
