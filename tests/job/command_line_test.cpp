#include "job/command_line.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sluice {
namespace {

using ::testing::HasSubstr;
using Format = RunOptions::OutputFormat;

std::string error_of(const std::vector<std::string>& args) {
  try {
    parse_run_command_line(args);
  } catch (const UserError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CommandLine, GlobalsApplyToEveryJob) {
  const auto parsed = parse_run_command_line({"--bs=8k", "--name=a", "--name=b"});
  ASSERT_EQ(parsed.jobs.size(), 2u);
  EXPECT_EQ(parsed.jobs[0].name, "a");
  EXPECT_EQ(parsed.jobs[1].name, "b");
  EXPECT_EQ(parsed.jobs[0].bs[0], 8192u);
  EXPECT_EQ(parsed.jobs[1].bs[0], 8192u);
}

TEST(CommandLine, JobOptionOverridesGlobalForThatJobOnly) {
  const auto parsed = parse_run_command_line({"--iodepth=4", "--name=a", "--iodepth=16", "--name=b"});
  ASSERT_EQ(parsed.jobs.size(), 2u);
  EXPECT_EQ(parsed.jobs[0].iodepth, 16u);
  EXPECT_EQ(parsed.jobs[1].iodepth, 4u);
  EXPECT_EQ(parsed.globals.iodepth, 4u);
}

TEST(CommandLine, OptionsAfterNameDoNotLeakIntoLaterJobs) {
  const auto parsed = parse_run_command_line({"--name=a", "--rw=write", "--name=b"});
  EXPECT_EQ(parsed.jobs[0].rw, RwMode::kWrite);
  EXPECT_EQ(parsed.jobs[1].rw, RwMode::kRead);
}

TEST(CommandLine, NoNameMakesOneJobCalledSluice) {
  const auto parsed = parse_run_command_line({"--rw=randread", "--size=1g"});
  ASSERT_EQ(parsed.jobs.size(), 1u);
  EXPECT_EQ(parsed.jobs[0].name, "sluice");
  EXPECT_EQ(parsed.jobs[0].rw, RwMode::kRandRead);
}

TEST(CommandLine, NoJobWithoutOptions) { EXPECT_TRUE(parse_run_command_line({}).jobs.empty()); }

TEST(CommandLine, JobFilesArePositional) {
  const auto parsed = parse_run_command_line({"--bs=8k", "a.fio", "b.fio"});
  EXPECT_EQ(parsed.job_files, (std::vector<std::string>{"a.fio", "b.fio"}));
  EXPECT_TRUE(parsed.jobs.empty());
  EXPECT_EQ(parsed.globals.bs[1], 8192u);
}

TEST(CommandLine, FlagsWithoutValue) {
  const auto parsed = parse_run_command_line({"--name=a", "--direct", "--time_based", "--runtime=5"});
  EXPECT_TRUE(parsed.jobs[0].direct);
  EXPECT_TRUE(parsed.jobs[0].time_based);
}

TEST(CommandLine, KbBaseAppliesToSizesBeforeIt) {
  const auto parsed = parse_run_command_line({"--name=a", "--bs=4k", "--kb_base=1000"});
  EXPECT_EQ(parsed.jobs[0].bs[0], 4000u);
}

TEST(CommandLine, RunLevelOptions) {
  const auto parsed =
      parse_run_command_line({"--output-format=json,normal", "--output", "out.json", "--allow-destructive",
                              "--parse-only", "--status-interval=2", "--interval-log=i.jsonl",
                              "--metrics-file=m.prom", "--name=a"});
  EXPECT_EQ(parsed.run.output_formats, (std::vector<Format>{Format::kJson, Format::kNormal}));
  EXPECT_EQ(parsed.run.output_path, "out.json");
  EXPECT_TRUE(parsed.run.allow_destructive);
  EXPECT_TRUE(parsed.parse_only);
  EXPECT_EQ(parsed.run.report_interval, std::chrono::seconds(2));  // fio's periodic full reports
  EXPECT_FALSE(parsed.run.status_interval);                           // not the status line's refresh
  EXPECT_EQ(parsed.interval_log, "i.jsonl");
  EXPECT_EQ(parsed.metrics_file, "m.prom");
  EXPECT_TRUE(parsed.job_files.empty());
}

TEST(CommandLine, JsonPlusImpliesJson) {
  const auto parsed = parse_run_command_line({"--output-format=json,json+"});
  EXPECT_EQ(parsed.run.output_formats, (std::vector<Format>{Format::kJsonPlus}));
}

TEST(CommandLine, BadOutputFormat) {
  EXPECT_EQ(error_of({"--output-format=jsn"}),
            "--output-format=jsn: 'jsn' is not one of normal, json, json+, terse; did you mean 'json'?");
}

TEST(CommandLine, StatusControls) {
  EXPECT_FALSE(parse_run_command_line({"--no-status"}).run.status_line);
  EXPECT_FALSE(parse_run_command_line({"--eta=never"}).run.status_line);
  EXPECT_TRUE(parse_run_command_line({"--eta=always"}).run.status_line_forced);
  EXPECT_THAT(error_of({"--eta=sometimes"}), HasSubstr("not one of never, always, auto"));
}

TEST(CommandLine, HelpAndCmdhelp) {
  EXPECT_TRUE(parse_run_command_line({"-h"}).show_help);
  EXPECT_TRUE(parse_run_command_line({"--help"}).show_help);
  EXPECT_EQ(parse_run_command_line({"--cmdhelp=bs"}).cmdhelp, "bs");
  EXPECT_EQ(parse_run_command_line({"--cmdhelp", "iodepth"}).cmdhelp, "iodepth");
  EXPECT_EQ(parse_run_command_line({"--cmdhelp"}).cmdhelp, "all");
}

TEST(CommandLineErrors, UnknownOptionSuggests) {
  EXPECT_EQ(error_of({"--bsz=4k"}), "--bsz=4k: unknown option; did you mean --bs?");
}

TEST(CommandLineErrors, UnknownRunOptionSuggests) {
  EXPECT_EQ(error_of({"--outptu=x"}), "--outptu=x: unknown option; did you mean --output?");
}

TEST(CommandLineErrors, ValueMissing) {
  EXPECT_EQ(error_of({"--bs"}), "--bs: value missing; use --bs=VALUE");
  EXPECT_EQ(error_of({"--output"}), "--output: value missing; use --output=VALUE");
  EXPECT_EQ(error_of({"--name"}), "--name: value missing; use --name=JOBNAME");
}

TEST(CommandLineErrors, JobOptionsNeedEquals) {
  // fio takes job options only as --opt=value; "--bs 4k" leaves "4k" as a job file and bs without a value.
  EXPECT_EQ(error_of({"--bs", "4k"}), "--bs: value missing; use --bs=VALUE");
}

TEST(CommandLineErrors, BadValue) {
  EXPECT_EQ(error_of({"--name=a", "--bs=4q"}), "--bs=4q: not a size; sizes look like 4k, 1m, 10%");
}

TEST(CommandLineErrors, SingleDash) { EXPECT_THAT(error_of({"-x"}), HasSubstr("-x: unknown option")); }

TEST(CommandLineErrors, RunFlagTakesNoValue) {
  EXPECT_EQ(error_of({"--allow-destructive=yes"}), "--allow-destructive=yes: takes no value");
}

TEST(CommandLine, LogFlagNamedAfterJob) {
  const auto parsed = parse_run_command_line({"--write_bw_log", "--name=seqread", "--write_lat_log=lat"});
  EXPECT_EQ(parsed.jobs[0].write_bw_log, "seqread");
  EXPECT_EQ(parsed.jobs[0].write_lat_log, "lat");
}

TEST(CommandLineErrors, UnsupportedFlagAlone) {
  EXPECT_THAT(error_of({"--skip_bad"}),
              HasSubstr("--skip_bad: not supported by sluice (an option of fio's mtd engine(s), which sluice does not "
                        "have)"));
}

TEST(CommandLineErrors, UnsupportedEngine) {
  EXPECT_EQ(error_of({"--ioengine=rbd"}),
            "--ioengine=rbd is not supported by sluice: fio's Ceph RBD engine (librbd): remote storage (supported: "
            "psync, sync, libaio, io_uring, mmap, null, falloc, "
            "ftruncate, filecreate, filestat, filedelete, cpuio, exec, posixaio, pvsync, pvsync2, vsync, splice, "
            "e4defrag, dircreate, dirstat, dirdelete, page_fault)");
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

TEST(CommandLineTerse, TerseIsFiosTerseFormatNotNormal) {
  const ParsedCommandLine parsed =
      parse_run_command_line({"--output-format=normal,terse", "--name=a", "--ioengine=null", "--size=1m"});
  ASSERT_EQ(parsed.run.output_formats.size(), 2u);
  EXPECT_EQ(parsed.run.output_formats[0], RunOptions::OutputFormat::kNormal);
  EXPECT_EQ(parsed.run.output_formats[1], RunOptions::OutputFormat::kTerse);
}

TEST(CommandLineTerse, MinimalAndOutputFormatTheLastWins) {
  EXPECT_EQ(parse_run_command_line({"--output-format=json", "--minimal"}).run.output_formats,
            std::vector<RunOptions::OutputFormat>{RunOptions::OutputFormat::kTerse});
  EXPECT_EQ(parse_run_command_line({"--minimal", "--output-format=json"}).run.output_formats,
            std::vector<RunOptions::OutputFormat>{RunOptions::OutputFormat::kJson});
}

TEST(CommandLineFioGlobals, StoredInRunOptionsAndRecorded) {
  const ParsedCommandLine parsed = parse_run_command_line(
      {"--readonly", "--section", "b", "--section=c", "--terse-version=5", "--warnings-fatal", "--bandwidth-log",
       "--eta-interval=500ms", "--eta-newline=2", "--name=b", "--ioengine=null"});
  EXPECT_TRUE(parsed.run.readonly);
  EXPECT_EQ(parsed.run.sections, (std::vector<std::string>{"b", "c"}));  // "--section b": the next argument
  EXPECT_EQ(parsed.run.terse_version, 5);
  EXPECT_TRUE(parsed.run.warnings_fatal);
  EXPECT_TRUE(parsed.run.bandwidth_log);
  EXPECT_EQ(parsed.run.status_interval, std::chrono::nanoseconds(std::chrono::milliseconds(500)));
  EXPECT_EQ(parsed.run.eta_newline, std::chrono::nanoseconds(std::chrono::seconds(2)));
  ASSERT_EQ(parsed.fio_globals.size(), 8u);
  EXPECT_EQ(parsed.fio_globals[1], "--section=b");
  EXPECT_EQ(parsed.jobs.size(), 1u);
}

}  // namespace
}  // namespace sluice
