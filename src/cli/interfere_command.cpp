// sluice interfere --filename=F [--size=S] [--budget=T] [--threads=1,10] [--try KNOB=VALUE]...
#include <cstdio>

#include <fmt/format.h>

#include "cli/commands.h"
#include "common/error.h"
#include "method/interfere.h"
#include "run/stop_signal.h"
#include "job/units.h"

namespace sluice {
namespace {

constexpr const char* kInterfereUsage = R"(usage: sluice interfere --filename=FILE [options]

Does a bulk buffered copy starve synchronous small writes? For each foreground thread count, sluice runs
16 KiB random writes with an fsync after every write (psync, on FILE, laid out first) alone (phase "idle"),
then beside a background writer (phase "loaded"): buffered sequential writes of zeros in 1 KiB blocks to
FILE.sluice-bg on the same filesystem, like `dd if=/dev/zero of=dump bs=1k`, sized above the kernel's dirty
limit. It reports IOPS and latency (mean, p95, p99, max) idle vs loaded, the slowdown, the background
throughput, a per-second timeline (foreground IOPS and p99, /proc/meminfo Dirty and Writeback, device
utilization, in-flight ios and queue) and an explanation: the dirty limits in bytes (from vm.dirty_* against
dirtyable memory ~ MemFree + Active(file) + Inactive(file)) and how many seconds of device writing they hold.
The files sluice created are removed at the end, also when interrupted.

Options:
  --filename=FILE       the foreground file (required)
  --size=S              foreground file size (default 256m)
  --threads=LIST        foreground thread counts (default 1,10)
  --bs=S                foreground block size (default 16k; 4k is the other classic)
  --bg-bs=S             background block size (default 1k)
  --bg-size=S           background file size (default: 1.25 x the dirty limit, capped by free space)
  --budget=T            total time of all phases (default 2m), shared equally, at least 2 s a phase
  --try KNOB=VALUE[,KNOB=VALUE]
                        rerun the loaded phase with kernel knobs changed (repeatable; one trial each):
                        vm.dirty_bytes=15M, vm.dirty_background_bytes=5M, vm.dirty_ratio=N,
                        vm.dirty_background_ratio=N, queue.wbt_lat_usec=2000, queue.scheduler=none,
                        queue.nr_requests=N, ... Root only; every knob is journalled first and restored
                        after each trial, on SIGINT/SIGTERM, and after a crash (`sluice restore`).
                        Without root the trials are listed as not run and the rest runs.
  --output-format=FMT   normal (default) or json (fio's JSON of all phases plus sluice.interference)
  --output=FILE         write the report to FILE
)";

std::string value_of(const std::string& arg, const std::string& name) {
  const std::string prefix = name + "=";
  if (arg.rfind(prefix, 0) != 0) return {};
  std::string v = arg.substr(prefix.size());
  if (v.empty()) throw UserError(fmt::format("{}: needs a value", name));
  return v;
}

std::uint64_t size_arg(const std::string& name, const std::string& v, std::uint64_t min) {
  auto size = parse_size(v);
  if (!size || *size < min) throw UserError(fmt::format("{}={}: not a size of at least {}", name, v, min));
  return *size;
}

std::vector<KnobSetting> parse_try(const std::string& v) {
  std::vector<KnobSetting> out;
  std::size_t start = 0;
  while (start <= v.size()) {
    const std::size_t comma = std::min(v.find(',', start), v.size());
    const std::string item = v.substr(start, comma - start);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) {
      throw UserError(fmt::format("--try={}: write KNOB=VALUE, e.g. --try vm.dirty_bytes=15M", v));
    }
    out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    start = comma + 1;
  }
  return out;
}

std::vector<std::uint32_t> threads_arg(const std::string& v) {
  std::vector<std::uint32_t> out;
  std::size_t start = 0;
  while (start <= v.size()) {
    const std::size_t comma = std::min(v.find(',', start), v.size());
    const std::string item = v.substr(start, comma - start);
    char* end = nullptr;
    const unsigned long n = std::strtoul(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || n == 0 || n > 256) throw UserError(fmt::format("--threads={}: counts 1-256, e.g. 1,10", v));
    out.push_back(static_cast<std::uint32_t>(n));
    start = comma + 1;
  }
  return out;
}

}  // namespace

int interfere_command(const std::vector<std::string>& args) {
  InterfereOptions o;
  bool json = false;
  std::string output_path;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--help" || arg == "-h") {
      std::fputs(kInterfereUsage, stdout);
      return kExitOk;
    }
    if (arg == "--try") {
      if (i + 1 >= args.size()) throw UserError("--try: needs KNOB=VALUE");
      o.tries.push_back(parse_try(args[++i]));
    } else if (auto v = value_of(arg, "--try"); !v.empty()) {
      o.tries.push_back(parse_try(v));
    } else if (auto v = value_of(arg, "--filename"); !v.empty()) {
      o.filename = v;
    } else if (auto v = value_of(arg, "--size"); !v.empty()) {
      o.size = size_arg("--size", v, 1 << 20);
    } else if (auto v = value_of(arg, "--bs"); !v.empty()) {
      o.fg_bs = size_arg("--bs", v, 512);
    } else if (auto v = value_of(arg, "--bg-bs"); !v.empty()) {
      o.bg_bs = size_arg("--bg-bs", v, 1);
    } else if (auto v = value_of(arg, "--bg-size"); !v.empty()) {
      o.bg_size = size_arg("--bg-size", v, 1 << 20);
    } else if (auto v = value_of(arg, "--threads"); !v.empty()) {
      o.threads = threads_arg(v);
    } else if (auto v = value_of(arg, "--budget"); !v.empty()) {
      auto d = parse_duration(v, std::chrono::seconds(1));
      if (!d || d->count() <= 0) throw UserError(fmt::format("--budget={}: not a duration; durations look like 60, 2m", v));
      o.budget = *d;
    } else if (auto v = value_of(arg, "--output-format"); !v.empty()) {
      if (v != "normal" && v != "json") throw UserError(fmt::format("--output-format={}: choose normal or json", v));
      json = v == "json";
    } else if (auto v = value_of(arg, "--output"); !v.empty()) {
      output_path = v;
    } else if (auto v = value_of(arg, "--knob-root"); !v.empty()) {
      // Test seam: knobs under DIR/proc and DIR/sys, journal at DIR/knobs.journal (never the real kernel).
      o.knobs.roots.proc_root = v + "/proc";
      o.knobs.roots.sys_root = v + "/sys";
      o.knobs.journal_path = v + "/knobs.journal";
    } else {
      throw UserError(fmt::format("{}: unknown option for interfere (see sluice interfere --help)", arg));
    }
  }
  if (o.size % o.fg_bs != 0) throw UserError(fmt::format("--size must be a multiple of --bs ({})", o.fg_bs));
  const InterfereReport report = run_interfere(o);
  const std::string text = json ? render_interfere_json_text(report) : render_interfere_text(report);
  if (output_path.empty()) {
    std::fputs(text.c_str(), stdout);
  } else {
    std::FILE* f = std::fopen(output_path.c_str(), "w");
    if (!f || std::fputs(text.c_str(), f) < 0 || std::fclose(f) != 0) {
      throw UserError(fmt::format("--output={}: cannot write the file", output_path));
    }
  }
  if (!report.knobs_restored) return kExitError;
  return report.interrupted ? kExitInterrupted : kExitOk;
}

}  // namespace sluice
