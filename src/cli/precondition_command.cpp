// sluice precondition: SNIA preconditioning and steady-state rounds (method/precondition.h).
#include <cstdio>

#include "cli/command_args.h"
#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/output.h"
#include "common/error.h"
#include "job/command_line.h"
#include "job/job_spec.h"
#include "report/reporters.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(Brings a target to a known state before measuring it, as SNIA's Performance Test Specification does:
writes the whole area sequentially, twice (--passes), in 128 KiB blocks with direct I/O (workload-
independent preconditioning), showing progress on stderr. A missing file is created (give --size).
With --until-steady, it then runs the test workload in rounds (--round, default 60s) until SNIA's steady
state holds over the last 5 rounds: IOPS range within 20% and the fitted line's excursion within 10% of
their mean; it reports each round's IOPS and mean latency and the round where steady state was reached.
)";

constexpr const char* kNotes =
    R"(The workload of --until-steady defaults to --rw=randwrite --bs=4k --ioengine=io_uring --iodepth=32
--direct=1; filename and size come from the options before it. --filename, --size and --bs after
--until-steady are the workload's.
)";

OptionInfo before_marker(OptionInfo o) {
  o.before_pass_through = true;
  return o;
}

CommandTable<PreconditionArgs> make_table() {
  CommandInfo info = command_info("precondition",
                                  "write the area twice sequentially (SNIA preconditioning), then --until-steady runs "
                                  "the test workload in rounds until its IOPS are steady",
                                  kDescription);
  info.passes_job_options = true;
  info.pass_through_after = "until-steady";
  info.notes = kNotes;
  CommandTable<PreconditionArgs> t(std::move(info));
  t.add(before_marker(
            text_arg("filename", "F", "",
                     "the file or block device to write (it is overwritten: block devices holding a filesystem, "
                     "partition table, RAID or LVM signature are refused unless --allow-destructive; mounted "
                     "devices always)")),
        [](PreconditionArgs& a, const OptionValue& v) { a.request.filename = v.text; });
  t.add(before_marker(size_arg(
            "size", 1, "", "bytes to write per pass; without it the file's or device's size (needed for a new file)")),
        [](PreconditionArgs& a, const OptionValue& v) { a.request.size = v.number; });
  t.add(before_marker(size_arg("bs", 1, "128k", "block size of the passes")),
        [](PreconditionArgs& a, const OptionValue& v) { a.request.block_size = v.number; });
  t.add(before_marker(count_arg("passes", 1, 1'000'000, "2", "sequential passes")),
        [](PreconditionArgs& a, const OptionValue& v) { a.request.passes = static_cast<std::uint32_t>(v.number); });
  t.add(
      flag_arg("until-steady", "then run the test workload in rounds; the job options after it describe the workload"),
      [](PreconditionArgs& a, const OptionValue&) { a.until_steady = true; });
  t.add(duration_arg("round", "60s", "measured time of one round"),
        [](PreconditionArgs& a, const OptionValue& v) { a.request.round = v.duration; });
  t.add(count_arg("max-rounds", 1, 1'000'000, "25", "give up after N rounds"),
        [](PreconditionArgs& a, const OptionValue& v) { a.request.max_rounds = static_cast<std::uint32_t>(v.number); });
  t.add(flag_arg("allow-destructive", "allow writing a block device that carries a signature (see --filename)"),
        [](PreconditionArgs& a, const OptionValue&) { a.request.allow_destructive = true; });
  add_output_options(t, &PreconditionArgs::output);
  add_history_options(t, &PreconditionArgs::history);
  t.add(flag_arg("no-status", "no live status line"),
        [](PreconditionArgs& a, const OptionValue&) { a.request.status_line = false; });
  return t;
}

const CommandTable<PreconditionArgs>& table() {
  static const CommandTable<PreconditionArgs> kTable = make_table();
  return kTable;
}

// The workload's jobs: the defaults, then the user's job options, validated.
std::vector<JobSpec> workload_jobs(const std::vector<std::string>& user_args) {
  std::vector<std::string> args = default_workload_options();
  args.insert(args.end(), user_args.begin(), user_args.end());
  const JobCommandLine parsed = parse_job_command_line(args);
  std::vector<Problem> findings;
  if (!check_jobs(parsed.jobs, findings)) throw UserError("the --until-steady workload has errors (above)");
  return parsed.jobs;
}

}  // namespace

const CommandInfo& precondition_command_info() { return table().info(); }

PreconditionArgs parse_precondition_args(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  PreconditionArgs out;
  table().apply(parsed, out, &out.workload_args);
  return out;
}

int precondition_command(const std::vector<std::string>& args) {
  PreconditionArgs cli = parse_precondition_args(args);
  if (cli.until_steady) cli.request.workload = workload_jobs(cli.workload_args);
  return run_measured({"precondition", args, ""}, cli.history, cli.output, [&](bool json_plus) {
    const PreconditionResult result = run_precondition(cli.request);
    return Measurement{render_precondition_table(result), render_json_text(result.last_run, json_plus),
                       result.last_run.interrupted ? kExitInterrupted : kExitOk};
  });
}

}  // namespace sluice
