// sluice iozone: IOzone 3.414's auto matrix and tests 0-7 with its report (suites/iozone_*.h), run on sluice's
// engines, plus latency percentiles per cell, the page-cache lint, CSV and JSON.
#include <fmt/format.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/command_args.h"
#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/output.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "job/job_spec.h"
#include "job/units.h"
#include "observe/environment.h"
#include "observe/writeback_sampler.h"
#include "report/result_document.h"
#include "suites/iozone_report.h"
#include "suites/iozone_run.h"

namespace sluice {
namespace {

constexpr const char* kDescription = R"(IOzone 3.414's file tests, options and report, run on sluice's engines:
  sluice iozone -a                      the auto matrix: files 64 KB-512 MB x records 4 KB-16 MB
  sluice iozone -Ra -g 64m -f /mnt/x/iozone.tmp
  sluice iozone -i 0 -i 1 -s 256k -r 4k -I -e
Options are iozone's single-dash ones (grouped as getopt reads them: -Ra, -i0, -s 256k); each also has a
--long name. Sizes for -s, -r, -n, -g, -y, -q are iozone's: a bare number is kB (-s 512 is 512 KB, where
sluice's own sizes read 512 as bytes); k, m, g suffixes mean KiB, MiB, GiB as everywhere in sluice.
Per cell the selected tests run in iozone's order on one file, which is removed afterwards: write/rewrite,
read/reread, random read/write (one fixed-seed permutation, every record once), backward read, record rewrite
(offset 0 again and again), stride read (17 records), fwrite/frewrite and fread/freread (stdio with a
record-sized buffer; -I does not apply to them, as in iozone). Timed as iozone times: the record loop, plus
fsync with -e and close with -c; without them the fsync and close happen after the window, so writes can
measure the page cache. kB/s with kB = 1024, truncated to an integer. In -a, files over 16 MB get records of
64 KB and up only, unless -z or any of -s, -r, -y, -q is given.
After iozone's report sluice adds whether each file size fits in the page cache (MemAvailable, -I);
--format=csv prints the matrix as CSV instead; --output-format=json puts every cell (bytes, seconds, kB/s,
latency percentiles of the record calls, CPU) in "sluice"."iozone". -b FILE writes the -R tables as CSV.
The file (-f, default iozone.tmp) must not exist; it is journaled and removed at the end and on Ctrl-C.
)";

struct IozoneArgs {
  IozoneOptions options;
  bool csv = false;
  OutputChoice output;
  HistoryChoice history;
};

OptionInfo dash(OptionInfo o, std::string spelling) {
  o.dash_names = {std::move(spelling)};
  return o;
}

std::uint64_t kb_of(const OptionValue& v) {
  const auto kb = parse_iozone_kb(v.text);
  if (!kb) {
    throw UserError(v.where + ": not an iozone size; a bare number is kB (512), or 4k, 16m, 1g (a whole number of kB)");
  }
  return *kb;
}

std::vector<RefusedOption> refused_options() {
  return {{"-t", "throughput mode with N processes"},
          {"-T", "throughput mode with threads"},
          {"-l", "lower process count"},
          {"-u", "upper process count"},
          {"-+m", "cluster mode"},
          {"-E", "extension tests 9-12 (pwrite/pread)"},
          {"-O", "ops/s output"},
          {"-N", "us/op output"},
          {"-w", "keep the file"},
          {"-+n", "no retests"},
          {"-j", "stride size"},
          {"-o", "O_SYNC writes"},
          {"-p", "purge the processor cache"},
          {"-k", "POSIX async I/O"},
          {"-K", "noise in random tests"},
          {"-m", "multiple buffers"},
          {"-M", "uname in the report"},
          {"-B", "mmap files"},
          {"-D", "msync async"},
          {"-G", "msync sync"},
          {"-V", "verify pattern"},
          {"-W", "lock files"},
          {"-x", "stone-walling off"},
          {"-Z", "mixed mmap"},
          {"-C", "bytes per child"},
          {"-S", "processor cache size"},
          {"-L", "cache line size"},
          {"-P", "bind CPUs"},
          {"-U", "remount"},
          {"-X", "write telemetry"},
          {"-Y", "read telemetry"},
          {"-+x", "size multiplier"},
          {"-+w", "dedupe percentage"},
          {"-+r", "O_RSYNC"},
          {"-+p", "mix read percentage"},
          {"-+d", "diagnostic mode"}};
}

CommandTable<IozoneArgs> make_table() {
  CommandInfo info = command_info("iozone",
                                  "IOzone 3.414's auto matrix and file tests with its report, plus latency "
                                  "percentiles, the page-cache lint, CSV and JSON",
                                  kDescription);
  info.refused = refused_options();
  CommandTable<IozoneArgs> t(std::move(info));
  using A = IozoneArgs;
  using V = OptionValue;
  t.add(dash(flag_arg("auto", "auto mode: the matrix of file and record sizes"), "-a"),
        [](A& a, const V&) { a.options.auto_mode = true; });
  t.add(dash(flag_arg("no-crossover", "-a: test small records on large files too (no crossover rule)"), "-z"),
        [](A& a, const V&) { a.options.no_crossover = true; });
  t.add(dash(text_arg("min-file-size", "KB", "64", "-a: the smallest file"), "-n"),
        [](A& a, const V& v) { a.options.min_file_kb = kb_of(v); });
  t.add(dash(text_arg("max-file-size", "KB", "512m", "-a: the largest file"), "-g"),
        [](A& a, const V& v) { a.options.max_file_kb = kb_of(v); });
  t.add(dash(text_arg("min-record-size", "KB", "4", "-a: the smallest record"), "-y"),
        [](A& a, const V& v) { a.options.min_rec_kb = kb_of(v); });
  t.add(dash(text_arg("max-record-size", "KB", "16m", "-a: the largest record"), "-q"),
        [](A& a, const V& v) { a.options.max_rec_kb = kb_of(v); });
  OptionInfo test = dash(count_arg("test", 0, 12, "",
                                   "a test to run: 0 write/rewrite, 1 read/reread, 2 random "
                                   "read/write, 3 backward read, 4 record rewrite, 5 stride read, "
                                   "6 fwrite/frewrite, 7 fread/freread (default: all of 0-7)"),
                         "-i");
  test.repeatable = true;
  t.add(std::move(test), [](A& a, const V& v) { a.options.tests.push_back(static_cast<int>(v.number)); });
  OptionInfo size =
      dash(text_arg("file-size", "KB", "512", "the file size (with -a: instead of the -n..-g range)"), "-s");
  size.repeatable = true;
  t.add(std::move(size), [](A& a, const V& v) { a.options.file_kb.push_back(kb_of(v)); });
  OptionInfo rec =
      dash(text_arg("record-size", "KB", "4", "the record size (with -a: instead of the -y..-q range)"), "-r");
  rec.repeatable = true;
  t.add(std::move(rec), [](A& a, const V& v) { a.options.rec_kb.push_back(kb_of(v)); });
  t.add(dash(flag_arg("direct", "O_DIRECT for tests 0-5 (not for the stdio tests 6 and 7)"), "-I"),
        [](A& a, const V&) { a.options.direct = true; });
  t.add(dash(flag_arg("fsync", "include fsync (fflush+fsync for stdio) in the timing"), "-e"),
        [](A& a, const V&) { a.options.fsync_in_timing = true; });
  t.add(dash(flag_arg("close", "include close in the timing"), "-c"),
        [](A& a, const V&) { a.options.close_in_timing = true; });
  t.add(dash(text_arg("file", "FILE", "iozone.tmp", "the test file; must not exist (sluice creates and removes it)"),
             "-f"),
        [](A& a, const V& v) { a.options.file = v.text; });
  t.add(
      dash(flag_arg("excel", "after the rows, the Excel-style tables (one per column, file size x record size)"), "-R"),
      [](A& a, const V&) { a.options.excel = true; });
  t.add(dash(text_arg("excel-file", "FILE", "", "write the -R tables to FILE as CSV (iozone writes BIFF .xls)"), "-b"),
        [](A& a, const V& v) { a.options.excel_file = v.text; });
  t.add(dash(flag_arg("cpu", "CPU utilisation per pass: -R adds its tables, JSON has cpu_percent"), "-+u"),
        [](A& a, const V&) { a.options.cpu = true; });
  t.add(choice_arg<bool>("format", {{"text", false}, {"csv", true}}, "text",
                         "text: iozone's report and sluice's lint; csv: the matrix, one line per cell"),
        [](A& a, bool csv) { a.csv = csv; });
  add_output_options(t, &A::output);
  add_history_options(t, &A::history);
  return t;
}

const CommandTable<IozoneArgs>& table() {
  static const CommandTable<IozoneArgs> kTable = make_table();
  return kTable;
}

std::string directory_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// What iozone would fail on midway, refused before anything is written.
void check_target(const IozoneOptions& o, const IozonePlan& plan) {
  if (::access(o.file.c_str(), F_OK) == 0) {
    throw UserError(
        fmt::format("-f {}: the file exists; sluice iozone creates its own file and removes it "
                    "afterwards, so it will not write over this one: remove it or name another",
                    o.file));
  }
  const std::string dir = directory_of(o.file);
  struct statvfs fs {};
  if (::statvfs(dir.c_str(), &fs) != 0 || ::access(dir.c_str(), W_OK) != 0) {
    throw UserError(fmt::format("-f {}: the directory '{}' does not exist or is not writable", o.file, dir));
  }
  std::uint64_t largest = 0;
  for (const IozoneCell& c : plan.cells) largest = std::max(largest, c.file_kb * 1024);
  const std::uint64_t free_bytes = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
  if (largest > free_bytes) {
    std::uint64_t fits_kb = 64;
    while (fits_kb * 2 * 1024 <= free_bytes) fits_kb *= 2;
    throw UserError(
        fmt::format("-f {}: the largest file ({}) does not fit in the {} free in '{}'; use -g {}k or "
                    "another directory",
                    o.file, format_bytes(static_cast<double>(largest)), format_bytes(static_cast<double>(free_bytes)),
                    dir, fits_kb));
  }
}

bool wants_normal(const OutputChoice& output) {
  for (RunOptions::OutputFormat f : output.formats) {
    if (f == RunOptions::OutputFormat::kNormal) return true;
  }
  return false;
}

std::uint64_t mem_available() {
  const auto info = read_meminfo();
  return info ? info->mem_available : 0;
}

nlohmann::json iozone_document(std::uint64_t started_ms, const nlohmann::json& iozone,
                               const nlohmann::json& environment, bool interrupted) {
  return result_document(ResultEnvelope{"iozone", started_ms, "", clock_source_name()}, nlohmann::json::object(),
                         {{"interrupted", interrupted}, {"environment", environment}, {"iozone", iozone}});
}

Measurement run_test(const IozoneArgs& a, const IozonePlan& plan, const std::string& command_line) {
  const IozoneOptions& o = a.options;
  const bool live = wants_normal(a.output) && a.output.path.empty() && a.history.repeat == 1 && !a.csv;
  const std::uint64_t memory = mem_available();
  const nlohmann::json environment = capture_environment({directory_of(o.file)});
  const std::uint64_t started_ms = wall_clock_ms();
  const auto began = static_cast<std::time_t>(started_ms / 1000);
  std::string head = render_iozone_header(o, command_line, began, 1);
  std::string rows;
  if (live) {
    std::fputs((head + "\n" + render_iozone_titles()).c_str(), stdout);
    std::fflush(stdout);
  }
  const IozoneRunResult result = run_iozone(o, plan, o.file, [&](const IozoneCellResult& cell) {
    if (!live) return;
    std::fputs(render_iozone_row(cell).c_str(), stdout);
    std::fflush(stdout);
  });
  head = render_iozone_header(o, command_line, began, result.time_resolution_ns);
  for (const IozoneCellResult& cell : result.cells) rows += render_iozone_row(cell);
  std::string tail = render_iozone_end(o, plan, result.cells) + render_iozone_lint(o, plan, memory);
  if (result.interrupted) tail += "sluice: interrupted; the cells above were measured before the stop\n";
  if (!o.excel_file.empty()) {
    std::ofstream out(o.excel_file);
    if (!out || !(out << render_iozone_excel_csv(o, plan, result.cells))) {
      throw UserError(fmt::format("-b {}: cannot write the file", o.excel_file));
    }
  }
  std::string text = a.csv ? render_iozone_csv(o, result.cells, memory)
                           : (live ? tail : head + "\n" + render_iozone_titles() + rows + tail);
  const nlohmann::json doc =
      iozone_document(started_ms, iozone_json(o, plan, result, memory), environment, result.interrupted);
  return Measurement{std::move(text), doc.dump(2) + "\n", result.interrupted ? kExitInterrupted : kExitOk};
}

}  // namespace

const CommandInfo& iozone_command_info() { return table().info(); }

int iozone_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  IozoneArgs a;
  table().apply(parsed, a, nullptr);
  const IozonePlan plan = plan_iozone(a.options);
  check_target(a.options, plan);
  std::string command_line = "sluice iozone";
  for (const std::string& arg : args) command_line += " " + arg;
  install_stop_signal_handlers();
  init_clock();
  return run_measured({"iozone", args, ""}, a.history, a.output, [&](bool) { return run_test(a, plan, command_line); });
}

}  // namespace sluice
