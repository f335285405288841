#pragma once
// RunOptions: the options of a whole run (sluice run's and fio's global command-line options), not of a job.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace sluice {

// Global options that are not per job (command line only): output selection and safety.
struct RunOptions {
  enum class OutputFormat { kNormal, kJson, kJsonPlus, kTerse };
  std::vector<OutputFormat> output_formats = {OutputFormat::kNormal};  // "--output-format=normal,json"
  std::string output_path;                                             // --output=FILE; empty = stdout
  bool allow_destructive = false;
  bool status_line = true;          // live status on a terminal (never when stdout/stderr is redirected)
  bool status_line_forced = false;  // --eta=always: show the status line even when not on a terminal
  std::optional<std::chrono::nanoseconds> status_interval;            // --eta-interval: the status line's refresh
  std::optional<std::chrono::nanoseconds> report_interval;            // --status-interval: a full report this often
  std::chrono::nanoseconds series_interval{std::chrono::seconds(1)};  // time-series resolution
  // fio's global command-line options (fio's --help names them).
  int terse_version = 3;              // --terse-version: 2, 3, 4 or 5 (fio's terse formats)
  bool readonly = false;              // --readonly: refuse every job that writes or trims
  bool warnings_fatal = false;        // --warnings-fatal: a validation warning stops the run
  std::vector<std::string> sections;  // --section=NAME (repeatable): run only the jobs of these names
  bool bandwidth_log = false;         // --bandwidth-log: agg-{read,write,trim}_bw.log in the current dir
  std::string inflate_log;            // --inflate-log=F: print fio's compressed log F as text, run nothing
  std::string aux_path;               // --aux-path=DIR: where the verify state files go (fio's state files)
  std::optional<std::chrono::nanoseconds> eta_newline;  // --eta-newline: keep a status line every period
};

}  // namespace sluice
