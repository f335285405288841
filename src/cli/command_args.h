#pragma once
// What each subcommand's arguments parse into, and the parsers (from the command tables in
// <command>_command.cpp). Exposed so tests can check the parsed values without running anything.
#include <string>
#include <vector>

#include "cli/command_table.h"
#include "cli/output.h"
#include "job/command_line.h"
#include "job/history_choice.h"
#include "job/run_options.h"
#include "job/run_overrides.h"
#include "method/capacity.h"
#include "method/interfere.h"
#include "method/precondition.h"
#include "method/quick.h"
#include "net/http_load.h"
#include "run/trigger_watch.h"

namespace sluice {

// sluice run's own options (cli/run_command.cpp), and the jobs of the arguments it passes on.
struct RunArgs {
  RunOptions run;               // output, live status and fio's global options
  HistoryChoice history;        // --save, --label, --db, --repeat
  RunOverrides overrides;       // --override, --cap-size, --cap-runtime (applied after the job files)
  std::string cmdhelp;          // --cmdhelp=OPTION ("all" when bare)
  bool parse_only = false;      // --parse-only
  bool showcmd = false;         // --showcmd: print the job files' jobs as command lines
  std::string interval_log;     // --interval-log=FILE: one JSON line per job per interval
  std::string metrics_file;     // --metrics-file=FILE: OpenMetrics text, rewritten every interval
  JobCommandLine command_line;  // the job options, --name jobs and job files (a --profile's jobs included)
  TriggerSettings trigger;      // fio's --trigger-file, --trigger-timeout, --trigger, --trigger-remote
};

struct CapacityArgs {
  CapacityRequest request;            // streams are filled in later, from job_args
  std::vector<std::string> rw_modes;  // --rw=A,B: one stream per mode; empty = the job's own rw
  std::vector<std::string> job_args;  // for the run parser: the defaults, then the user's job options
  OutputChoice output;
  HistoryChoice history;
  bool http = false;          // --target=http: the points are HTTP load on `http_load`
  HttpLoadOptions http_load;  // --url/--urls/--no-keepalive
  bool parse_only = false;    // --parse-only: check the options and job options, measure nothing
};

struct QuickArgs {
  QuickOptions options;
  OutputChoice output;
  HistoryChoice history;
};

struct PreconditionArgs {
  PreconditionRequest request;
  bool until_steady = false;
  std::vector<std::string> workload_args;  // job options after --until-steady
  OutputChoice output;
  HistoryChoice history;
};

struct InterfereArgs {
  InterfereOptions options;
  OutputChoice output;
  HistoryChoice history;
};

struct RestoreArgs {
  std::string journal;
};

// Each parses the arguments after the command's name. Throws UserError naming the option on bad input, and
// HelpRequested (command_table.h) when -h/--help is among them.
RunArgs parse_run_args(const std::vector<std::string>& args);
CapacityArgs parse_capacity_args(const std::vector<std::string>& args);
QuickArgs parse_quick_args(const std::vector<std::string>& args);
PreconditionArgs parse_precondition_args(const std::vector<std::string>& args);
InterfereArgs parse_interfere_args(const std::vector<std::string>& args);
RestoreArgs parse_restore_args(const std::vector<std::string>& args);

// The declarations behind them, for help and the registry.
const CommandInfo& run_command_info();
const CommandInfo& capacity_command_info();
const CommandInfo& quick_command_info();
const CommandInfo& precondition_command_info();
const CommandInfo& interfere_command_info();
const CommandInfo& restore_command_info();

}  // namespace sluice
