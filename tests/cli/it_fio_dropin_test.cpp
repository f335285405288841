// sluice as a drop-in for fio's command line: the `fio` link and `sluice fio`, fio's global options, the
// terse output against fio 3.33's on the same null-engine job, and a clean stderr (warnings and layout notes
// are in the report). The fio comparisons run only where fio is installed; the field counts they check are
// also fixed in tests/report/terse_report_test.cpp.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using json = nlohmann::json;

const std::vector<std::string> kNullRead = {"--name=a", "--ioengine=null", "--size=1m", "--rw=read"};

std::string build_dir() { return std::filesystem::path(SLUICE_BINARY).parent_path().string(); }
std::string fio_link() { return build_dir() + "/fio"; }

std::vector<std::string> with_args(std::vector<std::string> args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}

// Options before a job: `first` then `job`.
std::vector<std::string> before(std::vector<std::string> first, const std::vector<std::string>& job) {
  first.insert(first.end(), job.begin(), job.end());
  return first;
}

RunOutput run_sluice(std::vector<std::string> args) {
  args.insert(args.begin(), "run");
  return run_binary(args);
}

RunOutput run_fio(const std::vector<std::string>& args) {
  RunOptions o;
  o.program = "/usr/bin/fio";
  return run_binary(args, o);
}

bool have_fio() { return std::filesystem::exists("/usr/bin/fio"); }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

std::vector<std::string> fields_of(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t semi = line.find(';', start);
    out.push_back(line.substr(start, semi - start));
    if (semi == std::string::npos) return out;
    start = semi + 1;
  }
}

TEST(FioLink, TheBuildLeavesAFioLinkToSluice) {
  ASSERT_TRUE(std::filesystem::is_symlink(fio_link())) << fio_link();
  EXPECT_EQ(std::filesystem::read_symlink(fio_link()).string(), "sluice");
}

TEST(FioLink, ALinkNamedFioRunsTheRunCommand) {
  RunOptions o;
  o.program = fio_link();
  const RunOutput r = run_binary(with_args(kNullRead, {"--output-format=json"}), o);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "");
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ(total_ios((*doc)["jobs"][0], "read"), 256u);
}

TEST(FioLink, SluiceFioIsSluiceRun) {
  std::vector<std::string> args = with_args(kNullRead, {"--minimal"});
  args.insert(args.begin(), "fio");
  const RunOutput r = run_binary(args);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, StartsWith("3;sluice-"));
}

TEST(FioLink, FioScriptPassesUnchangedWithTheLinkInPath) {
  TempDir dir;
  RunOptions o;
  o.program = "sh";
  o.environment = {
      {"PATH", build_dir() + ":" + std::string(std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin")}};
  const RunOutput r = run_binary({std::string(SLUICE_SOURCE_DIR) + "/tests/cli/fio_script.sh", dir.path()}, o);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_THAT(r.out, HasSubstr("json ok"));
  EXPECT_THAT(r.out, HasSubstr("terse ok"));
}

// The same null-engine job through fio and sluice: field counts and the fields sluice knows exactly.
TEST(Terse, Version3MatchesFioFieldForField) {
  const std::vector<std::string> job = {"--name=t", "--ioengine=null", "--size=4m",
                                        "--bs=4k",  "--rw=read",       "--minimal"};
  const RunOutput mine = run_sluice(job);
  ASSERT_EQ(mine.exit_code, 0) << describe(mine);
  EXPECT_EQ(mine.err, "");
  const std::vector<std::string> s = fields_of(lines_of(mine.out).at(0));
  ASSERT_EQ(s.size(), 121u) << mine.out;
  EXPECT_EQ(s[0], "3");
  EXPECT_EQ(s[2], "t");
  EXPECT_EQ(s[5], "4096");  // read_kb
  if (!have_fio()) GTEST_SKIP() << "fio is not installed: the comparison with fio's own line is skipped";
  const RunOutput theirs = run_fio(job);
  ASSERT_EQ(theirs.exit_code, 0) << describe(theirs);
  const std::vector<std::string> f = fields_of(lines_of(theirs.out).at(0));
  ASSERT_EQ(f.size(), s.size());
  for (std::size_t i : {0u, 2u, 3u, 4u, 5u}) EXPECT_EQ(s[i], f[i]) << "field " << i + 1;
  // The write direction did nothing: fio's zeros and "0%=0"-style percentiles, field for field.
  for (std::size_t i = 46; i < 87; ++i) {
    if (f[i].find("%=") != std::string::npos) {
      EXPECT_EQ(s[i].substr(0, s[i].find('=')), f[i].substr(0, f[i].find('='))) << "field " << i + 1;
    } else {
      EXPECT_EQ(s[i], f[i]) << "field " << i + 1;
    }
  }
  // Percentile labels of the read direction, and the iodepth distribution.
  for (std::size_t i = 17; i < 37; ++i) {
    EXPECT_EQ(s[i].substr(0, s[i].find('=')), f[i].substr(0, f[i].find('='))) << "field " << i + 1;
  }
  for (std::size_t i = 92; i < 99; ++i) EXPECT_EQ(s[i], f[i]) << "field " << i + 1;
}

TEST(Terse, OtherVersionsHaveFiosFieldCounts) {
  for (const auto& [version, count] :
       std::vector<std::pair<std::string, std::size_t>>{{"2", 161}, {"4", 162}, {"5", 180}}) {
    const std::vector<std::string> job = with_args(kNullRead, {"--minimal", "--terse-version=" + version});
    const RunOutput mine = run_sluice(job);
    ASSERT_EQ(mine.exit_code, 0) << describe(mine);
    EXPECT_EQ(fields_of(lines_of(mine.out).at(0)).size(), count) << version;
    if (!have_fio()) continue;
    const RunOutput theirs = run_fio(job);
    EXPECT_EQ(fields_of(lines_of(theirs.out).at(0)).size(), count) << "fio, version " << version;
  }
}

TEST(Terse, BadVersionIsRefusedAsFioRefusesIt) {
  const RunOutput r = run_sluice(with_args(kNullRead, {"--minimal", "--terse-version=6"}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("--terse-version=6: bad terse version format; fio's are 2, 3"));
  if (have_fio()) {
    EXPECT_EQ(run_fio(with_args(kNullRead, {"--minimal", "--terse-version=6"})).exit_code, 1);
  }
}

TEST(Terse, OutputFormatTerseAndAppendTerse) {
  const RunOutput terse = run_sluice(with_args(kNullRead, {"--output-format=terse"}));
  ASSERT_EQ(terse.exit_code, 0) << describe(terse);
  EXPECT_EQ(lines_of(terse.out).size(), 1u);
  EXPECT_THAT(terse.out, StartsWith("3;sluice-"));
  const RunOutput both = run_sluice(with_args(kNullRead, {"--append-terse"}));
  ASSERT_EQ(both.exit_code, 0) << describe(both);
  EXPECT_THAT(both.out, HasSubstr("Run status group 0"));
  EXPECT_THAT(lines_of(both.out).back(), StartsWith("3;sluice-"));
}

TEST(GlobalOptions, ReadonlyRefusesWritesAndTrimsAsFio) {
  for (const char* rw : {"write", "randrw", "trim"}) {
    const std::vector<std::string> job = {"--readonly", "--name=w", "--ioengine=null", "--size=1m",
                                          std::string("--rw=") + rw};
    const RunOutput r = run_sluice(job);
    EXPECT_EQ(r.exit_code, 1) << rw;
    EXPECT_THAT(r.err, HasSubstr("--readonly")) << rw;
    EXPECT_EQ(r.out, "") << rw;
    if (have_fio()) {
      EXPECT_EQ(run_fio(job).exit_code, 1) << "fio, rw=" << rw;
    }
  }
  const RunOutput read =
      run_sluice(with_args({"--readonly"}, {"--name=r", "--ioengine=null", "--size=1m", "--rw=read"}));
  EXPECT_EQ(read.exit_code, 0) << describe(read);
}

TEST(GlobalOptions, SectionSelectsJobsOfAFile) {
  TempDir dir;
  const std::string file = dir.file("s.fio");
  std::ofstream(file) << "[global]\nioengine=null\nsize=1m\n[a]\nrw=read\n[b]\nrw=write\n[c]\nrw=randread\n";
  const RunOutput r = run_sluice({"--minimal", "--section=b", "--section=c", file});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_EQ(fields_of(lines[0])[2], "b");
  EXPECT_EQ(fields_of(lines[1])[2], "c");
  const RunOutput none = run_sluice({"--minimal", "--section=nosuch", file});
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_THAT(none.err, HasSubstr("--section=nosuch: no job is named so (jobs: a, b, c)"));
  // --readonly only looks at the selected sections, as fio (which drops the others).
  EXPECT_EQ(run_sluice({"--readonly", "--minimal", "--section=a", file}).exit_code, 0);
}

TEST(GlobalOptions, WarningsFatalStopsOnAWarning) {
  TempDir dir;
  const std::vector<std::string> job = {"--name=w",  "--ioengine=psync", "--iodepth=8", "--filename=" + dir.file("f"),
                                        "--size=1m", "--rw=read"};
  const RunOutput lax = run_sluice(with_args(job, {"--output-format=json"}));
  ASSERT_EQ(lax.exit_code, 0) << describe(lax);
  std::vector<std::string> strict_args = {"--warnings-fatal"};
  strict_args.insert(strict_args.end(), job.begin(), job.end());
  const RunOutput strict = run_sluice(strict_args);
  EXPECT_EQ(strict.exit_code, 1);
  EXPECT_THAT(strict.err, HasSubstr("iodepth"));
  EXPECT_THAT(strict.err, HasSubstr("--warnings-fatal"));
  EXPECT_EQ(strict.out, "");
}

TEST(GlobalOptions, BandwidthLogWritesFiosAggregateLogs) {
  TempDir dir;
  RunOptions o;
  o.program = "sh";
  const RunOutput r = run_binary({"-c", "cd '" + dir.path() + "' && exec '" + std::string(SLUICE_BINARY) +
                                            "' run --bandwidth-log --minimal --name=b --ioengine=null --rw=read "
                                            "--size=1g --time_based --runtime=1500ms"},
                                 o);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  for (const char* name : {"agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log"}) {
    EXPECT_TRUE(std::filesystem::exists(dir.file(name))) << name;
  }
  EXPECT_EQ(std::filesystem::file_size(dir.file("agg-write_bw.log")), 0u);
  std::ifstream in(dir.file("agg-read_bw.log"));
  std::string first;
  ASSERT_TRUE(std::getline(in, first));
  EXPECT_THAT(first, ::testing::MatchesRegex("1000, [1-9][0-9]*, 0, 0, 0"));
}

TEST(GlobalOptions, EtaOptionsAreCheckedAsFioChecksThem) {
  EXPECT_EQ(
      run_sluice(with_args({"--eta-interval=1s", "--eta-newline=2"}, {"--name=a", "--ioengine=null", "--size=1m"}))
          .exit_code,
      0);
  const RunOutput short_interval =
      run_sluice(with_args({"--eta-interval=100ms"}, {"--name=a", "--ioengine=null", "--size=1m"}));
  EXPECT_EQ(short_interval.exit_code, 1);
  EXPECT_THAT(short_interval.err, HasSubstr("eta interval time too short (250ms min"));
  if (have_fio()) {
    EXPECT_EQ(run_fio({"--eta-interval=100ms", "--name=a", "--ioengine=null", "--size=1m"}).exit_code, 1);
  }
  EXPECT_EQ(run_sluice(with_args({"--eta-newline=soon"}, {"--name=a", "--ioengine=null", "--size=1m"})).exit_code, 1);
}

TEST(GlobalOptions, AcceptedOptionsRunTheJob) {
  const RunOutput r =
      run_sluice(before({"--max-jobs=4", "--debug=io,file", "--aux-path=/tmp", "--minimal"}, kNullRead));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(lines_of(r.out).size(), 1u);
}

TEST(GlobalOptions, BadValuesAreRefusedWithTheNearestValidOne) {
  const RunOutput debug = run_sluice(before({"--debug=fle"}, kNullRead));
  EXPECT_EQ(debug.exit_code, 1);
  EXPECT_THAT(debug.err, HasSubstr("--debug=fle: debug mask 'fle' not found; did you mean 'file'?"));
  const RunOutput jobs = run_sluice(before({"--max-jobs=0"}, kNullRead));
  EXPECT_EQ(jobs.exit_code, 1);
  EXPECT_THAT(jobs.err, HasSubstr("--max-jobs=0: not a positive number of jobs"));
}

TEST(GlobalOptions, OtherCommandsRefuseThem) {
  const RunOutput r = run_binary({"capacity", "--ioengine=null", "--size=1m", "--minimal"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_THAT(r.err, HasSubstr("--minimal: one of sluice run's own options (fio's global options among them), which "
                               "sluice run (and the fio link) takes; sluice capacity does not"));
}

// A clean run on a file sluice lays out, with lint warnings (small area, buffered I/O, short run): stderr
// stays empty; the notes and warnings are at the top of the normal report and under "sluice" in JSON.
TEST(CleanStderr, NotesAndWarningsAreInTheReport) {
  TempDir dir;
  const std::vector<std::string> job = {
      "--name=f", "--ioengine=psync", "--iodepth=4", "--filename=" + dir.file("data"), "--size=2m", "--rw=randread"};
  const RunOutput normal = run_sluice(job);
  ASSERT_EQ(normal.exit_code, 0) << describe(normal);
  EXPECT_EQ(normal.err, "");
  const std::vector<std::string> lines = lines_of(normal.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_THAT(lines[0], StartsWith("sluice: laid out " + dir.file("data")));
  EXPECT_EQ(lines[1], "Warnings:");
  EXPECT_THAT(normal.out.substr(0, normal.out.find("f: (groupid=")), HasSubstr("iodepth"));

  std::filesystem::remove(dir.file("data"));
  const RunOutput js = run_sluice(with_args(job, {"--output-format=json"}));
  ASSERT_EQ(js.exit_code, 0) << describe(js);
  EXPECT_EQ(js.err, "");
  const auto doc = parse_document(js.out);
  ASSERT_TRUE(doc);
  const json& sluice = (*doc)["sluice"];
  ASSERT_EQ(sluice["notes"].size(), 1u);
  EXPECT_THAT(sluice["notes"][0].get<std::string>(), HasSubstr("laid out"));
  bool buffered = false, iodepth = false;
  for (const json& w : sluice["warnings"]) {
    buffered = buffered || w.value("code", "") == "buffered-io";        // the methodology lint
    iodepth = iodepth || w.value("code", "") == "sync-engine-iodepth";  // validation
  }
  EXPECT_TRUE(buffered) << sluice["warnings"].dump();
  EXPECT_TRUE(iodepth) << sluice["warnings"].dump();
}

}  // namespace
}  // namespace sluice::testing
