// Options of the engines that do no I/O: cpuio (cpuload, cpuchunks, cpumode, exit_on_io_done) and exec
// (program, arguments, grace_time, std_redirect), with fio's names, defaults and units.
#include "job/option_builders.h"

namespace sluice::detail {

void add_noio_engine_options(std::vector<OptionDef>& table) {
  const std::size_t first = table.size();
  using std::chrono::seconds;

  table.insert(
      table.end(),
      {{
           .name = "cpuload",
           .type = OptionType::kUnsigned,
           .default_text = "0",
           .unit = "%",
           .range = "0-" + std::to_string(UINT32_MAX),
           .help = "ioengine=cpuio: the percentage of one CPU the job keeps busy (above 100 counts as 100, as fio).",
           .reason = "required by ioengine=cpuio",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 job.engine.cpuio.cpuload = static_cast<std::uint32_t>(
                     std::min<std::uint64_t>(unsigned_value("cpuload", value, where, 0, UINT32_MAX), 100));
               },
       },
       u32_option(
           "cpuchunks", &CpuioOptions::cpuchunks_us, 1, UINT32_MAX, "50000",
           {.unit = "us",
            .help = "ioengine=cpuio with cpumode=noop: the length of one burn cycle in microseconds; the think time "
                    "between cycles makes up cpuload (qsort's cycle is one sort)."}),
       {
           .name = "cpumode",
           .type = OptionType::kChoice,
           .default_text = "noop",
           .range = "noop|qsort",
           .help = "ioengine=cpuio: noop spins, qsort sorts fio's 256 Ki integers (memory and branch work).",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 job.engine.cpuio.qsort = choice_value("cpumode", value, where, {"noop", "qsort"}) == 1;
               },
       },
       bool_option("exit_on_io_done", &CpuioOptions::exit_on_io_done, "0",
                   {.help = "ioengine=cpuio: end the job when the run's I/O jobs, running or in later groups, have all "
                            "ended (a run without I/O jobs runs the whole runtime, as fio)."}),
       string_option(
           "program", &ExecOptions::program, "",
           {.help = "ioengine=exec: the program to run for the job's runtime (a path, or a name looked up in PATH).",
            .reason = "required by ioengine=exec"}),
       string_option(
           "arguments", &ExecOptions::arguments, "",
           {.help = "ioengine=exec: the program's arguments, split on spaces; %r is the runtime in seconds, %n the "
                    "job's name.",
            .reason = "none"}),
       duration_option(
           "grace_time", &ExecOptions::grace_time, seconds(1), "1",
           {.help = "ioengine=exec: how long the program has to end after SIGTERM before SIGKILL (a bare number is "
                    "seconds)."}),
       bool_option(
           "std_redirect", &ExecOptions::std_redirect, "1",
           {.help = "ioengine=exec: 1 writes the program's output to JOBNAME.stdout and JOBNAME.stderr; 0 sends its "
                    "stdout to sluice's stderr (sluice's report stays alone on stdout)."})});

  for (std::size_t i = first; i < table.size(); ++i) table[i].category = "engine";
}

}  // namespace sluice::detail
