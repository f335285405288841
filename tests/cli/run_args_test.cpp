// sluice run's own options from its command table (cli/run_command.cpp): parsed once, checked by the framework,
// the rest passed on to the job parser.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/command_args.h"
#include "cli/command_table.h"
#include "common/error.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using Format = RunOptions::OutputFormat;

std::string run_error_of(const std::vector<std::string>& args) {
  try {
    parse_run_args(args);
  } catch (const UserError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(RunArgs, RunLevelOptions) {
  const RunArgs parsed =
      parse_run_args({"--output-format=json,normal", "--output", "out.json", "--allow-destructive", "--parse-only",
                      "--status-interval=2", "--interval-log=i.jsonl", "--metrics-file=m.prom", "--name=a"});
  EXPECT_EQ(parsed.run.output_formats, (std::vector<Format>{Format::kJson, Format::kNormal}));
  EXPECT_EQ(parsed.run.output_path, "out.json");
  EXPECT_TRUE(parsed.run.allow_destructive);
  EXPECT_TRUE(parsed.parse_only);
  EXPECT_EQ(parsed.run.report_interval, std::chrono::seconds(2));
  EXPECT_EQ(parsed.interval_log, "i.jsonl");
  EXPECT_EQ(parsed.metrics_file, "m.prom");
  EXPECT_TRUE(parsed.command_line.job_files.empty());
  ASSERT_EQ(parsed.command_line.jobs.size(), 1u);
  EXPECT_EQ(parsed.command_line.jobs[0].name, "a");
}

TEST(RunArgs, JobOptionsAndFilesArePassedOnInOrder) {
  const RunArgs parsed = parse_run_args({"--bs=8k", "--output-format=json", "a.fio", "--iodepth=4", "b.fio"});
  EXPECT_EQ(parsed.command_line.globals.workload.bs[1], 8192u);
  EXPECT_EQ(parsed.command_line.globals.queue.iodepth, 4u);
  EXPECT_THAT(parsed.command_line.job_files, ElementsAre("a.fio", "b.fio"));
  EXPECT_EQ(parsed.run.output_formats, std::vector<Format>{Format::kJson});
}

TEST(RunArgs, JsonPlusImpliesJson) {
  EXPECT_EQ(parse_run_args({"--output-format=json,json+"}).run.output_formats, std::vector<Format>{Format::kJsonPlus});
}

TEST(RunArgs, BadOutputFormatNamesTheNearest) {
  EXPECT_EQ(run_error_of({"--output-format=jsn"}),
            "--output-format=jsn: not one of normal, json, json+, terse; did you mean json?");
}

TEST(RunArgs, StatusControls) {
  EXPECT_FALSE(parse_run_args({"--no-status"}).run.status_line);
  EXPECT_FALSE(parse_run_args({"--eta=never"}).run.status_line);
  EXPECT_TRUE(parse_run_args({"--eta=always"}).run.status_line_forced);
  EXPECT_THAT(run_error_of({"--eta=sometimes"}), HasSubstr("not one of never, always, auto"));
  EXPECT_THAT(run_error_of({"--status-interval=0"}), HasSubstr("--status-interval=0: not a positive duration"));
}

TEST(RunArgs, HelpIsTheFrameworksAnswer) {
  EXPECT_THROW(parse_run_args({"--name=a", "-h"}), HelpRequested);
  EXPECT_THROW(parse_run_args({"--help"}), HelpRequested);
}

TEST(RunArgs, CmdhelpTakesAnOptionOrAll) {
  EXPECT_EQ(parse_run_args({"--cmdhelp=bs"}).cmdhelp, "bs");
  EXPECT_EQ(parse_run_args({"--cmdhelp", "iodepth"}).cmdhelp, "iodepth");
  EXPECT_EQ(parse_run_args({"--cmdhelp"}).cmdhelp, "all");
}

TEST(RunArgs, ShowcmdIsARunOptionBeforeTheFiles) {
  const RunArgs parsed = parse_run_args({"--showcmd", "job.fio"});
  EXPECT_TRUE(parsed.showcmd);
  EXPECT_THAT(parsed.command_line.job_files, ElementsAre("job.fio"));
}

TEST(RunArgs, OverridesAndCaps) {
  const RunArgs parsed =
      parse_run_args({"--override=directory=/scratch", "--override=bs=8k", "--cap-size=1m", "--cap-runtime=2"});
  ASSERT_EQ(parsed.overrides.options.size(), 2u);
  EXPECT_EQ(parsed.overrides.options[1].first, "bs");
  EXPECT_EQ(parsed.overrides.cap_size, 1u << 20);
  EXPECT_EQ(parsed.overrides.cap_runtime, std::chrono::seconds(2));
  EXPECT_THAT(run_error_of({"--override=bsz=8k"}), HasSubstr("did you mean 'bs'?"));
}

TEST(RunArgs, UnknownRunOptionSuggestsTheNearest) {
  EXPECT_THAT(run_error_of({"--outptu=x"}), HasSubstr("--outptu: unknown option for run; did you mean --output?"));
}

TEST(RunArgs, UnknownJobOptionSuggestsTheNearest) {
  EXPECT_EQ(run_error_of({"--bsz=4k"}), "--bsz=4k: unknown option; did you mean --bs?");
}

TEST(RunArgs, ValueMissingAndFlagWithValue) {
  EXPECT_EQ(run_error_of({"--output"}), "--output: needs a value; use --output=FILE");
  EXPECT_EQ(run_error_of({"--allow-destructive=yes"}), "--allow-destructive=yes: takes no value");
}

TEST(RunArgs, TerseIsFiosTerseFormatNotNormal) {
  const RunArgs parsed = parse_run_args({"--output-format=normal,terse", "--name=a", "--ioengine=null", "--size=1m"});
  EXPECT_EQ(parsed.run.output_formats, (std::vector<Format>{Format::kNormal, Format::kTerse}));
}

TEST(RunArgs, MinimalAndOutputFormatTheLastWins) {
  EXPECT_EQ(parse_run_args({"--output-format=json", "--minimal"}).run.output_formats,
            std::vector<Format>{Format::kTerse});
  EXPECT_EQ(parse_run_args({"--minimal", "--output-format=json"}).run.output_formats,
            std::vector<Format>{Format::kJson});
}

TEST(RunArgs, FioGlobalsAreStoredInRunOptions) {
  const RunArgs parsed =
      parse_run_args({"--readonly", "--section", "b", "--section=c", "--terse-version=5", "--warnings-fatal",
                      "--bandwidth-log", "--eta-interval=500ms", "--eta-newline=2", "--name=b", "--ioengine=null"});
  EXPECT_TRUE(parsed.run.readonly);
  EXPECT_EQ(parsed.run.sections, (std::vector<std::string>{"b", "c"}));  // "--section b": the next argument
  EXPECT_EQ(parsed.run.terse_version, 5);
  EXPECT_TRUE(parsed.run.warnings_fatal);
  EXPECT_TRUE(parsed.run.bandwidth_log);
  EXPECT_EQ(parsed.run.status_interval, std::chrono::nanoseconds(std::chrono::milliseconds(500)));
  EXPECT_EQ(parsed.run.eta_newline, std::chrono::nanoseconds(std::chrono::seconds(2)));
  EXPECT_EQ(parsed.command_line.jobs.size(), 1u);
}

TEST(RunArgs, FioGlobalValuesAreCheckedAsFioChecksThem) {
  EXPECT_THAT(run_error_of({"--terse-version=6"}), HasSubstr("--terse-version=6: bad terse version format"));
  EXPECT_THAT(run_error_of({"--eta-interval=100ms"}), HasSubstr("too short"));
  EXPECT_THAT(run_error_of({"--debug=fle"}), HasSubstr("did you mean 'file'?"));
  EXPECT_THAT(run_error_of({"--max-jobs=0"}), HasSubstr("--max-jobs=0: not a positive number of jobs"));
  EXPECT_THAT(run_error_of({"--trigger-timeout=0"}), HasSubstr("--trigger-timeout=0: not a positive duration"));
}

TEST(RunArgs, ProfileJobsComeWithTheRunOptions) {
  const RunArgs parsed = parse_run_args({"--profile=tiobench", "--block", "8192", "--output-format=json"});
  ASSERT_EQ(parsed.command_line.jobs.size(), 4u);
  EXPECT_EQ(parsed.command_line.jobs[0].workload.bs[0], 8192u);
  EXPECT_EQ(parsed.run.output_formats, std::vector<Format>{Format::kJson});
  EXPECT_THAT(run_error_of({"--profile=tiobench", "job.fio"}), HasSubstr("job files cannot be added"));
}

// The table is the single source: every row has help, and what --help prints lists each of them.
TEST(RunArgs, HelpListsEveryRowAndTheJobOptions) {
  const CommandInfo& info = run_command_info();
  const std::string help = render_command_help(info);
  for (const OptionInfo& o : info.options) {
    EXPECT_FALSE(o.help.empty()) << o.name;
    EXPECT_THAT(help, HasSubstr("--" + o.name)) << o.name;
  }
  EXPECT_THAT(help, HasSubstr("--cmdhelp[=OPTION]"));
  EXPECT_THAT(help, HasSubstr("Job options:\n"));
  EXPECT_THAT(help, HasSubstr("\n  iodepth "));
}

}  // namespace
}  // namespace sluice
