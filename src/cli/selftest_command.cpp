// sluice selftest: sluice's methods judged against model devices whose truth is known (selftest/).
#include <fmt/format.h>

#include <cstdio>

#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/output.h"
#include "common/clock.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "report/result_document.h"
#include "selftest/selftest_report.h"
#include "selftest/selftest_runner.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(Brings up model devices (sluice lab up --fs=none: a raw block device served by a model whose behaviour is
known), runs sluice's methods on them, and judges each measurement against the truth that queueing theory
computes from the model (sluice lab truth MODEL). One table: method, what the model says, what sluice
measured, fio's figure beside where fio has one (and is installed), the tolerance and why, and the verdict.
The exit status is 1 when any row disagrees or a measurement failed.
Rows: 4 KiB random read and write at depth 1 (mean latency, psync) and 32 (IOPS, io_uring and libaio); capacity
at a mean-latency limit (the answer, the knee, no thrashing) and, on the queueing model, at a p99 limit (also
the concurrency of the answer); fsync'd 16 KiB writes; an open loop of Poisson arrivals at 0.5, 0.9 and 1.5
times the device's most on a queueing model of 8 servers of 4 ms (mean latency by M/D/c, the p99 at 0.5 exact
by Crommelin, above capacity the completions); precondition --until-steady on ssd-cliff (the fresh rate, then
the steady state after the cliff); the lint's small-test-area around raid-wb's cache; quick's "behaves like"
class on ext4; interfere on raid-wb + ext4 (at least 5x slower beside a bulk copy with 1 and 10 threads, with
the dirty limits of a smaller machine, and its knob trial's direction against fio's with the same flood and
knob: interfere changes kernel knobs, journalled and restored); compare's verdicts between labs (raid-wb
against raid-wt on fsync'd writes and on reads, iscsi-1g against sata7k).
--quick runs the queueing model, ssd-cliff, ssd and quick on ssd (about 2.5 minutes; CI runs it); the full run
adds sas15k, sata7k, raid-wt, raid-wb, iscsi-1g, interfere and quick on ramdisk, sas15k and sata7k (about 15
minutes). fsync'd writes are judged only where the model's flush covers the lab's path or the cycle is 20
paths (a reply cannot leave before its request arrives). --lab=DIR --model=MODEL judges a lab that is already
up at DIR (brought up with --fs=none) as MODEL, whatever it serves: judging an ssd lab as sata7k disagrees, as
it must.
Needs root (loop devices) and /dev/fuse, as sluice lab up does; measurements and daemons run under SCHED_FIFO 1
when allowed. docs/lab.md explains each row's truth and tolerance.
)";

struct SelftestArgs {
  SelftestOptions options;
  OutputChoice output;
};

CommandTable<SelftestArgs> make_table() {
  CommandTable<SelftestArgs> t(command_info(
      "selftest",
      "judge sluice's methods against model devices whose truth is computed (sluice lab): one table, exit 1 on "
      "any disagreement",
      kDescription));
  t.add(flag_arg("quick", "the CI set: the queueing model, ssd-cliff, ssd and quick on ssd (about 2.5 minutes)"),
        [](SelftestArgs& a, const OptionValue&) { a.options.plan.quick = true; });
  t.add(text_arg("lab", "DIR", "", "judge the lab that is up at DIR (lab up --fs=none) instead of bringing up presets"),
        [](SelftestArgs& a, const OptionValue& v) { a.options.lab_dir = v.text; });
  t.add(text_arg("model", "MODEL", "", "with --lab: the model (a preset's name or a model file) it is judged as"),
        [](SelftestArgs& a, const OptionValue& v) { a.options.model = v.text; });
  OptionInfo methods = list_arg("methods", "LIST", ValueType::kChoice, "", "only these groups of rows (default: all)");
  methods.choices = selftest_groups();
  t.add(std::move(methods), [](SelftestArgs& a, const OptionValue& v) { a.options.plan.methods = v.list; });
  t.add(text_arg("results", "DIR", "",
                 "keep every result document (result-N.json) and the measurements' output "
                 "(children.log) in DIR; default: a temporary directory, removed"),
        [](SelftestArgs& a, const OptionValue& v) { a.options.results_dir = v.text; });
  t.add(flag_arg("no-fio", "do not measure with fio beside, even when it is installed"),
        [](SelftestArgs& a, const OptionValue&) { a.options.use_fio = false; });
  add_output_options(t, &SelftestArgs::output);
  return t;
}

const CommandTable<SelftestArgs>& table() {
  static const CommandTable<SelftestArgs> kTable = make_table();
  return kTable;
}

void print_progress(const SelftestRow& row) {
  const std::string measured = row.measured ? format_measure(row.check.measure, *row.measured) : "failed";
  std::fprintf(stderr, "selftest: %s: %s: %s (truth %s%s): %s\n", row.lab.c_str(), row.check.method.c_str(),
               measured.c_str(), row.check.approximate ? "~" : "",
               format_measure(row.check.measure, row.check.truth).c_str(),
               row.measured ? (row.agrees ? "agrees" : "DISAGREES") : row.failure.c_str());
}

}  // namespace

const CommandInfo& selftest_command_info() { return table().info(); }

int selftest_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  SelftestArgs cli;
  table().apply(parsed, cli, nullptr);
  if (cli.options.lab_dir.empty() != cli.options.model.empty()) {
    throw UserError(cli.options.lab_dir.empty() ? "--model: only with --lab=DIR (the lab judged as the model)"
                                                : "--lab: needs --model=MODEL (what the lab is judged as)");
  }
  if (!cli.options.lab_dir.empty() && cli.options.plan.quick) {
    throw UserError("--quick: not with --lab (--quick chooses the presets; --methods chooses the rows)");
  }
  cli.options.on_row = print_progress;
  install_stop_signal_handlers();
  return run_measured({"selftest", args, ""}, HistoryChoice{}, cli.output, [&](bool) {
    const std::uint64_t started_ms = wall_clock_ms();
    const SelftestSummary summary = run_selftest(cli.options);
    const nlohmann::json doc = result_document(ResultEnvelope{"selftest", started_ms, "", std::nullopt},
                                               nlohmann::json::object(), {{"selftest", selftest_json(summary)}});
    const int exit = summary.interrupted ? kExitInterrupted : all_agree(summary) ? kExitOk : kExitError;
    return Measurement{render_selftest_text(summary), doc.dump(2) + "\n", exit};
  });
}

}  // namespace sluice
