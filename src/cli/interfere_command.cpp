// sluice interfere: does a bulk buffered writer starve fsync'd small writes? (method/interfere.h)
#include <fmt/format.h>

#include <cstdlib>

#include "cli/command_args.h"
#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/output.h"
#include "common/error.h"

namespace sluice {
namespace {

// Test hook, not a user option: when set, knobs are read and written under $SLUICE_KNOB_ROOT/proc and
// $SLUICE_KNOB_ROOT/sys and journalled at $SLUICE_KNOB_ROOT/knobs.journal, never in the real kernel.
constexpr const char* kKnobRootVariable = "SLUICE_KNOB_ROOT";

constexpr const char* kDescription =
    R"(Does a bulk buffered copy starve synchronous small writes? For each foreground thread count, sluice runs
16 KiB random writes with an fsync after every write (psync, on FILE, laid out first) alone (phase "idle"),
then beside a background flood (phase "loaded"): buffered sequential writes of zeros at full speed, in 1 MiB
blocks like cp (--bg-bs=1k: the notes' `dd bs=1k`), to FILE.sluice-bg on the same filesystem, sized 1.25 x
the kernel's dirty limit (capped by free space, and the report says so). One writer, unless a short probe of
its speed shows that one cannot reach the dirty limit early in a phase: then several, each on its own file
(FILE.sluice-bg.2, ...). It reports IOPS and latency (mean, p95, p99, max) idle vs loaded, the slowdown, the
background throughput, and whether the flood happened: Dirty + Writeback (/proc/meminfo, sampled each
second) against the point where the kernel throttles writers, (dirty limit + background threshold) / 2, with
the kernel's own thresholds (/proc/vmstat nr_dirty_threshold, nr_dirty_background_threshold; where absent,
vm.dirty_bytes or vm.dirty_ratio of dirtyable memory ~ MemFree + Active(file) + Inactive(file)). A loaded
phase that never got there "does not test writeback interference", and the report says why (free space, the
writer's speed, the phase's length). A per-second timeline
(foreground IOPS and p99, Dirty, Writeback, device utilization, in-flight ios and queue), the mechanism in
words (the flood, the journal, WBT, the scheduler) and a recommendation close the report. The files sluice
created are removed at the end, also when interrupted.
)";

constexpr const char* kNotes =
    R"(--try knobs: vm.dirty_bytes=15M, vm.dirty_background_bytes=5M, vm.dirty_ratio=N, vm.dirty_background_ratio=N,
queue.wbt_lat_usec=2000, queue.scheduler=none, queue.nr_requests=N, ... --try=auto tries a documented set:
vm.dirty_bytes/vm.dirty_background_bytes 256M/64M, 64M/16M and 15M/5M (those below the limit in force),
queue.wbt_lat_usec toggled (0 when on, 2000 when off), queue.scheduler bfq, mq-deadline and none (those the
device offers, but the current one) and queue.nr_requests=32. Root only; every knob is journalled first and
restored after each trial, on SIGINT/SIGTERM, and after a crash (`sluice restore`). Without root the trials
are listed as not run and the rest runs. A knob is recommended only when it helped in every run of its trial
and there were at least two (one per --threads count): a single run that helped is reported as a one-off.
)";

std::vector<KnobSetting> parse_try(const OptionValue& v) {
  std::vector<KnobSetting> out;
  if (v.list.size() == 1 && v.list.front() == "auto") return out;  // --try=auto (see kNotes)
  for (const std::string& item : v.list) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) {
      throw UserError(fmt::format("{}: write KNOB=VALUE, e.g. --try vm.dirty_bytes=15M", v.where));
    }
    out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return out;
}

std::uint32_t parse_writers(const OptionValue& v) {
  if (v.text == "auto") return 0;
  try {
    std::size_t used = 0;
    const unsigned long n = std::stoul(v.text, &used);
    if (used == v.text.size() && n >= 1 && n <= 64) return static_cast<std::uint32_t>(n);
  } catch (const std::exception&) {
  }
  throw UserError(fmt::format("{}: write a count from 1 to 64, or auto", v.where));
}

CommandTable<InterfereArgs> make_table() {
  CommandInfo info = command_info("interfere",
                                  "does a bulk buffered writer starve fsync'd small writes? idle vs loaded, a "
                                  "per-second writeback timeline, why (dirty limits), and --try kernel knobs safely",
                                  kDescription);
  info.notes = kNotes;
  CommandTable<InterfereArgs> t(std::move(info));
  t.add(text_arg("filename", "FILE", "", "the foreground file (required)"),
        [](InterfereArgs& a, const OptionValue& v) { a.options.filename = v.text; });
  t.add(size_arg("size", 1 << 20, "256m", "foreground file size"),
        [](InterfereArgs& a, const OptionValue& v) { a.options.size = v.number; });
  OptionInfo threads = list_arg("threads", "LIST", ValueType::kUnsigned, "1,10", "foreground thread counts");
  threads.min = 1;
  threads.max = 256;
  t.add(std::move(threads), [](InterfereArgs& a, const OptionValue& v) {
    a.options.threads.clear();
    for (const std::string& n : v.list) a.options.threads.push_back(static_cast<std::uint32_t>(std::stoul(n)));
  });
  t.add(size_arg("bs", 512, "16k", "foreground block size; 4k is the other classic"),
        [](InterfereArgs& a, const OptionValue& v) { a.options.fg_bs = v.number; });
  t.add(size_arg("bg-bs", 1, "1m", "background block size: 1m like cp, 1k like the notes' dd"),
        [](InterfereArgs& a, const OptionValue& v) { a.options.bg_bs = v.number; });
  t.add(size_arg("bg-size", 1 << 20, "",
                 "background files' total size; without it 1.25 x the dirty limit, capped by free space"),
        [](InterfereArgs& a, const OptionValue& v) { a.options.bg_size = v.number; });
  t.add(text_arg("bg-writers", "N|auto", "auto",
                 "background writers, each on its own file; auto: one, or up to the CPUs less one (at most 4) when a "
                 "probe shows one cannot reach the dirty limit in the first third of a phase"),
        [](InterfereArgs& a, const OptionValue& v) { a.options.bg_writers = parse_writers(v); });
  t.add(duration_arg("budget", "2m", "total time of all phases, shared equally, at least 2 s a phase"),
        [](InterfereArgs& a, const OptionValue& v) { a.options.budget = v.duration; });
  OptionInfo knobs = list_arg("try", "KNOB=VALUE", ValueType::kString, "",
                              "rerun the loaded phase with kernel knobs changed; one trial per --try, its settings "
                              "comma-separated; --try=auto: the documented set (see below)");
  knobs.repeatable = true;
  t.add(std::move(knobs), [](InterfereArgs& a, const OptionValue& v) {
    std::vector<KnobSetting> settings = parse_try(v);
    if (settings.empty())
      a.options.try_auto = true;
    else
      a.options.tries.push_back(std::move(settings));
  });
  t.add(list_arg("set", "KNOB=VALUE", ValueType::kString, "",
                 "run every phase (and the trials, on top) with these kernel knobs, comma-separated, e.g. the dirty "
                 "limits of a machine with less memory: vm.dirty_bytes=256M,vm.dirty_background_bytes=64M; "
                 "journalled and restored at the end, as --try's"),
        [](InterfereArgs& a, const OptionValue& v) {
          std::vector<KnobSetting> settings = parse_try(v);
          if (settings.empty()) throw UserError(v.where + ": --set takes KNOB=VALUE settings, not auto");
          a.options.base = std::move(settings);
        });
  add_output_options(t, &InterfereArgs::output);
  add_history_options(t, &InterfereArgs::history);
  return t;
}

const CommandTable<InterfereArgs>& table() {
  static const CommandTable<InterfereArgs> kTable = make_table();
  return kTable;
}

void apply_knob_root(InterfereOptions& o) {
  const char* root = std::getenv(kKnobRootVariable);
  if (root == nullptr || *root == '\0') return;
  const std::string dir = root;
  o.knobs.roots.proc_root = dir + "/proc";
  o.knobs.roots.sys_root = dir + "/sys";
  o.knobs.journal_path = dir + "/knobs.journal";
}

}  // namespace

const CommandInfo& interfere_command_info() { return table().info(); }

InterfereArgs parse_interfere_args(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  InterfereArgs out;
  table().apply(parsed, out, nullptr);
  return out;
}

int interfere_command(const std::vector<std::string>& args) {
  InterfereArgs cli = parse_interfere_args(args);
  InterfereOptions& o = cli.options;
  if (o.size % o.fg_bs != 0) throw UserError(fmt::format("--size must be a multiple of --bs ({})", o.fg_bs));
  apply_knob_root(o);
  return run_measured({"interfere", args, ""}, cli.history, cli.output, [&](bool json_plus) {
    const InterfereReport report = run_interfere(o);
    const int exit_code = !report.knobs_restored ? kExitError : report.interrupted ? kExitInterrupted : kExitOk;
    return Measurement{render_interfere_text(report), render_interfere_json_text(report, json_plus), exit_code};
  });
}

}  // namespace sluice
