// sluice bonnie: bonnie++ 2.00a's IO and file tests with its options, counting and reports (suites/bonnie_*).
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/command_args.h"
#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/output.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "observe/environment.h"
#include "report/result_document.h"
#include "suites/bonnie_options.h"
#include "suites/bonnie_report.h"
#include "suites/bonnie_run.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(bonnie++ 2.00a (Russell Coker, after Tim Bray's Bonnie) as a sluice command, with bonnie++'s own short
options: sluice bonnie -d DIR -s 64 -r 32 -n 1 runs what `bonnie++ -d DIR -s 64 -r 32 -n 1` runs.

IO tests on DIR/Bonnie.<pid> (-s MiB): per-char write and read (one write()/read() system call per byte, over
-f MiB, 3 by default, as bonnie++ 1.97 and later do), block write, rewrite (read, change a byte, seek back,
write), block read, and random seeks (5 seekers, each with its own descriptor, sharing 8192 tickets; every
10th also writes its chunk back). Every close is fsync + close inside the timing. File tests in
DIR/Bonnie.<pid>/ (-n in 1024s of files): create, stat (and read, for files with data) and delete in
sequential and in random name order, each create and delete ending with sync() inside the timing.

Counted as bonnie++ counts: K = 1024 bytes, rates over the phase's whole time, %CP = CPU / elapsed, a phase
shorter than 0.5 s prints +++++ (too fast to time), latency = the slowest single operation. The report is
bonnie++ 2.00a's text table followed by its CSV line (format 1.98), which bon_csv2html and bon_csv2txt read;
-q puts the table on stderr, -x N prints only CSV lines. --output-format=json holds every phase (bytes,
operations, seconds, rate, CPU %, latency) under "sluice"."bonnie". As with bonnie++, the file must be at
least twice the RAM unless -r states a smaller RAM (-r 0 turns the checks off). Ctrl-C removes the test's files
and reports the phases that finished.
)";

struct BonnieArgs {
  BonnieOptions options;
  bool ram_given = false;
  std::string ram_note;  // -r with a g or t suffix: what bonnie++ would read instead
  OutputChoice output;
  HistoryChoice history;
};

CommandTable<BonnieArgs> make_table() {
  CommandInfo info = command_info("bonnie",
                                  "bonnie++ 2.00a's sequential, random-seek and file-creation tests with its options, "
                                  "text report and CSV (for bon_csv2html), plus JSON",
                                  kDescription);
  info.notes =
      "bonnie++'s short options work as in bonnie++ (-d DIR, -s 64, -n 1:4k:1k:2, -r 32, -b, -x 3, -q, "
      "-m NAME, -u USER, -f, -f5, -z SEED); each is the long option below. Not implemented, and refused by "
      "name: -c above 1, -p, -y, -Z, -D, -g.";
  CommandTable<BonnieArgs> t(std::move(info));
  using A = BonnieArgs;
  using V = OptionValue;
  t.add(text_arg("dir", "DIR", ".", "-d: the scratch directory (the files go in DIR/Bonnie.<pid>)"),
        [](A& a, const V& v) { a.options.dir = v.text; });
  t.add(text_arg("size", "MiB[:CHUNK[:SEEKS[:SEEKERS]]]", "2 x RAM, at least 300",
                 "-s: the IO-test file in MiB (m, g or t suffix), 0 skips the IO tests; chunk 256 to 1m bytes (8k), "
                 "seeks (8192), seeker threads (5)"),
        [](A& a, const V& v) { apply_bonnie_size(v.text, a.options); });
  t.add(text_arg("files", "N[:MAX[:MIN[:DIRS[:CHUNK]]]]", "16",
                 "-n: N x 1024 files (0 skips the file tests) of MIN to MAX bytes (0; -1 hard links, -2 symbolic "
                 "links) in DIRS directories"),
        [](A& a, const V& v) { apply_bonnie_files(v.text, a.options); });
  t.add(text_arg("ram", "MiB", "the machine's",
                 "-r: the RAM for bonnie++'s size rules, in MiB (m, g or t suffix: -r 1g is 1024; bonnie++ "
                 "itself drops the suffix and reads 1, sluice says so); 0 turns the rules off"),
        [](A& a, const V& v) {
          a.options.ram_mib = bonnie_ram_mib(v.text, a.ram_note);
          a.ram_given = true;
        });
  t.add(count_arg("byte-io", 0, 1u << 30, "3", "-f: MiB for the per-char tests; -f alone (0) skips them"),
        [](A& a, const V& v) { a.options.byte_io_mib = static_cast<std::int64_t>(v.number); });
  t.add(flag_arg("no-write-buffering", "-b: fsync after every file create and seek-test write (and the directory)"),
        [](A& a, const V&) { a.options.sync = true; });
  t.add(count_arg("runs", 1, 10000, "1", "-x: run N times and print only CSV lines (a header line first when N > 1)"),
        [](A& a, const V& v) { a.options.runs = static_cast<int>(v.number); });
  t.add(flag_arg("quiet", "-q: no progress; the text table to stderr, the CSV to stdout"),
        [](A& a, const V&) { a.options.quiet = true; });
  t.add(text_arg("machine", "NAME", "the host name", "-m: the name in the reports"),
        [](A& a, const V& v) { a.options.machine = v.text; });
  t.add(text_arg("user", "USER[:GROUP]", "", "-u: accepted and ignored: sluice bonnie never changes user"),
        [](A&, const V&) {});
  t.add(count_arg("seed", 0, 0xffffffffu, "",
                  "-z: the random seed (seek tickets, file names, sizes, order; default: pid ^ time, as bonnie++)"),
        [](A& a, const V& v) {
          a.options.seed = static_cast<std::uint32_t>(v.number);
          a.options.seed_given = true;
        });
  t.add(count_arg("concurrency", 1, 1000, "1", "-c: bonnie++'s concurrent copies; only 1 is implemented"),
        [](A&, const V& v) {
          if (v.number > 1) {
            throw UserError("-c " + v.text +
                            ": concurrent copies are not implemented by sluice bonnie (only -c 1); "
                            "for concurrent load use sluice run with numjobs");
          }
        });
  add_output_options(t, &BonnieArgs::output);
  add_history_options(t, &BonnieArgs::history);
  return t;
}

const CommandTable<BonnieArgs>& table() {
  static const CommandTable<BonnieArgs> kTable = make_table();
  return kTable;
}

}  // namespace

const CommandInfo& bonnie_command_info() { return table().info(); }

int bonnie_command(const std::vector<std::string>& args) {
  const std::vector<std::string> long_args = bonnie_long_arguments(args);
  const ParsedArgs parsed = parse_arguments(table().info(), long_args);
  BonnieArgs cli;
  table().apply(parsed, cli, nullptr);
  BonnieOptions& options = cli.options;
  if (!cli.ram_given) options.ram_mib = bonnie_detected_ram_mib();
  if (!cli.ram_note.empty()) std::fprintf(stderr, "note: %s\n", cli.ram_note.c_str());
  finish_bonnie_options(options);

  install_stop_signal_handlers();
  return run_measured({"bonnie", args, ""}, cli.history, cli.output, [&](bool) {
    const int runs = options.runs < 1 ? 1 : options.runs;
    const std::uint64_t started_ms = wall_clock_ms();
    std::string text = options.runs > 1 ? bonnie_csv_header() : "";
    nlohmann::json run_docs = nlohmann::json::array();
    bool interrupted = false;
    for (int i = 0; i < runs && !interrupted; ++i) {
      const BonnieResult result = run_bonnie(
          options,
          [&](const std::string& s) {
            if (options.quiet) return;
            std::fputs(s.c_str(), stderr);
            std::fflush(stderr);
          },
          [] { return stop_requested(); });
      interrupted = result.interrupted;
      const std::string csv = render_bonnie_csv(options, result);
      if (options.runs == -1) {
        const std::string table_text = render_bonnie_text(options, result);
        if (options.quiet) {
          std::fputs(table_text.c_str(), stderr);
        } else {
          text += table_text;
        }
      }
      text += csv;
      run_docs.push_back(bonnie_json(options, result));
    }
    const nlohmann::json doc = result_document(
        ResultEnvelope{"bonnie", started_ms, "", std::nullopt}, nlohmann::json::object(),
        {{"bonnie",
          {{"follows", std::string("bonnie++ ") + kBonnieVersion}, {"interrupted", interrupted}, {"runs", run_docs}}},
         {"environment", capture_environment({options.dir})}});
    return Measurement{text, doc.dump(2) + "\n", interrupted ? kExitInterrupted : kExitOk};
  });
}

}  // namespace sluice
