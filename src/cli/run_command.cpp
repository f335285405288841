// sluice run: fio's command-line form and fio job files. run's own options (and fio's global options, which run
// and the fio link take) are rows of its command table; the rest (job options, --name, job files) is passed on
// to job/command_line.h.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "cli/command_args.h"
#include "cli/command_options.h"
#include "cli/commands.h"
#include "cli/history_options.h"
#include "cli/interval_outputs.h"
#include "cli/mpi_steps.h"
#include "cli/output.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "job/command_line.h"
#include "job/fio_global_options.h"
#include "job/fio_profiles.h"
#include "job/job_file.h"
#include "job/job_spec.h"
#include "job/option_table.h"
#include "job/units.h"
#include "job/validate.h"
#include "method/lint.h"
#include "mpi/cluster_report.h"
#include "mpi/world.h"
#include "report/logs/aggregate_bw_log.h"
#include "report/logs/log_inflate.h"
#include "report/reporters.h"
#include "run/runner.h"
#include "run/trigger_watch.h"

namespace sluice {
namespace {

constexpr const char* kDescription =
    R"(Runs jobs given in fio's command-line form: options before the first --name apply to every job; each
--name starts a job, and the options after it apply to that job. Several --name run several jobs side by
side (stonewall / new_group start a new group that runs after the previous one).

Job files are fio's: [sections] are jobs, sections named global* set defaults for the jobs below them,
';' and '#' start comments, `include FILE` reads another file (relative to the including one), ${VAR} comes
from the environment, $ncpus, $pagesize and $mb_memory are the machine's, and values in parentheses (or
using those keywords) are arithmetic: size=(4k*2), size=$mb_memory*1m/4. Job options given on the command
line before the files apply to every job; each file after the first starts with an implicit stonewall.
Jobs given with --name run first, in the same group as the first file's jobs.

A link named fio to sluice runs `sluice run`; so does `sluice fio`. fio's global options are among the
options below.
)";

constexpr const char* kNotes =
    R"(fio's profiles (expanded into their jobs before anything else is read):
  --profile=tiobench    seqwrite, randwrite, seqread, randread (O_DIRECT, sync), with its options --size=MiB
                        --block=BYTES --numruns=N --dir=DIR --threads=N
  --profile=act         fio's ACT (Aerospike certification) profile: --device-names=DEV[,DEV] --load=N
                        --test-duration=T --threads-per-queue=N --read-req-num-512-blocks=N
                        --large-block-op-kbytes=N; hourly latency slices judged PASSED/FAILED; --prep
                        prepares the devices instead

fio's client/server mode (taken before anything else is read):
  --server[=ADDR]       serve fio's client/server protocol (fio 3.33's): run the jobs fio --client sends
                        (sluice server --help: addresses, --daemonize, --server-allow, --server-secret,
                        what a server exposes)
  --client=HOST[,PORT]  run the job files on fio servers (fio 3.33's or sluice's) and print each one's results
                        and "All clients"; repeatable, or a file of hosts; job files right after a --client
                        are that server's, --remote-config=PATH names one on the server; with sluice servers
                        also the start skew and each host's environment and differences (docs/multi-host.md)
  --client-secret=FILE  with --client: use only sluice servers started with --server-secret and the same
                        secret (each side proves it by HMAC-SHA256; FILE must be private, mode 600)
  --status-interval=T   with --client: every server sends its statistics so far each T and the client prints
                        each server's report and "All clients" each time (each JSON document whole)
  --trigger-timeout=T, --trigger-file=FILE, --trigger=CMD, --trigger-remote=CMD
                        with --client: when the trigger fires every server stops its jobs and runs CMD of
                        --trigger-remote, and this host runs --trigger's CMD once per server's answer (fio's
                        power-cut tests); disk stats and write_*_log logs come back from the servers (NAME.HOST)
  --eta=WHEN            with --client: fio's client ETA line of all servers' jobs on stdout ("Jobs: 2 (f=2):
                        [RR][33.3%][r=2048k][r=512 IOPS][eta 00m:02s]"); auto: on a terminal only; never with
                        JSON; --eta-newline=T keeps a line per T, --eta-interval=T asks the servers each T
  --client with verify_state_load=1
                        the server gets the job's state from the client's working directory, named
                        SERVER-JOB-INDEX-verify.state as fio names it (fio's SENDFILE; docs/multi-host.md)

Latency definitions: slat = submit start to submit return (async engines only); clat = submit return to
completion seen; lat = operation start to completion seen. Percentiles come from a log-linear histogram
with at most 0.78% relative error from 1 ns to 78 hours. Sizes: k = 1024 (kb_base=1000 makes it 1000;
KiB is always 1024). Output names its units: KiB/MiB for sizes, MiB/s and MB/s for bandwidth.

Exit status: 0 success, 1 bad input or a failed job, 130 interrupted (results of the time measured so far
are still printed, with "interrupted": true in JSON).
)";

// --trigger-timeout: a duration where a bare number is seconds (fio's check_str_time in seconds).
std::chrono::nanoseconds trigger_timeout_of(const OptionValue& v) {
  const auto timeout = parse_duration(v.text, std::chrono::seconds(1));
  if (!timeout || timeout->count() <= 0) throw UserError(v.where + ": not a positive duration; e.g. 30, 500ms, 2m");
  return *timeout;
}

// A positive duration where a bare number is seconds (the status refresh, as fio's --eta-interval).
std::chrono::nanoseconds seconds_or_duration(const OptionValue& v) {
  const auto interval = parse_duration(v.text, std::chrono::seconds(1));
  if (!interval || interval->count() <= 0) {
    throw UserError(v.where + ": not a positive duration; e.g. 1, 500ms, 10s");
  }
  return *interval;
}

void add_output_rows(CommandTable<RunArgs>& t) {
  OptionInfo format = list_arg("output-format", "FMT", ValueType::kChoice, "normal",
                               "normal; json; json+ (fio's JSON with histogram bins); terse (fio's semicolon lines, "
                               "--terse-version); several print one after another. Warnings are part of the report "
                               "(top of the normal output, \"sluice.warnings\" in JSON); stderr carries only errors");
  format.choices = {"normal", "json", "json+", "terse"};
  t.add(std::move(format), [](RunArgs& a, const OptionValue& v) { a.run.output_formats = output_formats_of(v.list); });
  t.add(text_arg("output", "FILE", "",
                 "write the report to FILE instead of stdout; FILE is replaced only once the report is complete (if "
                 "it cannot be written, the report goes to stdout and the exit is 1)"),
        [](RunArgs& a, const OptionValue& v) { a.run.output_path = v.text; });
}

void add_run_rows(CommandTable<RunArgs>& t) {
  t.add(flag_arg("allow-destructive",
                 "allow writes to block devices that carry a filesystem, partition table, RAID "
                 "or LVM signature (mounted devices are always refused)"),
        [](RunArgs& a, const OptionValue&) { a.run.allow_destructive = true; });
  t.add(flag_arg("parse-only", "check the options and job files and exit (errors as file:line: on stderr)"),
        [](RunArgs& a, const OptionValue&) { a.parse_only = true; });
  t.add(flag_arg("showcmd", "print each job of the job files as an equivalent sluice command line and exit"),
        [](RunArgs& a, const OptionValue&) { a.showcmd = true; });
  OptionInfo override_row = text_arg("override", "OPT=VAL", "",
                                     "set a job option in every job after the job files (the last word), e.g. "
                                     "--override=directory=/scratch (sluice only: fio has no such option)");
  override_row.repeatable = true;
  t.add(std::move(override_row),
        [](RunArgs& a, const OptionValue& v) { parse_run_override("override", v.text, a.overrides); });
  t.add(size_arg("cap-size", 1, "", "every job's size, filesize and io_size at most S; sluice only"),
        [](RunArgs& a, const OptionValue& v) { a.overrides.cap_size = v.number; });
  t.add(text_arg("cap-runtime", "TIME", "",
                 "every job's runtime at most TIME, size-based jobs too; also caps ramp_time, startdelay and "
                 "steady-state durations (a bare number is seconds; sluice only)"),
        [](RunArgs& a, const OptionValue& v) { parse_run_override("cap-runtime", v.text, a.overrides); });
  t.add(text_arg("status-interval", "T", "",
                 "as fio: the whole report so far (cumulative) every T (a bare number is seconds), in every "
                 "--output-format, before the final one (each JSON document complete); the live status line's "
                 "refresh is --eta-interval (default 1s; --no-status or --eta=never hides the line)"),
        [](RunArgs& a, const OptionValue& v) { a.run.report_interval = seconds_or_duration(v); });
  t.add(text_arg("interval-log", "FILE", "",
                 "one JSON line per job per interval (--status-interval's T, else 1s) with that interval's ios, "
                 "bytes, IOPS, bandwidth and exact latency percentiles (sluice only)"),
        [](RunArgs& a, const OptionValue& v) { a.interval_log = v.text; });
  t.add(text_arg("metrics-file", "FILE", "",
                 "an OpenMetrics text file (FILE.prom for node_exporter's textfile collector) rewritten atomically "
                 "every interval: totals, the interval's rates and percentiles (sluice only)"),
        [](RunArgs& a, const OptionValue& v) { a.metrics_file = v.text; });
  t.add(flag_arg("no-status", "no live status line"),
        [](RunArgs& a, const OptionValue&) { a.run.status_line = false; });
  t.add(choice_arg("eta", {"never", "always", "auto"}, "auto",
                   "the live status line: never, always (even when not on a terminal), auto (on a terminal)"),
        [](RunArgs& a, const OptionValue& v) {
          a.run.status_line = v.text != "never";
          a.run.status_line_forced = v.text == "always";
        });
  add_history_options(t, &RunArgs::history);
  OptionInfo cmdhelp = text_arg("cmdhelp", "OPTION", "", "explain one job option, or all of them (bare --cmdhelp)");
  cmdhelp.bare_value = "all";
  t.add(std::move(cmdhelp), [](RunArgs& a, const OptionValue& v) { a.cmdhelp = v.text; });
}

// fio's global options: their values checked as fio checks them (job/fio_global_options.h).
void add_fio_global_rows(CommandTable<RunArgs>& t) {
  using Format = RunOptions::OutputFormat;
  t.add(flag_arg("minimal", "fio's terse output only (--output-format=terse)"),
        [](RunArgs& a, const OptionValue&) { a.run.output_formats = {Format::kTerse}; });
  t.add(flag_arg("append-terse", "fio's terse output after the other formats"), [](RunArgs& a, const OptionValue&) {
    std::vector<Format>& formats = a.run.output_formats;
    if (std::find(formats.begin(), formats.end(), Format::kTerse) == formats.end()) formats.push_back(Format::kTerse);
  });
  t.add(text_arg("terse-version", "N", "3", "terse format 2, 3, 4 or 5, field for field as fio 3.33"),
        [](RunArgs& a, const OptionValue& v) { a.run.terse_version = fio_terse_version(v.where, v.text); });
  t.add(flag_arg("readonly", "refuse every job that writes or trims, or whose engine changes files on reads"),
        [](RunArgs& a, const OptionValue&) { a.run.readonly = true; });
  OptionInfo section = text_arg("section", "NAME", "", "run only the jobs (sections) named NAME");
  section.repeatable = true;
  t.add(std::move(section), [](RunArgs& a, const OptionValue& v) { a.run.sections.push_back(v.text); });
  t.add(flag_arg("warnings-fatal", "a warning about the jobs stops the run (exit 1)"),
        [](RunArgs& a, const OptionValue&) { a.run.warnings_fatal = true; });
  t.add(flag_arg("bandwidth-log", "write agg-read_bw.log, agg-write_bw.log, agg-trim_bw.log (all jobs' bandwidth)"),
        [](RunArgs& a, const OptionValue&) { a.run.bandwidth_log = true; });
  t.add(text_arg("eta-interval", "T", "", "live status refresh (at least 250ms, as fio; a bare number is seconds)"),
        [](RunArgs& a, const OptionValue& v) { a.run.status_interval = fio_eta_interval(v.where, v.text); });
  t.add(text_arg("eta-newline", "T", "", "keep a status line per T (a bare number is seconds)"),
        [](RunArgs& a, const OptionValue& v) { a.run.eta_newline = fio_eta_newline(v.where, v.text); });
  t.add(text_arg("inflate-log", "FILE", "",
                 "print a compressed log (log_store_compressed, NAME.log.fz) as text; runs nothing"),
        [](RunArgs& a, const OptionValue& v) { a.run.inflate_log = v.text; });
  t.add(text_arg("aux-path", "DIR", "",
                 "the directory of the verify state files (local-JOB-N-verify.state; default: "
                 "here)"),
        [](RunArgs& a, const OptionValue& v) { a.run.aux_path = v.text; });
  t.add(text_arg("max-jobs", "N", "", "accepted as fio accepts it (sluice has no job table)"),
        [](RunArgs&, const OptionValue& v) { check_fio_max_jobs(v.where, v.text); });
  t.add(text_arg("debug", "CATS", "",
                 "accepted as fio accepts it (sluice has no debug trace; the categories are "
                 "checked)"),
        [](RunArgs&, const OptionValue& v) { check_fio_debug(v.where, v.text); });
}

// fio's triggers (power-cut tests); with --client they are the client's own (docs/multi-host.md).
void add_trigger_rows(CommandTable<RunArgs>& t) {
  t.add(text_arg("trigger-file", "FILE", "",
                 "when FILE appears (it is removed) every job stops and --trigger's command runs, as fio; checked "
                 "every 100 ms"),
        [](RunArgs& a, const OptionValue& v) { a.trigger.file = v.text; });
  t.add(text_arg("trigger-timeout", "T", "",
                 "T after sluice started (a bare number is seconds) every job stops and --trigger's command runs, "
                 "as fio"),
        [](RunArgs& a, const OptionValue& v) { a.trigger.timeout = trigger_timeout_of(v); });
  t.add(text_arg("trigger", "CMD", "",
                 "the shell command run when the trigger fires (with --client: on this host, once per server's "
                 "answer, as fio)"),
        [](RunArgs& a, const OptionValue& v) { a.trigger.command = v.text; });
  t.add(text_arg("trigger-remote", "CMD", "",
                 "with --client: the command each server runs when the trigger fires (fio's VTRIGGER), after "
                 "stopping its jobs"),
        [](RunArgs& a, const OptionValue& v) { a.trigger.remote_command = v.text; });
}

CommandTable<RunArgs> make_table() {
  CommandInfo info = command_info(
      "run", "run jobs given in fio's command-line form or fio job files (sluice run --help lists every option)",
      kDescription);
  info.positionals = {{"JOBFILE...",
                       "fio job files, run one after another (each after the first starts with a "
                       "stonewall)",
                       false, true}};
  info.passes_job_options = true;
  info.lists_job_options = true;
  info.notes = kNotes;
  CommandTable<RunArgs> t(std::move(info));
  add_output_rows(t);
  add_run_rows(t);
  add_trigger_rows(t);
  add_fio_global_rows(t);
  return t;
}

const CommandTable<RunArgs>& table() {
  static const CommandTable<RunArgs> kTable = make_table();
  return kTable;
}

// --section: only the jobs of the named sections (command-line --name jobs included, as fio does).
std::vector<JobSpec> select_sections(std::vector<JobSpec> jobs, const std::vector<std::string>& sections) {
  if (sections.empty()) return jobs;
  std::vector<JobSpec> kept;
  std::string names;
  for (JobSpec& job : jobs) {
    names += (names.empty() ? "" : ", ") + job.name;
    if (std::find(sections.begin(), sections.end(), job.name) != sections.end()) kept.push_back(std::move(job));
  }
  if (kept.empty()) {
    throw UserError("--section=" + sections.front() + ": no job is named so (jobs: " + names + ")");
  }
  return kept;
}

// --readonly: fio refuses a job that writes or trims while parsing, before anything runs.
void check_readonly(const std::vector<JobSpec>& jobs) {
  for (const JobSpec& job : jobs) {
    if (job.does_writes() || job.does_trims()) {
      throw UserError("job " + job.name + " (rw=" + std::string(rw_mode_name(job.workload.rw)) +
                      ") writes or trims, but --readonly is set; drop --readonly or use a read-only rw=");
    }
    if (job.trims_written_blocks()) {  // fio 3.40's "trim operations are possible" refusal
      throw UserError("job " + job.name +
                      " trims (trim_percentage, trim_backlog with verify=), but --readonly is "
                      "set; drop --readonly or the trim options");
    }
    if (engine_traits(job.engine.ioengine).reads_change_files) {
      throw UserError("job " + job.name + " (ioengine=" + std::string(engine_name(job.engine.ioengine)) +
                      ") changes files even when it reads (it allocates, creates or deletes them), but --readonly "
                      "is set; drop --readonly");
    }
    // fio replays a log's reads under --readonly and drops its writes and trims with a message; sluice
    // asks for that to be said in the job, before the log is read.
    const std::uint32_t no_writes = kReplaySkipWrite | kReplaySkipTrim;
    if (!job.iolog.read_iolog.empty() && (job.iolog.replay_skip & no_writes) != no_writes) {
      throw UserError("job " + job.name + " replays read_iolog=" + job.iolog.read_iolog.front() +
                      ", which may write or trim, but --readonly is set; add replay_skip=write,trim (fio drops a "
                      "log's writes then) or drop --readonly");
    }
  }
}

// The command-line jobs, then the job files' jobs (fio's order).
std::vector<JobSpec> all_jobs(RunArgs& parsed) {
  JobCommandLine& given = parsed.command_line;
  std::vector<JobSpec> jobs = std::move(given.jobs);
  if (!given.job_files.empty()) {
    JobFileSettings settings;
    settings.globals = given.globals;
    for (FileJob& job : parse_job_files(given.job_files, settings)) jobs.push_back(std::move(job.spec));
  }
  apply_run_overrides(jobs, parsed.overrides);
  return jobs;
}

int show_commands(const JobCommandLine& given) {
  if (given.job_files.empty()) throw UserError("--showcmd needs a job file: sluice run --showcmd job.fio");
  JobFileSettings settings;
  settings.globals = given.globals;
  for (const FileJob& job : parse_job_files(given.job_files, settings)) {
    std::fputs((showcmd_line(job) + "\n").c_str(), stdout);
  }
  return kExitOk;
}

// Reports each failed job on stderr; the exit code of a run.
int exit_code_of(const RunResult& result) {
  bool job_failed = false;
  for (const GroupResult& g : result.groups) {
    for (const JobResult& j : g.jobs) {
      if (j.error != 0) {
        job_failed = true;
        std::fprintf(stderr, "sluice: job %s: %s\n", j.name.c_str(), j.error_message.c_str());
      } else if (!j.error_message.empty()) {  // error 0: the first failure continue_on_error let pass
        std::fprintf(stderr, "sluice: job %s: errors ignored (continue_on_error); first: %s\n", j.name.c_str(),
                     j.error_message.c_str());
      }
    }
  }
  if (job_failed) return kExitError;
  return result.interrupted ? kExitInterrupted : kExitOk;
}

// The job files' contents, one after another, for the saved record (empty without job files).
std::string job_files_text(const std::vector<std::string>& files) {
  std::string text;
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    text += content.str();
  }
  return text;
}

// Under MPI: the jobs on every rank in step (mpi/cluster_run.h); rank 0's measurement is the cluster's report.
Measurement measure_on_all_ranks(const std::vector<JobSpec>& jobs, const RunnerOptions& runner,
                                 const std::vector<Problem>& warnings, const std::vector<std::string>& notes,
                                 const RunArgs& parsed, bool json_plus) {
  mpi::ClusterRun cluster = mpi::run_cluster(jobs, runner);
  if (mpi::rank() != 0) return Measurement{"", "", cluster.exit_code};
  for (const std::string& failure : cluster.failures) std::fprintf(stderr, "sluice: failed on %s\n", failure.c_str());
  RunResult& result = cluster.combined;
  result.warnings.insert(result.warnings.begin(), warnings.begin(), warnings.end());
  result.notes = notes;
  if (parsed.run.bandwidth_log) write_aggregate_bw_logs(result, ".");
  Measurement m{mpi::render_cluster_text(cluster), mpi::render_cluster_json(cluster, json_plus), cluster.exit_code};
  for (RunOptions::OutputFormat f : parsed.run.output_formats) {
    if (f == RunOptions::OutputFormat::kTerse) m.terse = render_terse(result, parsed.run.terse_version);
  }
  return m;
}

// --status-interval: the run so far in every chosen format, as fio's periodic reports: to stdout, or added
// to --output (emptied by the first; the final report then follows the last).
void write_progress_report(const RunResult& progress, const RunOptions& run, OutputChoice& output) {
  std::vector<Document> documents;
  for (RunOptions::OutputFormat format : output.formats) {
    switch (format) {
      case RunOptions::OutputFormat::kNormal:
        documents.push_back({render_normal(progress, NormalReportOptions{.show_warnings = false}), {}});
        break;
      case RunOptions::OutputFormat::kJson:
        documents.push_back({render_json_text(progress, false), {}});
        break;
      case RunOptions::OutputFormat::kJsonPlus:
        documents.push_back({render_json_text(progress, true), {}});
        break;
      case RunOptions::OutputFormat::kTerse:
        documents.push_back({render_terse(progress, run.terse_version), {}});
        break;
    }
  }
  append_report_documents(documents, output.path, !output.append);
  output.append = true;
}

int run_parsed(RunArgs& parsed, const std::vector<std::string>& args) {
  const auto genesis = std::chrono::steady_clock::now();  // --trigger-timeout counts from here (fio: its start)
  if (!parsed.run.inflate_log.empty()) {
    inflate_fio_log(parsed.run.inflate_log, stdout);  // fio does only this when given --inflate-log
    return kExitOk;
  }
  if (parsed.showcmd) return show_commands(parsed.command_line);
  std::vector<JobSpec> jobs = select_sections(all_jobs(parsed), parsed.run.sections);
  for (JobSpec& job : jobs) job.verification.aux_path = parsed.run.aux_path;
  if (jobs.empty()) throw UserError("no job given; try: sluice run --name=a --filename=FILE --size=1g --rw=randread");
  if (parsed.run.readonly) check_readonly(jobs);

  // Warnings belong to the report; only --parse-only (which prints no report) shows them on stderr.
  std::vector<Problem> warnings;
  if (!check_jobs(jobs, warnings, parsed.parse_only ? WarningSink::kStderr : WarningSink::kReport)) return kExitError;
  if (parsed.run.warnings_fatal && !warnings.empty()) {
    if (!parsed.parse_only) print_warnings(warnings);
    throw UserError("--warnings-fatal: the jobs have warnings (above)");
  }
  if (parsed.parse_only) return kExitOk;
  if (mpi::active() && parsed.trigger.armed()) {
    throw UserError(
        "--trigger-file / --trigger-timeout: not supported under MPI (use fio's client/server mode: "
        "--client with --trigger-remote)");
  }

  RunnerOptions runner;
  runner.allow_destructive = parsed.run.allow_destructive;
  runner.status_line = parsed.run.status_line;
  runner.status_line_forced = parsed.run.status_line_forced;
  if (parsed.run.status_interval) runner.status_interval = *parsed.run.status_interval;
  if (parsed.run.eta_newline) runner.status_newline = *parsed.run.eta_newline;
  runner.series_interval = parsed.run.series_interval;
  // The lint's warnings reach the report through RunResult::warnings; its rendered block is not needed.
  runner.notice = [](const std::string&) {};
  install_lint(runner);
  std::vector<std::string> notes;
  runner.notice = [&notes](const std::string& text) { notes.push_back(text); };
  OutputChoice output{parsed.run.output_formats, parsed.run.output_path};
  IntervalOutputs intervals(parsed.interval_log, parsed.metrics_file);
  if ((parsed.run.report_interval || intervals.active()) && !mpi::active()) {
    runner.report_interval = parsed.run.report_interval.value_or(std::chrono::seconds(1));
    runner.report_progress = [&output, &parsed, &intervals](const RunResult& progress) {
      if (parsed.run.report_interval) write_progress_report(progress, parsed.run, output);
      if (intervals.active()) intervals.record(progress);
    };
  }
  MpiRepetitions repetitions;
  const auto measure = [&](bool json_plus) {
    notes.clear();
    if (mpi::active()) {
      if (mpi::rank() == 0) repetitions.next();
      return measure_on_all_ranks(jobs, runner, warnings, notes, parsed, json_plus);
    }
    RunResult result;
    std::string trigger_note;
    {
      LocalTrigger trigger(parsed.trigger, genesis);
      result = run_jobs(jobs, runner);
      trigger_note = trigger.note();
    }
    if (intervals.active()) intervals.record(result);  // each job's last, partial interval
    result.warnings.insert(result.warnings.begin(), warnings.begin(), warnings.end());  // validation first
    result.notes = notes;
    if (!trigger_note.empty()) result.notes.push_back(trigger_note);
    if (parsed.run.bandwidth_log) write_aggregate_bw_logs(result, ".");  // fio writes them into the current directory
    Measurement m{render_normal(result, NormalReportOptions{.show_warnings = true}), std::string(),
                  exit_code_of(result)};
    for (RunOptions::OutputFormat f : output.formats) {
      if (f == RunOptions::OutputFormat::kTerse) m.terse = render_terse(result, parsed.run.terse_version);
    }
    // The JSON is written when it is printed, from the result kept until then (docs/reliability.md, "Long runs").
    auto kept = std::make_shared<const RunResult>(std::move(result));
    m.json_writer = [kept, json_plus](std::ostream& out) { write_json_text(*kept, json_plus, out); };
    return m;
  };
  if (mpi::active() && mpi::rank() != 0) {
    // Only rank 0 writes reports and saves; the others run each of its repetitions in step with it.
    return MpiRepetitions::follow([&] { return measure(false).exit_code; });
  }
  const int code =
      run_measured({"run", args, job_files_text(parsed.command_line.job_files)}, parsed.history, output, measure);
  repetitions.done();
  return code;
}

}  // namespace

const CommandInfo& run_command_info() { return table().info(); }

RunArgs parse_run_args(const std::vector<std::string>& args) {
  // A profile's own options (--block, --dir, ...) are neither run's nor job options: expanded first.
  const ParsedArgs parsed = parse_arguments(table().info(), expand_fio_profile(args));
  RunArgs out;
  std::vector<std::string> job_args;
  table().apply(parsed, out, &job_args);
  job_args.push_back("--");  // the job files, never taken for options
  job_args.insert(job_args.end(), parsed.positionals.begin(), parsed.positionals.end());
  out.command_line = parse_job_command_line(job_args);
  finish_fio_profile_jobs(args, out.command_line);
  return out;
}

int run_command(const std::vector<std::string>& args) {
  if (asks_for_server(args)) return server_from_fio_arguments(args);
  if (asks_for_client(args)) return client_from_fio_arguments(args);
  RunArgs parsed = parse_run_args(args);
  if (!parsed.cmdhelp.empty()) {
    std::fputs(render_option_help(parsed.cmdhelp).c_str(), stdout);
    return kExitOk;
  }
  try {
    return run_parsed(parsed, args);
  } catch (const JobFileError& e) {
    for (const std::string& message : e.messages()) std::fprintf(stderr, "sluice: %s\n", message.c_str());
    return kExitError;
  }
}

}  // namespace sluice
