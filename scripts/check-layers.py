#!/usr/bin/env python3
"""Checks that the code keeps the map and the rules of docs/ARCHITECTURE.md: run by scripts/test.sh.

Fails, naming file:line and the check, on:
- an #include of another folder that the map's "may include" column does not list for the including folder;
- an #include of a header that calls itself internal ("Internal to ...") from another folder;
- a path under /proc or /sys written in code outside observe/ (only observe/ reads the machine);
- a make_engine call outside engine/ and run/ (only the runner drives engines);
- nlohmann/json.hpp included in engine/, workload/, targets/, job/, run/ or common/ (the hot path and the
  parsers do not compile the JSON library);
- what a folder's "Rule:" forbids (RULE_CHECKS below: file I/O where a folder is pure, clocks and randomness where
  it is deterministic, getenv, scripts and external references in the HTML, allocation, locks and system calls
  in the per-io loop, exceptions in the HTTP request path, SQL writes outside a transaction, usage text outside
  the option tables);
unless the file is on that check's allowlist, each entry with its reason (at most 5 a check). Comments never
count; string literals count only for the checks that look for text the program writes.

Usage: check-layers.py              the tree of this checkout (exit 0 when the code keeps the map)
       check-layers.py --self-test  builds a temporary tree with one violation per check and shows that each
                                    check finds its violation and nothing else, and that a clean tree passes"""
import pathlib
import re
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
MAX_ALLOWLIST = 5

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

INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]+)"', re.M)
MACHINE_PATH = re.compile(r'"/(proc|sys)/')
ENGINE_CALL = re.compile(r"\bmake_engine\s*\(")
JSON_INCLUDE = re.compile(r"#\s*include\s+<nlohmann/json\.hpp>")
MAP_ROW = re.compile(r"^\|\s*`([a-z_]+)/`\s*\|[^|]*\|([^|]*)\|\s*$")

# File I/O: the headers that exist for it, the stream and filesystem classes, stdio's file calls, and the system
# calls on descriptors (sluice writes them as ::name).
FILE_IO = re.compile(
    r"#\s*include\s*<(?:fstream|filesystem|iostream|fcntl\.h|dirent\.h|sys/stat\.h|sys/socket\.h|sys/mman\.h)>"
    r"|\bstd::(?:i|o)?fstream\b|\bstd::filesystem\b|\bstd::(?:cout|cerr|cin|clog)\b"
    r"|\b(?:std::)?f(?:open|read|write|printf|puts)\s*\("
    r"|::(?:open|openat|read|write|pread|pwrite|preadv|pwritev|close|stat|fstat|lstat|mkdir|unlink|rename|opendir"
    r"|fsync|fdatasync|ftruncate|fallocate|socket|connect|send|recv|ioctl)\s*\(")
# A clock read: the std::chrono clocks, the C calls, and sluice's own clock (common/clock.h).
CLOCK = re.compile(r"\b(?:steady_clock|system_clock|high_resolution_clock)\b|\bclock_gettime\s*\("
                   r"|\bstd::time\s*\(|\b(?:localtime|gmtime)(?:_r)?\s*\(")
RANDOMNESS = re.compile(r"#\s*include\s*<random>|\brandom_device\b|\b(?:rand|srand|random)\s*\(")
GETENV = re.compile(r"\b(?:secure_)?getenv\s*\(")
UNORDERED = re.compile(r"\bunordered_(?:map|set|multimap|multiset)\b")
SCRIPT_OR_EXTERNAL = re.compile(r"<script|\b(?:src|href)\s*=\s*\\?\"?(?:https?:)?//|url\(\s*['\"]?(?:https?:)?//"
                                r"|@import|<link\b", re.I)
LIVE_RESULT = re.compile(r'#\s*include\s+"(?:stats/result\.h|run/)')
ALLOCATION = re.compile(r"\bnew\b|\bmake_(?:unique|shared)\b|\b(?:malloc|calloc|realloc|strdup)\s*\(")
LOCKING = re.compile(r"\bstd::(?:mutex|shared_mutex|recursive_mutex|lock_guard|unique_lock|scoped_lock|shared_lock"
                     r"|condition_variable)\b|\.(?:lock|lock_shared)\s*\(\s*\)")
GLOBAL_CALL = re.compile(r"(?<![\w>.:])::([a-z_][a-z0-9_]*)\s*\(")
THROW = re.compile(r"\bthrow\b")
USAGE_TEXT = re.compile(r"\"usage:", re.I)
GETOPT = re.compile(r"\bgetopt(?:_long)?\s*\(")
CLOCK_INCLUDE = re.compile(r'#\s*include\s+"common/clock\.h"')

HTTP_WORKER_CALLS = {"socket", "connect", "send", "recv", "close", "epoll_create1", "epoll_ctl", "epoll_wait",
                     "epoll_pwait2", "getsockopt", "setsockopt"}

# Each check backs a "Rule:" sentence of docs/ARCHITECTURE.md. `where` picks the files (folder or path -> bool),
# `find` returns (offset, what) for each violation in a file's text without comments (`code`: strings blanked
# too; `text`: strings kept), `allow` is the allowlist (file -> reason).
def matches(pattern, view="code", message="{}"):
    def find(views):
        return [(m.start(), message.format(m.group(0).strip())) for m in pattern.finditer(views[view])]
    return find


def calls_outside(allowed):
    def find(views):
        return [(m.start(), f"calls ::{m.group(1)}") for m in GLOBAL_CALL.finditer(views["code"])
                if m.group(1) not in allowed]
    return find


def sql_writes_outside_transactions(views):
    """SQL that writes (INSERT, UPDATE, DELETE, REPLACE), as a string, outside a with_write_transaction body."""
    text = views["text"]
    bodies = []
    for m in re.finditer(r"\bwith_write_transaction\s*\(", views["code"]):
        start = views["code"].find("{", m.end())
        depth, i = 0, start
        while start >= 0 and i < len(views["code"]):
            depth += {"{": 1, "}": -1}.get(views["code"][i], 0)
            if depth == 0:
                break
            i += 1
        if start >= 0:
            bodies.append((start, i))
    return [(m.start(), f"writes SQL ({m.group(1)}) outside with_write_transaction")
            for m in re.finditer(r"\"\s*(INSERT|UPDATE|DELETE|REPLACE)\b", text)
            if not any(a <= m.start() <= b for a, b in bodies)]


def reads_a_clock(views):
    return matches(CLOCK, message="reads a clock: {}")(views) + matches(CLOCK_INCLUDE, "text", "reads the run's clock")(views)


def in_folder(*folders):
    return lambda folder, rel: folder in folders


def is_file(*files):
    return lambda folder, rel: rel in files


RULE_CHECKS = [
    {"name": "job/ reads only job files", "where": in_folder("job"), "find": matches(FILE_IO, message="file I/O: {}"),
     "allow": {"job/job_file_reader.cpp": "the job files and the files they include",
               "job/data_pattern.cpp": "a pattern file a job names (buffer_pattern, verify_pattern: fio's 'file')"}},
    {"name": "workload/ is pure", "where": in_folder("workload"), "find": matches(FILE_IO, message="file I/O: {}"),
     "allow": {"workload/blktrace_merge.cpp": "merge_blktrace_file: fio writes the merged trace before the run"}},
    {"name": "workload/ is a function of the seed", "where": in_folder("workload"),
     "find": lambda v: reads_a_clock(v) + matches(RANDOMNESS, message="{}")(v),
     "allow": {}},
    {"name": "engine/ knows no timing policy", "where": in_folder("engine"),
     "find": matches(CLOCK_INCLUDE, "text", "includes the run's clock"), "allow": {}},
    {"name": "stats/ is plain data and arithmetic", "where": in_folder("stats"),
     "find": lambda v: (matches(FILE_IO, message="file I/O: {}")(v) + reads_a_clock(v)
                        + matches(GETENV, message="reads the environment")(v)), "allow": {}},
    {"name": "report/ reads nothing global", "where": in_folder("report"),
     "find": matches(GETENV, message="reads the environment"), "allow": {}},
    {"name": "compare/ reads files only in result_source", "where": in_folder("compare"),
     "find": matches(FILE_IO, message="file I/O: {}"),
     "allow": {"compare/result_source.cpp": "the one reader of the compared documents"}},
    {"name": "no usage text outside the tables", "where": lambda folder, rel: True,
     "find": lambda v: (matches(USAGE_TEXT, "text", "usage text")(v) + matches(GETOPT, message="getopt")(v)),
     "allow": {"cli/command_help.cpp": "renders every table's usage line",
               "cli/help_command.cpp": "sluice help's overview: the commands, not the options of one"}},
    {"name": "html/ is deterministic", "where": in_folder("html"),
     "find": lambda v: (reads_a_clock(v) + matches(RANDOMNESS, message="{}")(v)
                        + matches(UNORDERED, message="{} (unstable order)")(v)), "allow": {}},
    {"name": "html/ writes no script or external reference", "where": in_folder("html"),
     "find": matches(SCRIPT_OR_EXTERNAL, "text", "writes {}"), "allow": {}},
    {"name": "html/ reads documents, never a live Result", "where": in_folder("html"),
     "find": lambda v: (matches(LIVE_RESULT, "text", "{}")(v) + matches(FILE_IO, message="file I/O: {}")(v)),
     "allow": {"html/heatmap.cpp": "fio's histogram log (--hist-log), the heatmap's input"}},
    {"name": "lab/'s truth and engine are pure", "where": lambda folder, rel:
        folder == "lab" and not pathlib.PurePath(rel).name.startswith("lab_"),
     "find": matches(FILE_IO, message="file I/O: {}"),
     "allow": {"lab/model_source.cpp": "the one reader of model files",
               "lab/path_calibration.cpp": "lab up's measurement of the path through the new lab device"}},
    {"name": "per io no allocation, lock or system call", "where": is_file("run/io_loop.cpp"),
     "find": lambda v: (matches(ALLOCATION, message="allocates: {}")(v) + matches(LOCKING, message="locks: {}")(v)
                        + calls_outside(set())(v)), "allow": {}},
    {"name": "per request no syscall beyond the socket's", "where": is_file("net/http_worker.cpp"),
     "find": calls_outside(HTTP_WORKER_CALLS), "allow": {}},
    {"name": "HTTP failures are counted, never thrown",
     "where": is_file("net/http_worker.cpp", "net/http_response_parser.cpp"),
     "find": matches(THROW, message="throws"), "allow": {}},
    {"name": "every history write is one transaction", "where": in_folder("history"),
     "find": sql_writes_outside_transactions, "allow": {}},
]


# Comments, raw strings, strings and character literals, in the order a C++ lexer meets them (a digit
# separator, 1'000'000, is not a character literal).
TOKENS = re.compile(r'//[^\n]*|/\*.*?\*/|(?<![\w])R"([^(\s]*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|(?<![\w\'])\'(?:\\.|[^\'\\\n])*\'',
                    re.S)


def strip(text, keep_strings):
    """`text` with comments (and, unless keep_strings, the contents of string and character literals) blanked,
    newlines kept, so offsets and line numbers stay those of the file."""
    def blank(m):
        token = m.group(0)
        if token.startswith("/"):
            return re.sub(r"[^\n]", " ", token)
        if keep_strings:
            return token
        return token[0] + re.sub(r"[^\n]", " ", token[1:-1]) + token[-1]
    return TOKENS.sub(blank, text)


def read_map(root):
    """folder -> the folders it may include, from the table under '## The map' in docs/ARCHITECTURE.md."""
    doc = (root / "docs/ARCHITECTURE.md").read_text().splitlines()
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


def internal_headers(src):
    """Headers whose opening comment says they are internal to their folder."""
    internal = set()
    for header in src.rglob("*.h"):
        opening = "\n".join(header.read_text().splitlines()[:6])
        if re.search(r"[Ii]nternal to", opening):
            internal.add(str(header.relative_to(src)))
    return internal


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def check_tree(root):
    """The problems of the tree at `root` (docs/ARCHITECTURE.md and src/), as (check, message) pairs."""
    src = root / "src"
    allowed = read_map(root)
    internal = internal_headers(src)
    problems = []
    for folder in sorted(p.name for p in src.iterdir() if p.is_dir()):
        if folder not in allowed:
            problems.append(("map", f"src/{folder}/: not in the map of docs/ARCHITECTURE.md"))
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".h", ".cpp") or len(path.relative_to(src).parts) < 2:
            continue
        rel = str(path.relative_to(src))
        folder = path.relative_to(src).parts[0]
        raw = path.read_text()
        views = {"text": strip(raw, keep_strings=True), "code": strip(raw, keep_strings=False)}
        text = views["text"]
        for m in INCLUDE.finditer(text):
            target, header = m.group(1), f"{m.group(1)}/{m.group(2)}"
            where = f"src/{rel}:{line_of(text, m.start())}"
            may = allowed.get(folder, set())
            if target != folder and "*" not in may and target not in may:
                problems.append(("map", f"{where}: {folder}/ includes {header}, but the map lets {folder}/ include "
                                        f"only {', '.join(sorted(allowed.get(folder, []))) or 'nothing'}"))
            if target != folder and header in internal:
                problems.append(("internal header", f"{where}: {header} is internal to {target}/"))
        if folder != "observe" and rel not in ALLOWED_MACHINE_READS:
            for m in MACHINE_PATH.finditer(text):
                problems.append(("machine reads", f"src/{rel}:{line_of(text, m.start())}: reads /{m.group(1)} "
                                                  "outside observe/"))
        if folder not in ("engine", "run") and rel not in ALLOWED_ENGINE_CALLS:
            for m in ENGINE_CALL.finditer(views["code"]):
                problems.append(("engine calls", f"src/{rel}:{line_of(text, m.start())}: make_engine outside run/ "
                                                 "(the runner drives engines)"))
        if folder in NO_JSON_FOLDERS and rel not in ALLOWED_JSON:
            for m in JSON_INCLUDE.finditer(views["code"]):
                problems.append(("json.hpp", f"src/{rel}:{line_of(text, m.start())}: includes nlohmann/json.hpp in "
                                             f"{folder}/"))
        for check in RULE_CHECKS:
            if check["where"](folder, rel) and rel not in check["allow"]:
                for offset, what in check["find"](views):
                    problems.append((check["name"], f"src/{rel}:{line_of(raw, offset)}: {what} ({check['name']})"))
    return problems


def check_allowlists():
    lists = [("machine reads", ALLOWED_MACHINE_READS), ("engine calls", ALLOWED_ENGINE_CALLS), ("json.hpp", ALLOWED_JSON)]
    lists += [(check["name"], check["allow"]) for check in RULE_CHECKS]
    for name, allowlist in lists:
        if len(allowlist) > MAX_ALLOWLIST:
            sys.exit(f"check-layers: the '{name}' allowlist has {len(allowlist)} entries (at most {MAX_ALLOWLIST})")
        if any(not reason for reason in allowlist.values()):
            sys.exit(f"check-layers: an entry of the '{name}' allowlist has no reason")


# One violation per check for --self-test: check name -> (file under src/, its text). Each file also holds
# look-alikes that must not count (the words in comments, strings where only code counts).
VIOLATIONS = {
    "map": ("stats/a.cpp", '#include "run/runner.h"\n'),
    "internal header": ("stats/b.cpp", '#include "common/secret.h"\n'),
    "machine reads": ("stats/c.cpp", 'const char* p = "/proc/meminfo";\n'),
    "engine calls": ("stats/d.cpp", "// make_engine() in a comment\nauto e = make_engine(options);\n"),
    "json.hpp": ("job/e.cpp", "#include <nlohmann/json.hpp>\n"),
    "job/ reads only job files": ("job/f.cpp", 'std::ifstream in("x");  // std::ofstream\n'),
    "workload/ is pure": ("workload/g.cpp", "const int fd = ::open(path, 0);\n"),
    "workload/ is a function of the seed": ("workload/h.cpp", "std::random_device seed;\n"),
    "engine/ knows no timing policy": ("engine/i.cpp", '#include "common/clock.h"\n'),
    "stats/ is plain data and arithmetic": ("stats/j.cpp", 'const char* v = getenv("X");  // "getenv("\n'),
    "report/ reads nothing global": ("report/k.cpp", 'const char* v = std::getenv("HOME");\n'),
    "compare/ reads files only in result_source": ("compare/l.cpp", 'FILE* f = fopen("x", "r");\n'),
    "no usage text outside the tables": ("suites/m.cpp", 'const char* u = "Usage: tool [options]";\n'),
    "html/ is deterministic": ("html/n.cpp", "auto t = std::chrono::system_clock::now();\n"),
    "html/ writes no script or external reference": ("html/o.cpp", 'out += "<script>alert(1)</script>";\n'),
    "html/ reads documents, never a live Result": ("html/p.cpp", '#include "stats/result.h"\n'),
    "lab/'s truth and engine are pure": ("lab/truth_x.cpp", "std::ofstream out(\"calibrated\");\n"),
    "per io no allocation, lock or system call": ("run/io_loop.cpp",
                                                  "// a new io\nauto* unit = new IoUnit;\nconst char* s = \"new\";\n"),
    "per request no syscall beyond the socket's": ("net/http_worker.cpp", "::send(fd, b, n, 0);\n::usleep(10);\n"),
    "HTTP failures are counted, never thrown": ("net/http_response_parser.cpp",
                                               'count("never throw");\nthrow std::runtime_error("x");\n'),
    "every history write is one transaction": ("history/q.cpp",
                                              'with_write_transaction(db, [&] { db.exec("INSERT INTO a VALUES(1)"); });\n'
                                              'db.exec("DELETE FROM a");\n'),
}
CLEAN = {
    "common/secret.h": "#pragma once\n// Internal to common/: the self-test's internal header.\n",
    "common/rng.h": "#pragma once\nconstexpr int kSeed = 1'000'000;  // a digit separator is no character literal\n",
    "stats/ok.cpp": '#include "common/rng.h"\nconst char* u = R"(usage: in a raw string)";  // std::ifstream\n',
    "html/ok.cpp": 'const char* svg = R"(<svg xmlns="http://www.w3.org/2000/svg">)";\n',
    "lab/lab_device.cpp": "const int fd = ::open(path, 0);  // the model device's files do I/O\n",
    "cli/command_help.cpp": 'const char* u = "usage: sluice ";\n',
}
SELF_TEST_MAP = """# notes
## The map
| folder | purpose | may include |
|---|---|---|
""" + "".join(f"| `{f}/` | x | {deps} |\n" for f, deps in [
    ("common", "nothing"), ("stats", "`common/`"), ("job", "`common/`"), ("workload", "`common/`"),
    ("engine", "`common/`"), ("report", "`common/`"), ("compare", "`common/`"), ("suites", "`common/`"),
    ("html", "`common/`, `stats/`"), ("lab", "`common/`"), ("run", "`common/`"), ("net", "`common/`"),
    ("history", "`common/`"), ("cli", "every folder")]) + "## next\n"


def write_tree(root, files):
    (root / "docs").mkdir(parents=True)
    (root / "docs/ARCHITECTURE.md").write_text(SELF_TEST_MAP)
    for rel, text in files.items():
        (root / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "src" / rel).write_text(text)


def self_test():
    """Each check finds its one violation in a tree that has it, and only that; a clean tree passes."""
    checks = ["map", "internal header", "machine reads", "engine calls", "json.hpp"] + [c["name"] for c in RULE_CHECKS]
    missing = sorted(set(checks) - set(VIOLATIONS))
    if missing:
        sys.exit(f"check-layers --self-test: no violation written for {missing}")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        clean = pathlib.Path(tmp) / "clean"
        write_tree(clean, CLEAN)
        found = check_tree(clean)
        if found:
            failures.append(f"the clean tree has problems: {found}")
        for check, (rel, text) in VIOLATIONS.items():
            root = pathlib.Path(tmp) / re.sub(r"\W+", "-", check)
            write_tree(root, {**CLEAN, rel: text})
            found = check_tree(root)
            names = [name for name, _ in found]
            if names != [check]:
                failures.append(f"'{check}': expected exactly one problem of it in src/{rel}, found {found}")
    for failure in failures:
        print(f"check-layers --self-test: {failure}", file=sys.stderr)
    if failures:
        return 1
    print(f"check-layers --self-test: each of the {len(checks)} checks finds its violation; a clean tree passes")
    return 0


def main():
    check_allowlists()
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    problems = check_tree(ROOT)
    for _, problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check-layers: {len(problems)} problems (docs/ARCHITECTURE.md, 'The map' and its Rules)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
