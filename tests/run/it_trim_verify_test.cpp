// fio's trim verification (trim_percentage, trim_backlog, trim_backlog_batch, trim_verify_zero): a share of a
// verified write job's blocks is trimmed after it is written, the trims are the job's trims in the report, and
// the verify phase reads the trimmed blocks back as zeros. fio 3.33 cannot run these jobs (a write job that
// trims aborts in its fio_ro_check assertion; fixed in fio 3.40), so the counts are checked as fio's own
// t/verify-trim.py checks them (trims within 10% of writes x trim_percentage), the zeros by the file's
// allocated blocks, and a device that ignores discards (faultfs trim:ignore) must fail the check.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/faultfs_mount.h"
#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

constexpr int kWrites = 1024;  // 4 MiB in 4 KiB blocks

std::vector<std::string> trim_job(const std::string& file, const std::string& rw, int percentage, int backlog,
                                  std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"--name=trimverify",
                                   "--filename=" + file,
                                   "--size=4m",
                                   "--bs=4k",
                                   "--rw=" + rw,
                                   "--verify=md5",
                                   "--verify_state_save=0",
                                   "--trim_percentage=" + std::to_string(percentage),
                                   "--trim_backlog=" + std::to_string(backlog),
                                   "--output-format=json"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::int64_t ios_of(const RunOutput& r, const char* direction) {
  const auto doc = parse_document(r.out);
  if (!doc) return -1;
  return (*doc)["jobs"][0][direction]["total_ios"].get<std::int64_t>();
}

struct TrimCase {
  const char* rw;
  int percentage;
  int backlog;
};

TEST(TrimVerify, TrimsTheDrawnShareAndTheTrimmedBlocksReadAsZeros) {
  for (const TrimCase c : {TrimCase{"write", 100, 1}, TrimCase{"randwrite", 100, 1}, TrimCase{"write", 50, 1},
                           TrimCase{"randwrite", 50, 1}, TrimCase{"write", 50, 16}, TrimCase{"randwrite", 50, 16},
                           TrimCase{"randwrite", 10, 64}}) {
    SCOPED_TRACE(std::string(c.rw) + " " + std::to_string(c.percentage) + "% backlog " + std::to_string(c.backlog));
    TempDir tmp;
    const std::string file = tmp.file("f");
    const RunOutput r = run_as("sluice", trim_job(file, c.rw, c.percentage, c.backlog));
    const std::int64_t trims = ios_of(r, "trim");
    EXPECT_EQ(ios_of(r, "write"), kWrites);
    const double expected = kWrites * c.percentage / 100.0;
    EXPECT_NEAR(static_cast<double>(trims), expected, 0.1 * expected) << r.out;
    // The verify phase reads every written block, the trimmed ones too (and finds zeros there).
    EXPECT_EQ(ios_of(r, "read"), kWrites);
    EXPECT_EQ(r.err, "");
    // The trims reached the file: each punched a 4 KiB hole (ext4/tmpfs may keep a block of metadata).
    struct stat st {};
    ASSERT_EQ(::stat(file.c_str(), &st), 0);
    const auto allocated = static_cast<double>(st.st_blocks) * 512;
    EXPECT_NEAR(allocated, static_cast<double>(kWrites - trims) * 4096, 64 * 1024);
  }
}

TEST(TrimVerify, WithoutZeroCheckTheTrimmedBlocksAreNotRead) {
  TempDir tmp;
  const RunOutput r = run_as("sluice", trim_job(tmp.file("f"), "randwrite", 50, 8, {"--trim_verify_zero=0"}));
  const std::int64_t trims = ios_of(r, "trim");
  EXPECT_GT(trims, 0);
  EXPECT_EQ(ios_of(r, "read"), kWrites - trims);
}

TEST(TrimVerify, BatchLimitsEachRoundAndTheRestIsTrimmedBeforeTheVerifyPhase) {
  TempDir tmp;
  const std::string log = tmp.file("iolog");
  const RunOutput r = run_as("sluice", trim_job(tmp.file("f"), "write", 100, 32,
                                                {"--trim_backlog_batch=4", "--write_iolog=" + log, "--do_verify=1"}));
  EXPECT_EQ(ios_of(r, "trim"), kWrites);  // every write drawn; all trimmed by the end
  // The io log: the first trims come after 32 writes, in a round of 4.
  std::ifstream in(log);
  std::string line;
  std::vector<std::string> actions;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string time, file, action;
    if (fields >> time >> file >> action && (action == "write" || action == "trim")) actions.push_back(action);
  }
  ASSERT_GT(actions.size(), 40u);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(actions[static_cast<std::size_t>(i)], "write") << i;
  for (int i = 32; i < 36; ++i) EXPECT_EQ(actions[static_cast<std::size_t>(i)], "trim") << i;
  EXPECT_EQ(actions[36], "write");
}

TEST(TrimVerify, ADeviceThatIgnoresDiscardsFailsTheZeroCheck) {
  TempDir tmp;
  std::filesystem::create_directory(tmp.file("backing"));
  FaultFsMount mount(tmp.file("backing"), tmp.file("mnt"), {"trim:ignore"}, tmp.file("faults.log"));
  if (!mount.usable()) GTEST_SKIP() << mount.skip_reason();
  RunOptions options;
  options.timeout = std::chrono::seconds(60);
  std::vector<std::string> args = trim_job(tmp.file("mnt/f"), "write", 25, 4, {"--size=1m", "--ioengine=psync"});
  args.insert(args.begin(), "run");
  const RunOutput r = run_binary(args, options);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("trimmed chunk not zero"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("trim_verify_zero=1 expects zeros"), std::string::npos) << r.err;
  // With trim_verify_zero=0 the same device passes: the trimmed blocks are not read.
  args.push_back("--trim_verify_zero=0");
  const RunOutput lenient = run_binary(args, options);
  EXPECT_EQ(lenient.exit_code, 0) << describe(lenient);
}

TEST(TrimVerify, RefusedWhereItCannotWork) {
  TempDir tmp;
  const auto refused = expect_run_refused;
  refused(trim_job(tmp.file("f"), "write", 50, 4, {"--ioengine=mmap"}), "ioengine=mmap cannot trim");
  refused(trim_job(tmp.file("f"), "write", 50, 4, {"--verify_only=1"}), "verify_only cannot replay");
  refused(trim_job(tmp.file("f"), "read", 50, 4, {"--readonly"}), "--readonly");
  refused(trim_job(tmp.file("f"), "write", 101, 4), "trim_percentage");
  EXPECT_FALSE(std::filesystem::exists(tmp.file("f")));
}

// fio 3.40 and later run these jobs (3.33 aborts): where such a fio is installed, its trims are compared.
TEST(TrimVerify, SameShareAsFioWhereFioCanRunIt) {
  SLUICE_REQUIRE(kFio);
  RunOptions fio;
  fio.program = "fio";
  const RunOutput version = run_binary({"--version"}, fio);
  int major = 0, minor = 0;
  if (std::sscanf(version.out.c_str(), "fio-%d.%d", &major, &minor) != 2 || major * 100 + minor < 340) {
    GTEST_SKIP() << "fio " << version.out << " aborts on trims in a write job (fixed in fio 3.40)";
  }
  TempDir tmp;
  for (const std::string program : {"fio", "sluice"}) {
    const RunOutput r = run_as(program, trim_job(tmp.file(program), "randwrite", 50, 16));
    EXPECT_NEAR(static_cast<double>(ios_of(r, "trim")), kWrites / 2.0, kWrites / 20.0) << program;
  }
}

}  // namespace
}  // namespace sluice::testing
