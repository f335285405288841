#include "job/job_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "job/command_line.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

JobFileSettings test_settings() {
  JobFileSettings settings;
  settings.expansion.system = SystemValues{4, 4096, 2048};
  settings.expansion.env = [](const std::string& name) -> std::optional<std::string> {
    if (name == "NUMJOBS") return "3";
    return std::nullopt;
  };
  return settings;
}

std::vector<FileJob> parse(std::string_view text, const JobFileSettings& settings = test_settings()) {
  return parse_job_text(text, "job.fio", settings);
}

std::vector<std::string> file_errors_of(std::string_view text) {
  try {
    parse(text);
  } catch (const JobFileError& e) {
    return e.messages();
  }
  return {};
}

std::string file_error_of(std::string_view text) {
  const auto errors = file_errors_of(text);
  return errors.empty() ? "(no error)" : errors.front();
}

void write_file(const std::string& path, std::string_view text) {
  std::ofstream out(path);
  out << text;
}

std::vector<std::string> names_of(const std::vector<FileJob>& jobs) {
  std::vector<std::string> names;
  for (const FileJob& job : jobs) names.push_back(job.spec.name);
  return names;
}

TEST(JobFile, SectionsAreJobs) {
  const auto jobs = parse("[a]\nrw=randread\n[b]\nrw=write\n");
  EXPECT_THAT(names_of(jobs), ElementsAre("a", "b"));
  EXPECT_EQ(jobs[0].spec.workload.rw, RwMode::kRandRead);
  EXPECT_EQ(jobs[1].spec.workload.rw, RwMode::kWrite);
}

TEST(JobFile, GlobalSectionAppliesToJobsBelow) {
  const auto jobs = parse("[global]\nbs=8k\n[a]\n[b]\nbs=16k\n");
  EXPECT_EQ(jobs[0].spec.workload.bs[0], 8192u);
  EXPECT_EQ(jobs[1].spec.workload.bs[0], 16384u);
}

TEST(JobFile, LaterGlobalSectionChangesOnlyLaterJobs) {
  const auto jobs = parse("[global]\nbs=8k\niodepth=2\n[a]\n[global]\nbs=16k\n[b]\n");
  EXPECT_EQ(jobs[0].spec.workload.bs[0], 8192u);
  EXPECT_EQ(jobs[1].spec.workload.bs[0], 16384u);
  EXPECT_EQ(jobs[1].spec.queue.iodepth, 2u);  // added to, not replaced
}

TEST(JobFile, SectionNameStartingWithGlobalIsGlobal) {
  const auto jobs = parse("[global-defaults]\nbs=8k\n[a]\n");
  EXPECT_THAT(names_of(jobs), ElementsAre("a"));
  EXPECT_EQ(jobs[0].spec.workload.bs[0], 8192u);
}

TEST(JobFile, CommentLinesAndTrailingComments) {
  const auto jobs = parse("; top\n# also\n[a] ; job a\nbs=8k ; eight\nrw=write # write\n");
  EXPECT_EQ(jobs[0].spec.workload.bs[0], 8192u);
  EXPECT_EQ(jobs[0].spec.workload.rw, RwMode::kWrite);
}

TEST(JobFile, HashEndsTheValueAsInFio) {
  const auto jobs = parse("[a]\nfilename=/tmp/x#y\n");
  EXPECT_THAT(jobs[0].spec.target.filenames, ElementsAre("/tmp/x"));
}

TEST(JobFile, BlanksAroundNameAndValueAreTrimmed) {
  const auto jobs = parse("  [a]\n\t bs  =  8k \r\n");
  EXPECT_EQ(jobs[0].spec.workload.bs[0], 8192u);
}

TEST(JobFile, FlagWithoutValue) { EXPECT_TRUE(parse("[a]\ntime_based\n")[0].spec.time.time_based); }

TEST(JobFile, FlagZeroTurnsItOff) {
  EXPECT_FALSE(parse("[global]\ntime_based\n[a]\ntime_based=0\n")[0].spec.time.time_based);
}

TEST(JobFile, NameOptionRenamesTheJob) { EXPECT_EQ(parse("[a]\nname=b\n")[0].spec.name, "b"); }

TEST(JobFile, KbBaseAppliesBeforeSizesOfTheSection) {
  EXPECT_EQ(parse("[a]\nsize=1m\nkb_base=1000\n")[0].spec.target.size.bytes, 1000000u);
}

TEST(JobFile, PositionsAreRecorded) {
  const auto jobs = parse("[global]\nbs=8k\n\n[a]\nrw=write\n");
  EXPECT_EQ(jobs[0].spec.where.describe(), "job.fio:4");
  EXPECT_EQ(jobs[0].spec.option_pos.at("rw").describe(), "job.fio:5");
  EXPECT_EQ(jobs[0].spec.option_pos.at("bs").describe(), "job.fio:2");
}

TEST(JobFile, CommandLineGlobalsApplyAndFileOverrides) {
  JobFileSettings settings = test_settings();
  settings.globals = parse_job_command_line({"--iodepth=4", "--bs=16k", "x.fio"}).globals;
  const auto jobs = parse("[a]\nbs=8k\n", settings);
  EXPECT_EQ(jobs[0].spec.queue.iodepth, 4u);
  EXPECT_EQ(jobs[0].spec.workload.bs[0], 8192u);
}

TEST(JobFile, EnvironmentAndKeywordsInValues) {
  const auto jobs = parse("[a]\nnumjobs=${NUMJOBS}\nsize=$ncpus*4096\niodepth=(2*4)\n");
  EXPECT_EQ(jobs[0].spec.control.numjobs, 3u);
  EXPECT_EQ(jobs[0].spec.target.size.bytes, 16384u);
  EXPECT_EQ(jobs[0].spec.queue.iodepth, 8u);
}

TEST(JobFile, OffsetModifierInRw) {
  const auto jobs = parse("[a]\nrw=randread:8\n");
  EXPECT_EQ(jobs[0].spec.workload.rw, RwMode::kRandRead);
  EXPECT_EQ(jobs[0].spec.workload.rw_sequential_run, 8u);
}

TEST(JobFile, BareLogFlagIsNamedAfterTheJob) {
  EXPECT_EQ(parse("[global]\nwrite_bw_log\n[a]\n")[0].spec.logs.write_bw_log, "a");
}

TEST(JobFileErrors, UnknownOptionSuggestsNearest) {
  EXPECT_EQ(file_error_of("[a]\n\nbsz=4k\n"), "job.fio:3: unknown option 'bsz'; did you mean 'bs'?");
}

TEST(JobFileErrors, UnsupportedOptionNamesLine) {
  const std::string error = file_error_of("[a]\nskip_bad=1\n");
  EXPECT_THAT(error, HasSubstr("job.fio:2: skip_bad=1"));
  EXPECT_THAT(error, HasSubstr("not supported by sluice"));
}

TEST(JobFileErrors, UnsupportedEngineNamesLine) {
  EXPECT_THAT(file_error_of("[a]\nioengine=rbd\n"), HasSubstr("job.fio:2: ioengine=rbd is not supported by sluice"));
}

TEST(JobFileErrors, LineWithoutEqualsThatIsNoOption) {
  EXPECT_THAT(file_error_of("[a]\nrw randread\n"), HasSubstr("job.fio:2: 'rw randread' is not an option line"));
}

TEST(JobFileErrors, OptionThatNeedsAValue) {
  EXPECT_EQ(file_error_of("[a]\nrw\n"), "job.fio:2: option 'rw' needs a value (rw=VALUE)");
}

TEST(JobFileErrors, UnterminatedSectionHeader) {
  EXPECT_EQ(file_error_of("[a\nbs=4k\n"), "job.fio:1: section header '[a' lacks its closing ']'");
}

TEST(JobFileErrors, EmptySectionName) { EXPECT_EQ(file_error_of("[ ]\n"), "job.fio:1: empty section name '[]'"); }

TEST(JobFileErrors, OptionOutsideASection) {
  EXPECT_THAT(file_error_of("bs=4k\n[a]\n"), HasSubstr("job.fio:1: option 'bs=4k' is outside of any [section]"));
}

TEST(JobFileErrors, BadExpressionNamesLineAndOption) {
  EXPECT_THAT(file_error_of("[a]\nsize=(1+\n"), HasSubstr("job.fio:2: size=(1+: cannot evaluate"));
}

TEST(JobFileErrors, EveryProblemIsReported) {
  EXPECT_EQ(file_errors_of("[a]\nbsz=4k\nrw=sideways\n[b]\nverify_offset=2\n").size(), 3u);
}

TEST(JobFileErrors, MissingJobFile) {
  try {
    parse_job_file("/nonexistent/job.fio", test_settings());
    FAIL() << "no error";
  } catch (const JobFileError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/nonexistent/job.fio: cannot read job file"));
  }
}

TEST(JobFileErrors, FileWithoutJobs) {
  testing::TempDir dir;
  write_file(dir.file("empty.fio"), "; nothing\n[global]\nbs=4k\n");
  EXPECT_THROW(parse_job_file(dir.file("empty.fio"), test_settings()), JobFileError);
}

TEST(JobFileInclude, RelativeToTheIncludingFileAndNested) {
  testing::TempDir dir;
  std::filesystem::create_directory(dir.file("sub"));
  write_file(dir.file("sub/one.fio"), "iodepth=2\ninclude two.fio\n");
  write_file(dir.file("sub/two.fio"), "bs=16k\n");
  write_file(dir.file("main.fio"), "[global]\ninclude sub/one.fio\n[a]\n");
  const auto jobs = parse_job_file(dir.file("main.fio"), test_settings());
  EXPECT_EQ(jobs[0].spec.queue.iodepth, 2u);
  EXPECT_EQ(jobs[0].spec.workload.bs[0], 16384u);
  EXPECT_EQ(jobs[0].spec.option_pos.at("bs").describe(), dir.file("sub/two.fio") + ":1");
}

TEST(JobFileInclude, AppliesToItsSectionOnly) {
  testing::TempDir dir;
  write_file(dir.file("inc.fio"), "iodepth=8\n");
  write_file(dir.file("main.fio"), "[a]\ninclude inc.fio\n[b]\n");
  const auto jobs = parse_job_file(dir.file("main.fio"), test_settings());
  EXPECT_EQ(jobs[0].spec.queue.iodepth, 8u);
  EXPECT_EQ(jobs[1].spec.queue.iodepth, 1u);
}

TEST(JobFileInclude, MissingIncludeNamesTheLine) {
  testing::TempDir dir;
  write_file(dir.file("main.fio"), "[a]\ninclude nope.fio\n");
  try {
    parse_job_file(dir.file("main.fio"), test_settings());
    FAIL() << "no error";
  } catch (const JobFileError& e) {
    EXPECT_THAT(e.what(), HasSubstr(dir.file("main.fio") + ":2: include " + dir.file("nope.fio") + ": cannot read"));
  }
}

TEST(JobFileInclude, CycleIsRefused) {
  testing::TempDir dir;
  write_file(dir.file("a.inc"), "include b.inc\n");
  write_file(dir.file("b.inc"), "include a.inc\n");
  write_file(dir.file("main.fio"), "[a]\ninclude a.inc\n");
  try {
    parse_job_file(dir.file("main.fio"), test_settings());
    FAIL() << "no error";
  } catch (const JobFileError& e) {
    EXPECT_THAT(e.what(), HasSubstr("include cycle: " + dir.file("a.inc") + " -> " + dir.file("b.inc") + " -> " +
                                    dir.file("a.inc")));
  }
}

TEST(JobFileInclude, DepthIsLimited) {
  testing::TempDir dir;
  for (int i = 0; i < 5; ++i) {
    write_file(dir.file("inc" + std::to_string(i) + ".fio"), "include inc" + std::to_string(i + 1) + ".fio\n");
  }
  write_file(dir.file("inc5.fio"), "bs=8k\n");
  write_file(dir.file("main.fio"), "[a]\ninclude inc0.fio\n");
  JobFileSettings settings = test_settings();
  settings.max_include_depth = 3;
  try {
    parse_job_file(dir.file("main.fio"), settings);
    FAIL() << "no error";
  } catch (const JobFileError& e) {
    EXPECT_THAT(e.what(), HasSubstr("includes nest deeper than 3"));
  }
}

TEST(JobFileInclude, SectionInIncludedFileIsRefused) {
  testing::TempDir dir;
  write_file(dir.file("inc.fio"), "[b]\n");
  write_file(dir.file("main.fio"), "[a]\ninclude inc.fio\n");
  try {
    parse_job_file(dir.file("main.fio"), test_settings());
    FAIL() << "no error";
  } catch (const JobFileError& e) {
    EXPECT_THAT(e.what(), HasSubstr(dir.file("inc.fio") + ":1: an included file may not start a section"));
  }
}

TEST(JobFiles, LaterFilesStartWithStonewall) {
  testing::TempDir dir;
  write_file(dir.file("one.fio"), "[a]\n[b]\n");
  write_file(dir.file("two.fio"), "[c]\n[d]\n");
  const auto jobs = parse_job_files({dir.file("one.fio"), dir.file("two.fio")}, test_settings());
  ASSERT_THAT(names_of(jobs), ElementsAre("a", "b", "c", "d"));
  EXPECT_FALSE(jobs[0].spec.control.stonewall);
  EXPECT_FALSE(jobs[1].spec.control.stonewall);
  EXPECT_TRUE(jobs[2].spec.control.stonewall);
  EXPECT_FALSE(jobs[3].spec.control.stonewall);
}

TEST(JobFiles, GlobalsOfOneFileDoNotReachTheNext) {
  testing::TempDir dir;
  write_file(dir.file("one.fio"), "[global]\nbs=8k\n[a]\n");
  write_file(dir.file("two.fio"), "[b]\n");
  const auto jobs = parse_job_files({dir.file("one.fio"), dir.file("two.fio")}, test_settings());
  EXPECT_EQ(jobs[1].spec.workload.bs[0], 4096u);
}

TEST(JobFiles, ProblemsOfAllFilesAreReported) {
  testing::TempDir dir;
  write_file(dir.file("one.fio"), "[a]\nbsz=4k\n");
  try {
    parse_job_files({dir.file("one.fio"), dir.file("missing.fio")}, test_settings());
    FAIL() << "no error";
  } catch (const JobFileError& e) {
    EXPECT_EQ(e.messages().size(), 2u);
  }
}

TEST(ShowCmd, GlobalsThenJobOptionsExpanded) {
  const auto jobs = parse("[global]\nbs=8k\ntime_based\n[a]\nsize=$ncpus*1024\nfilename=/tmp/a b\n");
  EXPECT_EQ(showcmd_line(jobs[0]), "sluice run --name=a --bs=8k --time_based --size=4096 --filename='/tmp/a b'");
}

TEST(JobFile, MemoryKeywordArithmetic) {
  EXPECT_EQ(parse("[a]\nsize=$mb_memory*1m/4\n")[0].spec.target.size.bytes, 2048ull * 1048576 / 4);
}

TEST(ShowCmd, ImplicitStonewallIsShown) {
  testing::TempDir dir;
  write_file(dir.file("one.fio"), "[a]\n");
  write_file(dir.file("two.fio"), "[b]\n");
  const auto jobs = parse_job_files({dir.file("one.fio"), dir.file("two.fio")}, test_settings());
  EXPECT_EQ(showcmd_line(jobs[1]), "sluice run --name=b --stonewall");
}

TEST(ShowCmd, OutputParsesBackToTheSameJob) {
  const auto jobs = parse("[global]\nkb_base=1000\nsize=1m\n[a]\nrw=randwrite\nbs=4k,8k\niodepth=16\n");
  std::vector<std::string> args;
  const std::string line = showcmd_line(jobs[0]);
  std::size_t start = std::string("sluice run ").size();
  while (start < line.size()) {
    const std::size_t space = std::min(line.find(' ', start), line.size());
    args.push_back(line.substr(start, space - start));
    start = space + 1;
  }
  const JobSpec again = parse_job_command_line(args).jobs.at(0);
  EXPECT_EQ(again.target.size.bytes, jobs[0].spec.target.size.bytes);
  EXPECT_EQ(again.workload.bs, jobs[0].spec.workload.bs);
  EXPECT_EQ(again.workload.rw, jobs[0].spec.workload.rw);
  EXPECT_EQ(again.queue.iodepth, jobs[0].spec.queue.iodepth);
}

}  // namespace
}  // namespace sluice
