// sluice scale: a command at increasing parallelism, {N} replaced by each value (scale/scale_run.h).
#include <cstdio>

#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/output.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "scale/scale_report.h"
#include "scale/scale_run.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(Runs COMMAND (everything after --) at increasing parallelism: every {N} in it is replaced by 1, 2, 4, ...
up to --max (default 2 x the online CPUs), or by each value of --values, --runs times each, and reports per N
the wall time (mean, min, max), the speedup and efficiency against the first N (speedup = its wall time /
this N's; efficiency = speedup x first N / N), the user and system CPU time of the command and everything it
waited for (wait4's rusage), the CPUs it kept busy ((user + sys) / wall) and the utilization of the machine
(busy CPUs / online CPUs), the knee, and the environment: CPU model and count, memory, and whether the machine
is virtualized and by what (CPUID, /sys/hypervisor, DMI, container markers).
The knee is where adding parallelism stops paying: the first N whose next value makes the command less than
10% faster (the next speedup < 1.10 x this one). "not reached" means every step paid.
The command runs without a shell: its words are passed as they are (a single quoted word with blanks is split
at the blanks); --shell runs it through /bin/sh -c. Its stdout and stderr go to --log. --prepare runs through
/bin/sh -c before every run, untimed (e.g. "make clean"). A run or a prepare that fails (non-zero exit,
signal, --timeout) is reported with its exit status and stops the series; sluice then exits with 1.
--runs repeats each N inside one series; --repeat (as for every measuring command) repeats the whole series
and prints the spread, --save stores it, and `sluice compare` compares two series (native against a VM).
Example: sluice scale --values=1,2,4,8 --prepare="make clean" -- make -j{N}
)";

struct ScaleArgs {
  ScaleOptions options;
  OutputChoice output;
  HistoryChoice history;
};

CommandTable<ScaleArgs> make_table() {
  CommandInfo info = command_info("scale",
                                  "run a command at parallelism N = 1, 2, 4, ... ({N} in it, e.g. make -j{N}): wall "
                                  "time, speedup, efficiency, CPU time, the knee and the environment",
                                  kDescription);
  info.positionals = {{"COMMAND", "the command, after --, with {N} where the parallelism goes", false, true}};
  CommandTable<ScaleArgs> t(std::move(info));
  OptionInfo values = list_arg("values", "LIST", ValueType::kUnsigned, "",
                               "the values of N, in this order (default: powers of two up to --max)");
  values.min = 1;
  values.max = 1'000'000;
  t.add(std::move(values), [](ScaleArgs& a, const OptionValue& v) {
    a.options.values.clear();
    for (const std::string& n : v.list) a.options.values.push_back(static_cast<std::uint32_t>(std::stoul(n)));
  });
  t.add(count_arg("max", 1, 1'000'000, "", "the largest N of the default series 1, 2, 4, ...; default 2 x CPUs"),
        [](ScaleArgs& a, const OptionValue& v) { a.options.max = static_cast<std::uint32_t>(v.number); });
  t.add(count_arg("runs", 1, 1000, "1", "runs of the command at each N (wall time mean, min and max over them)"),
        [](ScaleArgs& a, const OptionValue& v) { a.options.runs = static_cast<std::uint32_t>(v.number); });
  t.add(text_arg("prepare", "CMD", "", "shell command run before every run, untimed (e.g. \"make clean\")"),
        [](ScaleArgs& a, const OptionValue& v) { a.options.prepare = v.text; });
  t.add(flag_arg("shell", "run COMMAND through /bin/sh -c (pipes, redirections, &&)"),
        [](ScaleArgs& a, const OptionValue&) { a.options.shell = true; });
  t.add(text_arg("log", "FILE", "sluice-scale.log", "where the command's stdout and stderr go (replaced)"),
        [](ScaleArgs& a, const OptionValue& v) { a.options.log_path = v.text; });
  t.add(duration_arg("timeout", "", "kill a run (its whole process group) that takes longer; default: no limit"),
        [](ScaleArgs& a, const OptionValue& v) { a.options.timeout = v.duration; });
  add_output_options(t, &ScaleArgs::output);
  add_history_options(t, &ScaleArgs::history);
  return t;
}

const CommandTable<ScaleArgs>& table() {
  static const CommandTable<ScaleArgs> kTable = make_table();
  return kTable;
}

}  // namespace

const CommandInfo& scale_command_info() { return table().info(); }

int scale_command(const std::vector<std::string>& args) {
  const ParsedArgs parsed = parse_arguments(table().info(), args);
  ScaleArgs cli;
  table().apply(parsed, cli, nullptr);
  cli.options.command = parsed.positionals;
  check_scale_command(cli.options);
  install_stop_signal_handlers();
  return run_measured({"scale", args, ""}, cli.history, cli.output, [&](bool) {
    const ScaleResult result = run_scale(cli.options);
    const int exit = result.interrupted ? kExitInterrupted : result.failed ? kExitError : kExitOk;
    return Measurement{render_scale_text(result), scale_json(result).dump(2) + "\n", exit};
  });
}

}  // namespace sluice
