// sluice sysbench fileio prepare|run|cleanup: sysbench 1.0's fileio test on sluice's engines (src/suites/).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/command_args.h"
#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/output.h"
#include "common/clock.h"
#include "common/nearest.h"
#include "job/job_spec.h"
#include "job/units.h"
#include "observe/environment.h"
#include "report/result_document.h"
#include "suites/sysbench_files.h"
#include "suites/sysbench_report.h"
#include "suites/sysbench_run.h"
#include "version.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(sysbench 1.0's fileio test with its options, defaults, counting and report, run on sluice's engines
and statistics. As with sysbench, the files test_file.0 .. test_file.<N-1> live in the current directory
(or --dir):
  sluice sysbench fileio --file-total-size=1G prepare
  sluice sysbench fileio --file-total-size=1G --file-test-mode=rndwr --file-fsync-freq=1 run
  sluice sysbench fileio --file-total-size=1G cleanup
sysbench 0.4's spellings work as in sysbench 1.0.20, with its warnings: --test=fileio, --num-threads,
--max-requests, --max-time (a 0.x name given 0 is ignored, as there); build/sysbench (a link) runs this command.
Counted as sysbench counts: an event is one read, write or periodic fsync (every --file-fsync-freq requests
one fsync per file, all threads together); the fsyncs each thread does at the end (--file-fsync-end) count
in fsyncs/s and in the total time, not as events; with --file-fsync-all the fsync is inside its write's
event. Sequential modes share one cursor over the files; rndrw steers its mix by each thread's completed reads
and writes. The report is sysbench 1.0.20's layout, its percentile from its own log-bucket grid, followed by
sluice's exact percentiles, the engine and the environment. --output-format=json puts the same numbers in
"sluice"."sysbench".
)";

const std::vector<ChoiceOf<SysbenchMode>> kModes = {
    {"seqwr", SysbenchMode::kSeqwr}, {"seqrewr", SysbenchMode::kSeqrewr}, {"seqrd", SysbenchMode::kSeqrd},
    {"rndrd", SysbenchMode::kRndrd}, {"rndwr", SysbenchMode::kRndwr},     {"rndrw", SysbenchMode::kRndrw}};
const std::vector<ChoiceOf<SysbenchIoMode>> kIoModes = {
    {"sync", SysbenchIoMode::kSync}, {"async", SysbenchIoMode::kAsync}, {"mmap", SysbenchIoMode::kMmap}};
// sysbench's boolean spellings.
const std::vector<ChoiceOf<bool>> kOnOff = {{"on", true},  {"off", false}, {"yes", true},
                                            {"no", false}, {"true", true}, {"false", false}};
const std::vector<std::string> kCommands = {"prepare", "run", "cleanup"};

// sysbench 1.0's 0.x spellings, in the order it warns about them: it copies a value to the new option, with a
// warning, only when the value is neither 0 nor the old option's default (measured on Debian's 1.0.20:
// --num-threads=0 and 1, --max-time=0, --max-requests=0 are silently ignored).
struct DeprecatedSpelling {
  const char* old_name;
  const char* new_name;
  std::uint64_t old_default;
};
constexpr DeprecatedSpelling kDeprecatedSpellings[] = {
    {"num-threads", "threads", 1}, {"max-requests", "events", 0}, {"max-time", "time", 0}};

struct SysbenchArgs {
  SysbenchOptions options;
  std::string test;
  std::string test_option;                // --test=NAME, sysbench 0.4's spelling
  std::vector<std::string> deprecations;  // sysbench 1.0's warnings for the 0.x spellings used, in its order
  std::optional<std::uint64_t> old_spellings[std::size(kDeprecatedSpellings)];  // as given
  std::string command;
  OutputChoice output;
  HistoryChoice history;
};

CommandTable<SysbenchArgs> make_table() {
  CommandInfo info = command_info("sysbench",
                                  "sysbench 1.0's fileio test (prepare, run, cleanup) with its report, plus exact "
                                  "latency percentiles, environment and JSON",
                                  kDescription);
  // Required, but checked in parse(): the table's generic checks (tests/cli) parse one option alone.
  info.positionals = {{"fileio", "the test: fileio (sysbench's other tests are not file I/O)", false},
                      {"COMMAND", "prepare, run or cleanup", false}};
  CommandTable<SysbenchArgs> t(std::move(info));
  using A = SysbenchArgs;
  using V = OptionValue;
  t.add(count_arg("file-num", 1, 1u << 20, "128", "number of files to create"),
        [](A& a, const V& v) { a.options.file_num = v.number; });
  t.add(size_arg("file-total-size", 1, "2G", "total size of the files; each is the total / --file-num"),
        [](A& a, const V& v) { a.options.total_size = v.number; });
  t.add(size_arg("file-block-size", 1, "16384", "bytes per request"),
        [](A& a, const V& v) { a.options.block_size = v.number; });
  t.add(choice_arg<SysbenchMode>("file-test-mode", kModes, "",
                                 "the test, required for run: sequential write (new files), rewrite "
                                 "or read; random read, write or read/write"),
        [](A& a, SysbenchMode mode) { a.options.mode = mode; });
  t.add(choice_arg<SysbenchIoMode>("file-io-mode", kIoModes, "sync",
                                   "sync: pread/pwrite (psync engine); async: libaio with "
                                   "--file-async-backlog in flight per thread; mmap: memcpy to a mapping"),
        [](A& a, SysbenchIoMode mode) { a.options.io_mode = mode; });
  t.add(count_arg("file-async-backlog", 1, 65536, "128", "ios in flight per thread in async mode"),
        [](A& a, const V& v) { a.options.async_backlog = static_cast<std::uint32_t>(v.number); });
  OptionInfo flags =
      list_arg("file-extra-flags", "LIST", ValueType::kChoice, "",
               "extra open flags for prepare and run: sync (O_SYNC), dsync (O_DSYNC), direct (O_DIRECT)");
  flags.choices = {"sync", "dsync", "direct"};
  t.add(std::move(flags), [](A& a, const V& v) {
    for (const std::string& f : v.list) {
      a.options.o_sync |= f == "sync";
      a.options.o_dsync |= f == "dsync";
      a.options.o_direct |= f == "direct";
    }
  });
  t.add(count_arg("file-fsync-freq", 0, ~0ull, "100", "every N requests, one fsync per file (0: none)"),
        [](A& a, const V& v) { a.options.fsync_freq = v.number; });
  t.add(choice_arg<bool>("file-fsync-all", kOnOff, "off",
                         "fsync after every write (turns off the periodic and end fsyncs)"),
        [](A& a, bool on) { a.options.fsync_all = on; });
  t.add(choice_arg<bool>("file-fsync-end", kOnOff, "on", "each thread fsyncs every file at the end (writing modes)"),
        [](A& a, bool on) { a.options.fsync_end = on; });
  t.add(choice_arg<SysbenchFsyncMode>(
            "file-fsync-mode", {{"fsync", SysbenchFsyncMode::kFsync}, {"fdatasync", SysbenchFsyncMode::kFdatasync}},
            "fsync", "the sync call (msync in mmap mode)"),
        [](A& a, SysbenchFsyncMode mode) { a.options.fsync_mode = mode; });
  t.add(count_arg("file-merged-requests", 0, 1u << 20, "0", "sequential modes: requests of block size x N"),
        [](A& a, const V& v) { a.options.merged_requests = v.number; });
  t.add(text_arg("file-rw-ratio", "R", "1.5", "rndrw: reads per write"), [](A& a, const V& v) {
    const auto r = parse_double(v.text);
    if (!r || *r <= 0) throw UserError(v.where + ": not a positive number; e.g. --file-rw-ratio=1.5");
    a.options.rw_ratio = *r;
  });
  t.add(count_arg("threads", 1, 4096, "1", "worker threads, sharing one request generator"),
        [](A& a, const V& v) { a.options.threads = static_cast<std::uint32_t>(v.number); });
  t.add(count_arg("time", 0, ~0ull, "10", "run time in seconds, as sysbench (a bare number); 0: no limit"),
        [](A& a, const V& v) { a.options.time_s = v.number; });
  t.add(count_arg("events", 0, ~0ull, "0", "stop after N events, fsync events included; 0: no limit"),
        [](A& a, const V& v) { a.options.events = v.number; });
  // sysbench 0.x's names, which 1.0 still takes (apply_deprecated_spellings says how).
  for (std::size_t i = 0; i < std::size(kDeprecatedSpellings); ++i) {
    const DeprecatedSpelling& d = kDeprecatedSpellings[i];
    t.add(count_arg(d.old_name, 0, ~0ull, "",
                    fmt::format("sysbench 0.x's --{} (deprecated: sysbench 1.0 warns, and ignores {})", d.new_name,
                                d.old_default == 0 ? "0" : "0 and 1")),
          [i](A& a, const V& v) { a.old_spellings[i] = v.number; });
  }
  t.add(count_arg("report-interval", 0, 86400, "0", "print an intermediate line every N seconds; 0: none"),
        [](A& a, const V& v) { a.options.report_interval_s = v.number; });
  t.add(count_arg("percentile", 0, 100, "95", "the latency percentile of the report; 0: none"),
        [](A& a, const V& v) { a.options.percentile = static_cast<std::uint32_t>(v.number); });
  t.add(count_arg("rand-seed", 0, ~0ull, "0", "seed of the random offsets; 0: from the time"),
        [](A& a, const V& v) { a.options.rand_seed = v.number; });
  t.add(choice_arg<bool>("histogram", kOnOff, "off",
                         "print the latency histogram (sysbench's buckets) before the report"),
        [](A& a, bool on) { a.options.histogram = on; });
  t.add(text_arg("dir", "DIR", ".", "where the test files are (sysbench: the current directory)"),
        [](A& a, const V& v) { a.options.dir = v.text; });
  // sysbench 1.0's general options that do not change the fileio test: taken as sysbench takes them.
  for (const char* name : {"debug", "verbosity", "thread-stack-size", "db-driver", "forced-shutdown", "rand-type",
                           "rand-spec-iter", "rand-spec-pct", "rand-spec-res", "rand-pareto-h", "rand-zipfian-exp"}) {
    t.add(text_arg(name, "VALUE", "",
                   "sysbench's general option: accepted, without effect on the fileio test (as in "
                   "sysbench 1.0.20; sluice stops at --time itself)"),
          [](A&, const V&) {});
  }
  // ... and those that would change it, accepted at their defaults only.
  t.add(text_arg("validate", "on|off", "off", "sysbench's validation of the data read: only off (not implemented)"),
        [](A&, const V& v) {
          const std::optional<bool> on = parse_bool(v.text);
          if (!on) throw UserError(v.where + ": on or off");
          if (*on)
            throw UserError(v.where +
                            ": sysbench's data validation is not implemented by sluice sysbench; "
                            "sluice run --verify=crc32c checks what it reads");
        });
  t.add(count_arg("rate", 0, ~0ull, "0", "sysbench's events-per-second limit: only 0 (none; not implemented)"),
        [](A&, const V& v) {
          if (v.number != 0)
            throw UserError(v.where +
                            ": a rate limit is not implemented by sluice sysbench; "
                            "sluice run --rate_iops=N limits a job's IOPS");
        });
  t.add(text_arg("report-checkpoints", "LIST", "",
                 "sysbench's full reports at given times: only empty (not implemented)"),
        [](A&, const V& v) {
          if (!v.text.empty())
            throw UserError(v.where +
                            ": checkpoint reports are not implemented by sluice sysbench; "
                            "--report-interval prints intermediate lines");
        });
  t.add(text_arg("test", "NAME", "",
                 "sysbench 0.4's way to name the test (--test=fileio); sysbench 1.0 still accepts it and warns, "
                 "as sluice does"),
        [](A& a, const V& v) { a.test_option = v.text; });
  add_output_options(t, &A::output);
  add_history_options(t, &A::history);
  return t;
}

// Applies the 0.x spellings given as sysbench 1.0 does and returns its warnings, in its order.
std::vector<std::string> apply_deprecated_spellings(SysbenchArgs& a) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < std::size(kDeprecatedSpellings); ++i) {
    const DeprecatedSpelling& d = kDeprecatedSpellings[i];
    const std::optional<std::uint64_t>& value = a.old_spellings[i];
    if (!value || *value == 0 || *value == d.old_default) continue;
    if (i == 0 && *value > 4096) throw UserError(fmt::format("--num-threads={}: not a number in 1-4096", *value));
    if (i == 0) a.options.threads = static_cast<std::uint32_t>(*value);
    if (i == 1) a.options.events = *value;
    if (i == 2) a.options.time_s = *value;
    out.push_back(fmt::format("WARNING: --{} is deprecated, use --{} instead", d.old_name, d.new_name));
  }
  return out;
}

const CommandTable<SysbenchArgs>& table() {
  static const CommandTable<SysbenchArgs> kTable = make_table();
  return kTable;
}

// What sysbench refuses before touching a file.
void check_options(const SysbenchArgs& a) {
  const SysbenchOptions& o = a.options;
  if (o.file_size() == 0) {
    throw UserError(fmt::format("--file-total-size={} is smaller than --file-num={} bytes: each file would be empty",
                                o.total_size, o.file_num));
  }
  if (o.block_size > o.file_size()) {
    throw UserError(fmt::format("--file-block-size={} is larger than each file ({}B = --file-total-size / --file-num)",
                                o.block_size, sysbench_size_text(static_cast<double>(o.file_size()))));
  }
  if (o.o_direct && o.block_size % 512 != 0) {
    throw UserError(
        fmt::format("--file-block-size={} with --file-extra-flags=direct: must be a multiple of 512, "
                    "e.g. --file-block-size={}",
                    o.block_size, (o.block_size / 512 + 1) * 512));
  }
  if (a.command == "run" && !o.mode) {
    throw UserError(
        "sysbench fileio run: missing required argument: --file-test-mode (one of seqwr, seqrewr, seqrd, "
        "rndrd, rndwr, rndrw)");
  }
}

SysbenchArgs parse(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  SysbenchArgs out;
  table().apply(parsed, out, nullptr);
  out.deprecations = apply_deprecated_spellings(out);
  const std::vector<std::string>& words = parsed.positionals;
  if (!out.test_option.empty()) {  // as sysbench 1.0: --test names the test; a test word before the command is ignored
    if (words.empty() || words.size() > 2) {
      throw UserError(
          fmt::format("sysbench --test={}: the test needs a command: prepare, run or cleanup", out.test_option));
    }
    out.test = out.test_option;
    out.command = words.back();
  } else {
    if (words.size() < 2) {
      throw UserError(
          "sysbench needs the test and a command: sluice sysbench fileio [options] prepare|run|cleanup "
          "(sluice sysbench --help lists the options)");
    }
    out.test = words.at(0);
    out.command = words.at(1);
  }
  if (out.test != "fileio") {
    throw UserError(
        fmt::format("sysbench {}: sluice runs sysbench's fileio test only; did you mean fileio?", out.test));
  }
  if (std::find(kCommands.begin(), kCommands.end(), out.command) == kCommands.end()) {
    const std::string nearest = nearest_of(out.command, kCommands);
    throw UserError(fmt::format("sysbench fileio {}: unknown command; the commands are prepare, run and cleanup{}",
                                out.command, nearest.empty() ? "" : "; did you mean " + nearest + "?"));
  }
  normalise_sysbench_options(out.options);
  check_options(out);
  return out;
}

std::string banner() { return fmt::format("sluice {} (sysbench 1.0.20 fileio)\n\n", SLUICE_VERSION); }

bool wants_normal(const OutputChoice& output) {
  for (RunOptions::OutputFormat f : output.formats) {
    if (f == RunOptions::OutputFormat::kNormal) return true;
  }
  return false;
}

// The whole result as one document: the envelope (report/result_document.h), the test's numbers in
// "sluice"."sysbench".
nlohmann::json sysbench_document(const SysbenchArgs& a, const SysbenchRunResult& r, std::uint64_t started_ms,
                                 const nlohmann::json& environment, const std::vector<Problem>& warnings) {
  nlohmann::json warn = nlohmann::json::array();
  for (const Problem& p : warnings) warn.push_back({{"option", p.option}, {"message", p.message}, {"code", p.code}});
  return result_document(ResultEnvelope{"sysbench fileio run", started_ms, "", clock_source_name()},
                         nlohmann::json::object(),
                         {{"interrupted", r.interrupted},
                          {"warnings", warn},
                          {"environment", environment},
                          {"sysbench", sysbench_json(a.options, r)}});
}

// One repetition of `run`: the text report (without what was already shown live) and the JSON document.
Measurement run_test(const SysbenchArgs& a) {
  const bool normal = wants_normal(a.output) && a.output.path.empty() && a.history.repeat == 1;
  const SysbenchOptions& o = a.options;
  std::vector<int> fds = sysbench_open_files(o);
  const nlohmann::json environment = capture_environment({sysbench_file_path(o, 0)});
  const std::vector<Problem> warnings = sysbench_warnings(o, environment);
  const std::uint64_t started_ms = wall_clock_ms();
  const std::uint64_t seed = o.rand_seed != 0 ? o.rand_seed : started_ms;
  // sysbench prints the header and the interval lines as it goes; so does the normal format on stdout.
  if (normal) {
    std::fputs((banner() + render_sysbench_header(o)).c_str(), stdout);
    std::fflush(stdout);
  }
  SysbenchRunResult result;
  try {
    result = run_sysbench(o, fds, sysbench_engine_for(o.io_mode), seed, [&](const SysbenchInterval& iv) {
      if (!normal) return;
      std::fputs(render_sysbench_interval(sysbench_interval_json(iv, o.percentile), o.percentile).c_str(), stdout);
      std::fflush(stdout);
    });
  } catch (...) {
    sysbench_close_files(fds);
    throw;
  }
  sysbench_close_files(fds);
  const nlohmann::json doc = sysbench_document(a, result, started_ms, environment, warnings);
  print_warnings(warnings);
  std::string text = render_sysbench_report(doc["sluice"]["sysbench"], environment);
  if (!normal) {  // not shown live: the whole text, interval lines included
    std::string lines;
    for (const nlohmann::json& iv : doc["sluice"]["sysbench"]["intervals"])
      lines += render_sysbench_interval(iv, o.percentile);
    text = banner() + render_sysbench_header(o) + lines + text;
  }
  return Measurement{std::move(text), doc.dump(2) + "\n", result.interrupted ? kExitInterrupted : kExitOk};
}

}  // namespace

const CommandInfo& sysbench_command_info() { return table().info(); }

// sysbench 1.0.20's warnings for its 0.x spellings: --test's on stderr, the others with the report (stdout when
// the report goes there in its own format, else stderr, so that a JSON document stays whole).
void print_deprecations(const SysbenchArgs& a) {
  if (!a.test_option.empty()) {
    std::fputs(
        "WARNING: the --test option is deprecated. You can pass a script name or path on the command line "
        "without any options.\n",
        stderr);
  }
  const bool with_report =
      a.command != "run" || (wants_normal(a.output) && a.output.formats.size() == 1 && a.output.path.empty());
  for (const std::string& w : a.deprecations) std::fprintf(with_report ? stdout : stderr, "%s\n", w.c_str());
  std::fflush(stdout);
}

int sysbench_command(const std::vector<std::string>& args) {
  const SysbenchArgs a = parse(args);
  print_deprecations(a);
  if (a.command == "prepare") {
    std::fputs((banner() + render_sysbench_prepare_intro(a.options)).c_str(), stdout);
    std::fflush(stdout);
    write_documents({render_sysbench_prepare(a.options, sysbench_prepare(a.options))}, "");
    return kExitOk;
  }
  if (a.command == "cleanup") {
    write_documents({banner() + "Removing test files...\n"}, "");
    sysbench_cleanup(a.options);
    return kExitOk;
  }
  return run_measured({"sysbench", args, ""}, a.history, a.output, [&](bool) { return run_test(a); });
}

}  // namespace sluice
