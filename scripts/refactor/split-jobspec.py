#!/usr/bin/env python3
"""One-off migration tool (issue 36, item 2): moves JobSpec's fields into sub-structs by concern.

Not part of the build or the tests; kept in the tree so that it can be re-run after branches that still
add fields to JobSpec's top level (or read them as job.field) are merged. It is idempotent: a field that
already lives in its sub-struct is left alone, and `job.target.size` is never rewritten again.

What it does, for each selected concern of MAP below:
  1. moves the field's declaration (and the comment lines right above it) from `struct JobSpec` into the
     concern's struct (created before JobSpec in job_spec.h when missing; the engine's structs
     live in engine/engine_options.h and must exist), renaming it where the map says so, and adds the part as a
     member of JobSpec;
  2. rewrites the uses across src/ tests/ fuzz/ bench/: `V.field` / `V->field` where V is declared as a
     JobSpec in that file (or is job, job_, spec, spec_ or a `.spec` member), and `&JobSpec::field` (an
     option row's member pointer) -> `&PartStruct::field`;
  3. regenerates job_part<Part>() (job_spec.h), which the option rows use to reach a part.
  4. with --split-headers (the header step, once the consumers compile; it does only this): each part whose `file` is a header
     of its own (src/job/<part>_options.h) gets its struct there, with the types its fields use (`types`,
     before it) and the functions of the part (`after`); SHARED_HEADERS' types (Distribution) likewise; and
     job_spec.h includes them. A part already in its header is left alone; a field added later at JobSpec's
     top level and mapped is moved straight into that header. Run scripts/format.sh afterwards.
With --fix-from-errors it then compiles every translation unit of BUILD/compile_commands.json with
-fsyntax-only and rewrites the uses the heuristics missed at the places the compiler names
("'JobSpec' has no member named 'size'", "'size' is not a member of 'JobSpec'", and bare names inside
JobSpec's own member functions), repeating on the units that still fail. What remains is printed.

Finally it lists JobSpec's fields that are not in the map (they stay at the top level).

A use the heuristics took for a JobSpec's but that is another type's (`job.ioprio` of a JobResult named job)
fails to compile as "'JobResult' has no member named 'placement'"; the error pass undoes it.

Usage (from the repository's root):
  scripts/refactor/split-jobspec.py [--concern target --concern engine ...] [--fix-from-errors build]
  scripts/refactor/split-jobspec.py --split-headers # the header step (then scripts/format.sh)
  scripts/refactor/split-jobspec.py --list          # the map and the fields left at the top level
  ninja -C build -k 0 -j1 > /tmp/build.log 2>&1; (cd build && ../scripts/refactor/split-jobspec.py \
      --errors-log /tmp/build.log)                  # fix what a build's messages name (paths are build/'s)
Re-running after merging a branch that added fields or still reads job.size: put the new fields in MAP under
their concern (`--list` names the fields left at the top level), run it with no --concern, then build and feed
the log to --errors-log until no error names a moved field. Once the parts are in their headers, a new mapped
field moves straight into its part's header. What it cannot do, by hand: a struct's helpers that read moved
fields (JobSpec::open_loop_active now forwards to PacingOptions'), a consumer made to take its part.
Known false positive: a file that has both a JobSpec `job` and a JobResult `job` (run/runner.cpp) gets
`job.latency.latency_target` on the JobResult at every run; the --errors-log pass undoes it (or git checkout it).
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SPEC_H = "src/job/job_spec.h"
ENGINE_H = "src/engine/engine_options.h"
TREES = ["src", "tests", "fuzz", "bench"]

# concern -> parts. A part: struct name, path from a JobSpec, file of its definition, a one-line description
# (for a struct the script creates), and fields: old name -> new name (same name unless renamed).
def same(*names):
    return {n: n for n in names}

MAP = {
    "target": [
        dict(struct="TargetOptions", path="target", file="src/job/target_options.h",
             types=["SizeOrPercent", "FileLockMode", "FileService", "FallocateMode", "FadviseHint"],
             doc="The job's files: which, where, how big, how they are opened, laid out and cleaned up.",
             fields=same("filenames", "opendir", "lockfile", "directory", "size", "filesize", "nrfiles",
                         "file_service", "file_service_ios", "file_distribution", "openfiles", "offset",
                         "create_on_open", "create_fsync", "create_only", "invalidate", "pre_read", "fadvise_hint",
                         "write_hint", "allow_file_create", "unique_filename", "overwrite", "fallocate", "unlink",
                         "ioscheduler", "allow_mounted_write", "unlink_each_loop", "fill_device", "direct",
                         "filename_format", "offset_increment", "offset_align", "file_append")),
    ],
    "engine": [
        dict(struct="EngineOptions", path="engine", file=ENGINE_H, fields=same("ioengine")),
        dict(struct="UringOptions", path="engine.uring", file=ENGINE_H,
             fields={"uring_registerfiles": "registerfiles", "uring_fixedbufs": "fixedbufs",
                     "uring_sqthread_poll": "sqthread_poll", "uring_sqthread_poll_cpu": "sqthread_poll_cpu",
                     "uring_nonvectored": "nonvectored", "uring_force_async": "force_async"}),
        dict(struct="RwFlagOptions", path="engine.rw_flags", file=ENGINE_H,
             fields={"uring_hipri": "hipri", "hipri_percentage": "hipri_percentage", "uncached": "uncached",
                     "nowait": "nowait", "atomic": "atomic"}),
        dict(struct="LibaioOptions", path="engine.libaio", file=ENGINE_H, fields=same("userspace_reap")),
        dict(struct="FilestatOptions", path="engine.filestat", file=ENGINE_H, fields=same("stat_type")),
        dict(struct="CpuioOptions", path="engine.cpuio", file=ENGINE_H,
             fields={"cpuload": "cpuload", "cpuchunks_us": "cpuchunks_us", "cpumode_qsort": "qsort",
                     "exit_on_io_done": "exit_on_io_done"}),
        dict(struct="ExecOptions", path="engine.exec", file=ENGINE_H,
             fields={"exec_program": "program", "exec_arguments": "arguments", "exec_grace_time": "grace_time",
                     "exec_std_redirect": "std_redirect"}),
        dict(struct="E4defragOptions", path="engine.e4defrag", file=ENGINE_H,
             fields={"e4defrag_donor": "donorname", "e4defrag_inplace": "inplace"}),
    ],
    "logs": [
        dict(struct="LogOptions", path="logs", file="src/job/log_options.h",
             types=[],
             doc="fio's per-job log files (write_*_log and their format) and per-io log columns.",
             fields=same("write_lat_log", "write_iops_log", "write_bw_log", "log_avg_msec", "log_max_value",
                         "log_unix_epoch", "log_alternate_epoch", "log_alternate_epoch_clock_id", "log_offset",
                         "log_compression", "log_store_compressed", "write_hist_log", "log_hist_msec",
                         "log_hist_coarseness", "per_job_logs", "log_prio")),
    ],
    "zones": [
        dict(struct="ZoneOptions", path="zones", file="src/job/zone_options.h",
             types=[],
             doc="fio's zonemode=strided and zonemode=zbd and their zone settings.",
             fields=same("zone_strided", "zone_size", "zone_range", "zone_skip", "zone_zbd", "zone_capacity",
                         "read_beyond_wp", "max_open_zones", "job_max_open_zones", "ignore_zone_limits",
                         "zone_reset_threshold", "zone_reset_frequency")),
    ],
    "placement": [
        dict(struct="PlacementOptions", path="placement", file="src/job/placement_options.h",
             types=["CmdprioSplitEntry", "NumaMemPolicy"],
             doc="Where and as whom the job's thread runs: CPUs, NUMA, priorities, nice, user, cgroup.",
             fields=same("cpus_allowed", "cpus_allowed_split", "numa_cpu_nodes", "numa_mem_policy", "ioprio_class",
                         "ioprio", "cmdprio_percentage", "cmdprio_class", "cmdprio_level", "cmdprio_bssplit", "nice",
                         "uid", "gid", "cgroup", "cgroup_weight", "cgroup_nodelete")),
    ],
    "pacing": [
        dict(struct="PacingOptions", path="pacing", file="src/job/pacing_options.h",
             types=["RateProcess"],
             doc="How fast ios are issued: rate limits and minimums, think time, open-loop arrivals.",
             fields=same("rate", "rate_iops", "rate_process", "thinktime", "think_per_busy", "thinktime_blocks",
                         "rate_ignore_thinktime", "thinktime_on_issue", "thinktime_iotime", "thinktime_spin_set",
                         "thinktime_spin", "rate_min", "rate_cycle", "rate_iops_min", "open_loop", "submit_offload")),
    ],
    "iolog": [
        dict(struct="IoLogOptions", path="iolog", file="src/job/iolog_options.h",
             types=["IoLog", "kReplaySkipRead"],
             doc="fio's write_iolog / read_iolog family: the io log a job writes, and the logs it replays.",
             fields=same("write_iolog", "read_iolog", "replay_no_stall", "replay_time_scale", "replay_redirect",
                         "replay_scale", "replay_align", "replay_skip", "merge_blktrace_file",
                         "merge_blktrace_scalars", "merge_blktrace_iters", "replay_log")),
    ],
    "workload": [
        dict(struct="WorkloadOptions", path="workload", file="src/job/workload_options.h",
             types=["RwMode", "BlockSizeRange", "BlockSizeSplitEntry"], after=["rw_mode_name"],
             doc="The io pattern: directions and their mix, block sizes, offsets and their random distributions.",
             fields=same("rw", "rw_sequential_run", "rw_sequencer_identical", "rw_backwards", "rwmixread", "bs",
                         "bsrange", "bssplit", "blockalign", "bs_is_seq_rand", "bs_unaligned", "random_distribution",
                         "random_sequence_stride", "percentage_random", "randrepeat", "randseed", "norandommap",
                         "lfsr_offsets", "sprandom", "spr_num_regions", "spr_op", "spr_cs")),
    ],
    "buffers": [
        dict(struct="BufferOptions", path="buffers", file="src/job/buffer_options.h",
             types=["IoMemKind", "io_mem_kind_name", "IoMemorySpec"],
             doc="The io buffers: where their memory comes from, and what write buffers hold (compressibility, dedupe).",
             fields=same("io_memory", "lockmem", "refill_buffers", "zero_buffers", "scramble_buffers",
                         "buffer_pattern", "buffer_compress_percentage", "buffer_compress_chunk",
                         "dedupe_percentage", "dedupe_working_set", "dedupe_working_set_percentage",
                         "dedupe_global")),
    ],
    "queue": [
        dict(struct="QueueOptions", path="queue", file="src/job/queue_options.h",
             types=[],
             doc="How many ios are in flight, and how they are submitted and reaped in batches.",
             fields=same("iodepth", "iodepth_low", "iodepth_batch_submit", "iodepth_batch_complete_min",
                         "iodepth_batch_complete_max", "serialize_overlap")),
    ],
    "durability": [
        dict(struct="DurabilityOptions", path="durability", file="src/job/durability_options.h",
             types=["SyncMode"],
             doc="When written data is made durable: O_SYNC/O_DSYNC, a sync every N writes, at the job's end.",
             fields=same("sync", "fsync_blocks", "fdatasync_blocks", "sync_file_range_blocks",
                         "sync_file_range_flags", "end_fsync", "end_syncfs", "fsync_on_close")),
    ],
    "time": [
        dict(struct="TimeOptions", path="time", file="src/job/time_options.h",
             types=[],
             doc="When the job starts and ends: start delay, ramp, runtime, loops, and the io amount that ends it.",
             fields=same("startdelay", "ramp_time", "ramp_size", "runtime", "time_based", "loops", "io_size",
                         "number_ios")),
    ],
    "latency": [
        dict(struct="LatencyOptions", path="latency", file="src/job/latency_options.h",
             types=[],
             doc="Latency bounds: a job ends past max_latency; fio's latency_target searches the depth that keeps it.",
             fields=same("max_latency", "latency_target", "latency_window", "latency_percentile", "latency_run")),
    ],
    "errors": [
        dict(struct="ErrorOptions", path="errors", file="src/job/error_options.h",
             types=["ErrorClass", "kContinueOnAllErrors"], after=["error_class_of", "error_is_non_fatal"],
             doc="Which io errors a job counts and goes on after, and which end it (or the whole run).",
             fields=same("continue_on_error", "ignore_errors", "error_dump", "exitall_on_error")),
    ],
    "control": [
        dict(struct="JobControlOptions", path="control", file="src/job/job_control_options.h",
             types=["JobRole"],
             doc="The job among the run's jobs: clones, groups, waits, flow shares, and commands around its I/O.",
             fields=same("numjobs", "thread", "role", "stonewall", "new_group", "wait_for", "exitall", "flow",
                         "flow_id", "flow_sleep", "exec_prerun", "exec_postrun")),
    ],
    "verify": [
        dict(struct="VerifyOptions", path="verification", file="src/job/verify_options.h",
             types=["VerifyPolicy", "VerifyKind"],
             doc="fio's verify family: what is checked when written data is read back, when, and trim verification.",
             fields=same("verify", "verify_pattern", "verify_pattern_offset_slots", "do_verify", "verify_only",
                         "verify_fatal", "verify_dump", "verify_backlog", "verify_backlog_batch",
                         "verify_state_save", "verify_state_load", "verify_state_load_dir", "verify_policy", "aux_path", "verify_interval",
                         "verify_offset", "trim_percentage", "trim_verify_zero", "trim_backlog",
                         "trim_backlog_batch")),
    ],
    "steady_state": [
        dict(struct="SteadyStateOptions", path="steady_state", file="src/job/steady_state_options.h",
             types=["SteadyStateCriterion"],
             doc="fio's steadystate (ss): the criterion, its limit and window, after which the job ends early.",
             fields=same("ss_criterion", "ss_limit", "ss_limit_is_percent", "ss_duration", "ss_ramp",
                         "ss_interval")),
    ],
    "report": [
        dict(struct="ReportOptions", path="report", file="src/job/report_options.h",
             types=[],
             doc="What is measured of the job and how it is reported: groups, percentiles, averaging windows, units.",
             fields=same("group_reporting", "stats", "disk_util", "percentile_list", "clat_percentiles",
                         "lat_percentiles", "slat_percentiles", "block_error_percentiles", "act_slice_ns",
                         "act_duration_ns", "kb_base", "bw_avg_msec", "iops_avg_msec", "unified_rw_reporting",
                         "significant_figures", "unit_base_bits", "clocksource", "disable_lat", "disable_clat",
                         "disable_slat", "disable_bw")),
    ],
}

# Headers of types that several parts use (moved out of job_spec.h by the header step, as the parts' types).
SHARED_HEADERS = [
    dict(file="src/job/distribution.h", struct=None,
         doc="Distribution: how random offsets (or a job's files) are drawn: uniform, zipf, pareto, normal, zoned, "
             "sequence. Used by the workload and target parts of JobSpec.",
         types=["DistributionKind", "AccessZone", "Distribution"]),
]

PART_NAMES = {p["path"].split(".")[0] for parts in MAP.values() for p in parts}


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def write(path, text):
    with open(os.path.join(ROOT, path), "w") as f:
        f.write(text)


def body_range(text, struct):
    """(start, end) of the lines between `struct NAME {` and its closing `};`, or None."""
    m = re.search(r"^struct %s \{\n" % re.escape(struct), text, re.M)
    if not m:
        return None
    depth, i = 1, m.end()
    while i < len(text):
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return m.end(), text.rfind("\n", 0, i) + 1
        i += 1
    raise SystemExit("unbalanced struct " + struct)


DECL = re.compile(r"^  (?!//|return\b|if\b|for\b)[^(){};=]*?[\w>:*&\]]\s+(\w+)\s*(?:=[^;]*|\{[^;]*\})?;")


def top_level_fields(text):
    """JobSpec's own field names (depth-1 declaration lines), in order."""
    start, end = body_range(text, "JobSpec")
    names, depth = [], 0
    for line in text[start:end].splitlines():
        if depth == 0:
            m = DECL.match(line)
            if m and not line.lstrip().startswith("struct "):
                names.append(m.group(1))
        depth += line.count("{") - line.count("}")
    return names


def take_declaration(text, old):
    """Removes `old`'s declaration (with the comment lines right above it) from JobSpec's body at depth 1.
    Returns (text, lines) or (text, None) when JobSpec has no such field."""
    start, end = body_range(text, "JobSpec")
    lines = text[start:end].split("\n")
    depth = 0
    for i, line in enumerate(lines):
        if depth == 0:
            m = DECL.match(line)
            if m and m.group(1) == old:
                first = i
                while first > 0 and lines[first - 1].lstrip().startswith("//") and \
                        not lines[first - 1].lstrip().startswith("// ---"):
                    first -= 1
                taken = lines[first:i + 1]
                rest = lines[:first] + lines[i + 1:]
                return text[:start] + "\n".join(rest) + text[end:], taken
        depth += line.count("{") - line.count("}")
    return text, None


def rename_declaration(lines, old, new):
    if old == new:
        return lines
    last = lines[-1]
    m = DECL.match(last)
    s = m.start(1)
    lines[-1] = last[:s] + new + last[s + len(old):]
    return lines


def home_of(files, part):
    """The file that holds the part's struct now: its own header, or job_spec.h before the header step."""
    if body_range(files.get(part["file"], ""), part["struct"]):
        return part["file"]
    return SPEC_H


def ensure_struct(files, part):
    if body_range(files[home_of(files, part)], part["struct"]):
        return
    if part["file"] == ENGINE_H:
        raise SystemExit("%s: struct %s missing (write it by hand first)" % (part["file"], part["struct"]))
    block = "// %s\nstruct %s {\n};\n\n" % (part["doc"], part["struct"])
    files[SPEC_H] = files[SPEC_H].replace("struct JobSpec {\n", block + "struct JobSpec {\n", 1)


def ensure_member(files, part):
    if "." in part["path"]:
        return  # nested parts are members of their parent, written by hand
    text = files[SPEC_H]
    start, end = body_range(text, "JobSpec")
    member = "  %s %s;\n" % (part["struct"], part["path"])
    if member in text[start:end]:
        return
    anchor = "  // --- the options by concern (the structs above; the rest of the fields below)\n"
    if anchor not in text:
        text = text[:start] + anchor + "\n" + text[start:]
        start, end = body_range(text, "JobSpec")
    i = text.index(anchor) + len(anchor)
    while text[i:].startswith("  ") and not text[i:].startswith("  //"):  # after the members already there
        i = text.index("\n", i) + 1
    files[SPEC_H] = text[:i] + member + text[i:]


def move_declarations(files, part):
    ensure_struct(files, part)
    ensure_member(files, part)
    moved = []
    for old, new in part["fields"].items():
        spec, lines = take_declaration(files[SPEC_H], old)
        if lines is None:
            continue
        files[SPEC_H] = spec
        lines = rename_declaration(lines, old, new)
        home = home_of(files, part)
        text = files[home]
        _, end = body_range(text, part["struct"])
        # the struct's own helpers (a line with '(') stay last
        text = text[:end] + "\n".join(lines) + "\n" + text[end:]
        files[home] = text
        moved.append(old)
    return moved


def take_block(text, name):
    """Removes the namespace-level declaration of `name` (enum, struct, constant, function; with the comment
    lines right above it) from text, outside JobSpec. Returns (text, block) or (text, None)."""
    lines = text.split("\n")
    depth = 0
    for i, line in enumerate(lines):
        if depth == 0 and re.match(r"^[^/ #}].*?\b%s\b" % re.escape(name), line) and \
                not line.startswith("struct JobSpec ") and not line.startswith("namespace"):
            first = i
            while first > 0 and lines[first - 1].startswith("//") and not lines[first - 1].startswith("// <"):
                first -= 1
            last, d = i, 0
            while True:
                d += lines[last].count("{") - lines[last].count("}")
                if d == 0 and (";" in lines[last] or lines[last].rstrip().endswith("}")):
                    break
                last += 1
            block = lines[first:last + 1]
            rest = lines[:first] + lines[last + 1:]
            while first < len(rest) and first > 0 and rest[first] == "" and rest[first - 1] == "":
                del rest[first]
            return "\n".join(rest), "\n".join(block)
        if not line.startswith(("namespace", "}  // namespace")):
            depth += line.count("{") - line.count("}")
    return text, None


STD_HEADERS = [("std::array", "<array>"), ("std::chrono", "<chrono>"), ("std::uint", "<cstdint>"),
               ("std::int", "<cstdint>"), ("std::map", "<map>"), ("std::shared_ptr", "<memory>"),
               ("std::optional", "<optional>"), ("std::string_view", "<string_view>"), ("std::string ", "<string>"),
               ("std::string>", "<string>"), ("std::string;", "<string>"), ("std::vector", "<vector>")]
OWN_HEADERS = [(r"\b(PerDirection|Direction|kNumDirections)\b", "common/direction.h"),
               (r"\bDistribution\b", "job/distribution.h")]


def header_text(path, doc, blocks):
    body = "\n\n".join(blocks)
    std = sorted({h for key, h in STD_HEADERS if key in body})
    own = sorted({h for rx, h in OWN_HEADERS if re.search(rx, body) and not path.endswith(h)})
    text = "#pragma once\n" + "".join("// %s\n" % l for l in wrap(doc)) + "".join("#include %s\n" % h for h in std)
    if own:
        text += ("\n" if std else "") + "".join('#include "%s"\n' % h for h in own)
    return text + "\nnamespace sluice {\n\n" + body + "\n\n}  // namespace sluice\n"


def wrap(doc, width=114):
    words, lines, line = doc.split(), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = (line + " " + w) if line else w
    return lines + [line]


def split_headers(files, parts):
    """The header step: each part whose file is a header of its own gets its struct and its types there, and
    job_spec.h includes it. Returns the headers written."""
    written = []
    for part in SHARED_HEADERS + parts:
        path = part["file"]
        if path in (SPEC_H, ENGINE_H) or os.path.exists(os.path.join(ROOT, path)) or path in files:
            continue
        spec = files[SPEC_H]
        blocks = []
        for name in part["types"] + ([part["struct"]] if part["struct"] else []) + part.get("after", []):
            spec, block = take_block(spec, name)
            if block is None:
                raise SystemExit("%s: %s not found in %s" % (path, name, SPEC_H))
            blocks.append(block)
        doc = part["doc"] if part["struct"] is None else \
            "%s and the types of its fields: a part of JobSpec (job/job_spec.h composes the parts). Include this " \
            "header, not job_spec.h, where only this part is needed." % part["struct"]
        files[path] = header_text(path, doc, blocks)
        include = '#include "%s"\n' % path[len("src/"):]
        anchor = '#include "engine/engine_options.h"\n'
        spec = spec.replace(anchor, anchor + include, 1)
        files[SPEC_H] = spec
        written.append(path)
    return written


def source_files():
    for tree in TREES:
        for dirpath, _, names in os.walk(os.path.join(ROOT, tree)):
            for n in names:
                if n.endswith((".h", ".cpp", ".hpp", ".cc")):
                    yield os.path.relpath(os.path.join(dirpath, n), ROOT)


VAR = re.compile(r"\bJobSpec\b(?!::)\s*(?:const\b\s*)?[&*]*\s*(?:const\b\s*)?([A-Za-z_]\w*)")
ALWAYS = {"job", "job_", "spec", "spec_"}
NOT_NAMES = {"const", "JobSpec", "operator", "final"}
OTHER_TYPE = re.compile(r"\b([A-Z]\w*)\s*(?:const\s*)?[&*]?\s*(job|job_|spec|spec_)\b\s*[,)=;{]")


def rewrite_uses(text, fields):
    """fields: old -> (path, new, struct)."""
    declared = set(VAR.findall(text))
    # job/spec declared with another type (a JobResult& job) is not assumed to be a JobSpec
    other = {m.group(2) for m in OTHER_TYPE.finditer(text) if m.group(1) != "JobSpec"}
    names = (declared | (ALWAYS - other)) - NOT_NAMES
    var = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    field = "|".join(sorted(map(re.escape, fields), key=len, reverse=True))
    use = re.compile(r"(?<![\w])((?:%s)\s*(?:\.|->)\s*)(%s)\b(?!\s*\()" % (var, field))
    text = use.sub(lambda m: m.group(1) + fields[m.group(2)][0] + "." + fields[m.group(2)][1], text)
    pointer = re.compile(r"&\s*(?:sluice::)?JobSpec::(%s)\b" % field)
    text = pointer.sub(lambda m: "&%s::%s" % (fields[m.group(1)][2], fields[m.group(1)][1]), text)
    return text


def generate_job_part(files, parts):
    text = files[SPEC_H]
    begin, end = "// <job_part: generated by scripts/refactor/split-jobspec.py>\n", "// </job_part>\n"
    lines = [begin,
             "// The part of a JobSpec that holds options of type Part (the option rows' JobField reaches a field\n",
             "// of a part through it). JobSpec itself is the part of its top-level fields.\n",
             "template <typename Part>\n",
             "constexpr Part& job_part(JobSpec& job) noexcept {\n",
             "  if constexpr (std::is_same_v<Part, JobSpec>) {\n", "    return job;\n"]
    for p in parts:
        lines += ["  } else if constexpr (std::is_same_v<Part, %s>) {\n" % p["struct"],
                  "    return job.%s;\n" % p["path"]]
    lines += ["  } else {\n", "    static_assert(sizeof(Part) == 0, \"not a part of JobSpec\");\n", "  }\n", "}\n",
              end]
    block = "".join(lines)
    if begin in text:
        text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
    else:
        anchor = "\n// Global options that are not per job"
        text = text.replace(anchor, "\n" + block + anchor, 1)
    if "#include <type_traits>" not in text:
        text = text.replace("#include <string>\n", "#include <string>\n#include <type_traits>\n", 1)
    files[SPEC_H] = text


def field_table(parts):
    table = {}
    for p in parts:
        for old, new in p["fields"].items():
            table[old] = (p["path"], new, p["struct"])
    return table


ERR_MEMBER = re.compile(r"^(.*?):(\d+):(\d+): error: (?:‘[^’]*’ \{aka )?‘(?:const )?(?:struct )?(?:sluice::)?JobSpec’\}? "
                        r"has no member named ‘(\w+)’")
ERR_QUAL = re.compile(r"^(.*?):(\d+):(\d+): error: ‘(\w+)’ is not a member of ‘(?:sluice::)?JobSpec’")
ERR_OTHER = re.compile(r"^(.*?):(\d+):(\d+): error: (?:‘[^’]*’ \{aka )?‘(?:const )?(?:struct )?(?:sluice::)?(\w+)’\}? "
                       r"has no member named ‘(\w+)’")
ERR_SCOPE = re.compile(r"^(.*?):(\d+):(\d+): error: ‘(\w+)’ was not declared in this scope")


def fix_from_log(log, table):
    """Applies the fixes the compiler's messages point at; returns how many places changed."""
    edits = {}
    for line in log.splitlines():
        for kind, rx in (("member", ERR_MEMBER), ("qual", ERR_QUAL), ("scope", ERR_SCOPE)):
            m = rx.match(line)
            if not m or m.group(4) not in table:
                continue
            path = os.path.relpath(os.path.realpath(m.group(1)), ROOT)
            if kind == "scope" and not path.startswith("src/job/job_spec"):
                continue
            edits.setdefault(path, set()).add((int(m.group(2)), int(m.group(3)), kind, m.group(4)))
    # A use the heuristics took for a JobSpec's that is another type's (a JobResult's ioprio): undone.
    undo = {(part, new): old for old, (part, new, _) in table.items()}
    roots = {part.split(".")[0] for part, _ in undo}
    for line in log.splitlines():
        m = ERR_OTHER.match(line)
        if m and m.group(4) != "JobSpec" and m.group(5) in roots:
            path = os.path.relpath(os.path.realpath(m.group(1)), ROOT)
            edits.setdefault(path, set()).add((int(m.group(2)), int(m.group(3)), "undo", m.group(5)))
    changed = 0
    for path, places in edits.items():
        lines = read(path).split("\n")
        for line_no, col, kind, name in sorted(places, key=lambda e: (e[0], -e[1])):
            line = lines[line_no - 1]
            i = col - 1
            if kind == "undo":
                found = [(p, n) for (p, n) in undo if line.startswith(p + "." + n, i) and
                         not line[i + len(p) + 1 + len(n):i + len(p) + 2 + len(n)].isalnum()]
                if found:
                    p, n = max(found, key=lambda k: len(k[0]))
                    lines[line_no - 1] = line[:i] + undo[(p, n)] + line[i + len(p) + 1 + len(n):]
                    changed += 1
                continue
            part, new, struct = table[name]
            if kind == "qual":
                q = line.rfind("JobSpec::", 0, i + 1)
                if q < 0 or line[q + 9:q + 9 + len(name)] != name:
                    continue
                lines[line_no - 1] = line[:q] + struct + "::" + new + line[q + 9 + len(name):]
            elif kind == "scope":
                # gcc names a bare name once per function: every bare use from here to the function's end.
                bare = re.compile(r"(?<![\w.>:])%s\b(?!\s*\()" % re.escape(name))
                depth, k = 0, line_no - 1
                while k < len(lines) and depth >= 0:
                    lines[k] = bare.sub(part + "." + new, lines[k])
                    depth += lines[k].count("{") - lines[k].count("}")
                    k += 1
            else:
                if line[i:i + len(name)] != name:
                    continue
                lines[line_no - 1] = line[:i] + part + "." + new + line[i + len(name):]
            changed += 1
        write(path, "\n".join(lines))
    return changed


def syntax_check(build, only=None):
    """Runs every compile command with -fsyntax-only; returns {file: stderr} of those that failed."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        commands = json.load(f)
    failed = {}
    for c in commands:
        if only is not None and c["file"] not in only:
            continue
        args = shlex.split(c["command"])
        args = [a for a in args if not a.endswith("ccache")]
        if "-o" in args:
            i = args.index("-o")
            del args[i:i + 2]
        args = [a for a in args if a not in ("-c",) and not a.startswith(("-MD", "-MT", "-MF"))]
        proc = subprocess.run(args + ["-fsyntax-only", "-fmax-errors=0"], cwd=c["directory"], capture_output=True,
                              text=True)
        if proc.returncode != 0:
            failed[c["file"]] = proc.stderr
            print("  fails: " + os.path.relpath(c["file"], ROOT), file=sys.stderr)
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--concern", action="append", choices=sorted(MAP), help="default: all of MAP")
    ap.add_argument("--fix-from-errors", metavar="BUILD", help="compile BUILD's units -fsyntax-only and fix uses")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--errors-log", metavar="LOG", help="only fix the uses a build log's errors point at")
    ap.add_argument("--split-headers", action="store_true",
                    help="the header step: each part (and its types) into its own header, job_spec.h including them")
    ap.add_argument("--list", action="store_true", help="only list the map and the fields left at the top level")
    args = ap.parse_args()
    concerns = args.concern or list(MAP)
    all_parts = [p for c in MAP for p in MAP[c]]

    if args.errors_log:
        table = field_table([p for c in concerns for p in MAP[c]])
        with open(args.errors_log) as f:
            print("%d places fixed" % fix_from_log(f.read(), table))
    elif not args.list:
        files = {SPEC_H: read(SPEC_H), ENGINE_H: read(ENGINE_H)}
        for p in all_parts:
            if p["file"] not in files and os.path.exists(os.path.join(ROOT, p["file"])):
                files[p["file"]] = read(p["file"])
        for c in concerns:
            for p in MAP[c]:
                moved = move_declarations(files, p)
                if moved:
                    print("%s: moved %d fields into %s" % (c, len(moved), p["struct"]))
        roots = {p["path"]: p["struct"] for p in all_parts if "." not in p["path"]}
        present = [p for p in all_parts if body_range(files[home_of(files, p)], p["struct"]) and
                   "  %s %s;\n" % (roots[p["path"].split(".")[0]], p["path"].split(".")[0]) in files[SPEC_H]]
        generate_job_part(files, present)
        if args.split_headers:
            for path in split_headers(files, all_parts):
                print("header step: wrote " + path)
        for path, text in files.items():
            write(path, text)
        table = field_table([p for c in concerns for p in MAP[c]])
        # The header step moves no field: the uses are left alone (a rerun of the rewrite can redo a use that an
        # earlier --errors-log pass undid, as `job.latency_target` of a JobResult in a file that has a JobSpec job).
        for path in ([] if args.split_headers else source_files()):
            text = read(path)
            new = rewrite_uses(text, table)
            if new != text:
                write(path, new)
                print("rewrote " + path)
        if args.fix_from_errors:
            only = None
            for round_no in range(args.rounds):
                failed = syntax_check(args.fix_from_errors, only)
                changed = fix_from_log("\n".join(failed.values()), table)
                print("round %d: %d units fail, %d places fixed" % (round_no + 1, len(failed), changed))
                if not failed or changed == 0:
                    for text in failed.values():
                        print("\n".join(l for l in text.splitlines() if ": error:" in l)[:4000])
                    break
                only = set(failed)

    mapped = {f for p in all_parts for f in p["fields"]}
    left = [f for f in top_level_fields(read(SPEC_H)) if f not in PART_NAMES]
    print("JobSpec top-level fields: %d (not in the map: they stay)" % len(left))
    print("  " + " ".join(f for f in left if f not in mapped))
    stale = [f for f in left if f in mapped]
    if stale:
        print("mapped but still at the top level (run with their --concern): " + " ".join(stale))


if __name__ == "__main__":
    main()
