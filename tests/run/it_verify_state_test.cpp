// fio's verify_backlog_batch, verify_state_save and verify_state_load next to fio 3.33 on the same jobs: the
// backlog's rhythm in the io log (16 writes, then 8 verify reads, then 8 and 8 ...), the state file a writing
// run leaves (local-JOB-0-verify.state, in the working directory or --aux-path's), and a verify_only run that
// with the state checks exactly the writes an interrupted run completed, while without it fails on blocks
// never written. Each tool verifies its own data with its own state file (fio's is binary). Skips without fio.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

// Run-length code of the reads and writes of a version 3 io log: "w16 r8 w8 ...".
std::vector<std::string> rhythm(const std::string& log) {
  std::vector<std::string> runs;
  char last = 0;
  int count = 0;
  for (const LoggedIo& io : logged_ios(log)) {
    const char kind = io.action[0];
    if (kind != last && count > 0) {
      runs.push_back(std::string(1, last) + std::to_string(count));
      count = 0;
    }
    last = kind;
    ++count;
  }
  if (count > 0) runs.push_back(std::string(1, last) + std::to_string(count));
  return runs;
}

TEST(VerifyBacklogBatch, ChecksTheOldestWaitingWritesAsFio) {
  SLUICE_REQUIRE(kFio);
  TempDir tmp;
  for (const std::string program : {"fio", "sluice"}) {
    const std::string log = tmp.file(program + ".iolog");
    const RunOutput r =
        run_as(program, {"--name=vb", "--filename=" + tmp.file(program), "--size=1m", "--rw=randwrite", "--bs=4k",
                         "--verify=crc32c", "--verify_backlog=16", "--verify_backlog_batch=8", "--write_iolog=" + log,
                         "--verify_state_save=0", "--output-format=json"});
    const std::vector<std::string> runs = rhythm(log);
    ASSERT_GE(runs.size(), 6u) << program;
    EXPECT_EQ(std::vector<std::string>(runs.begin(), runs.begin() + 6),
              (std::vector<std::string>{"w16", "r8", "w8", "r8", "w8", "r8"}))
        << program;
    const auto doc = parse_document(r.out);
    ASSERT_TRUE(doc) << program;
    EXPECT_EQ(total_ios((*doc)["jobs"][0], "read"), 256u) << program << ": the verify phase reads the rest";
  }
}

class VerifyStateRun : public ::testing::Test {
 protected:
  void SetUp() override { SLUICE_REQUIRE(kFio); }

  // A 64 MiB random-write job with verify at depth 8, run by `program` in its own directory with `extra`.
  RunOutput run(const std::string& program, const std::vector<std::string>& extra) {
    std::filesystem::create_directories(tmp_.file(program));
    std::vector<std::string> args = {"--name=w",          "--filename=" + tmp_.file(program + ".data"),
                                     "--size=64m",        "--rw=randwrite",
                                     "--bs=4k",           "--verify=crc32c",
                                     "--ioengine=libaio", "--iodepth=8",
                                     "--direct=1",        "--output-format=json"};
    args.insert(args.end(), extra.begin(), extra.end());
    RunOptions options;
    options.cwd = tmp_.file(program);
    if (program == "fio")
      options.program = "fio";
    else
      args.insert(args.begin(), "run");
    return run_binary(args, options);
  }

  static nlohmann::json job_of(const RunOutput& r) {
    const std::size_t start = r.out.find("{\n");
    const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
    return doc ? (*doc)["jobs"][0] : nlohmann::json{};
  }

  TempDir tmp_;
};

TEST_F(VerifyStateRun, AVerifyOnlyRunChecksWhatTheInterruptedRunWrote) {
  for (const std::string program : {"fio", "sluice"}) {
    // About 2000 of the 16384 writes, then the time limit: no verify phase, a state file.
    const RunOutput wrote = run(program, {"--do_verify=0", "--runtime=1", "--rate_iops=2000"});
    ASSERT_EQ(wrote.exit_code, 0) << program << ": " << describe(wrote);
    const std::uint64_t writes = total_ios(job_of(wrote), "write");
    EXPECT_GT(writes, 1000u) << program;
    EXPECT_LT(writes, 16384u) << program;
    EXPECT_TRUE(std::filesystem::exists(tmp_.file(program + "/local-w-0-verify.state"))) << program;

    const RunOutput with_state = run(program, {"--verify_only", "--verify_state_load=1"});
    EXPECT_EQ(with_state.exit_code, 0) << program << ": " << describe(with_state);
    const nlohmann::json checked = job_of(with_state);
    EXPECT_EQ(checked["error"].get<int>(), 0) << program;
    EXPECT_EQ(total_ios(checked, "read"), writes) << program << ": each completed write read back once";

    const RunOutput without = run(program, {"--verify_only"});
    EXPECT_EQ(job_of(without)["error"].get<int>(), 84) << program << ": blocks never written fail (EILSEQ)";
  }
}

TEST_F(VerifyStateRun, AuxPathHoldsTheStateAndAMissingStateFailsTheJob) {
  const std::string aux = tmp_.file("aux");
  std::filesystem::create_directories(aux);
  const RunOutput wrote = run("sluice", {"--size=1m", "--aux-path=" + aux});
  ASSERT_EQ(wrote.exit_code, 0) << describe(wrote);
  EXPECT_TRUE(std::filesystem::exists(aux + "/local-w-0-verify.state"));
  EXPECT_FALSE(std::filesystem::exists(tmp_.file("sluice/local-w-0-verify.state")));
  EXPECT_EQ(run("sluice", {"--size=1m", "--aux-path=" + aux, "--verify_only", "--verify_state_load=1"}).exit_code, 0);

  const RunOutput missing = run("sluice", {"--size=1m", "--verify_only", "--verify_state_load=1"});
  EXPECT_EQ(missing.exit_code, 1) << describe(missing);
  EXPECT_NE(missing.err.find("verify_state_load: cannot read local-w-0-verify.state"), std::string::npos)
      << missing.err;
}

// Each clone's state is named by its place in the run from 0, as fio names it (thread_number - 1): with numjobs=3
// fio and sluice both leave local-w-0, -1 and -2 (sluice once named the second clone 0 too, over the first's).
TEST_F(VerifyStateRun, EveryCloneHasAStateOfItsOwnNumberedAsFio) {
  for (const std::string program : {"fio", "sluice"}) {
    std::filesystem::create_directories(tmp_.file(program + "-clones"));
    std::vector<std::string> args = {"--name=w",    "--filename_format=" + tmp_.file(program + "-clones/$jobnum.data"),
                                     "--size=64k",  "--rw=write",
                                     "--bs=4k",     "--verify=crc32c",
                                     "--numjobs=3", "--output-format=terse"};
    RunOptions options;
    options.cwd = tmp_.file(program + "-clones");
    if (program == "fio")
      options.program = "fio";
    else
      args.insert(args.begin(), "run");
    const RunOutput r = run_binary(args, options);
    ASSERT_EQ(r.exit_code, 0) << program << ": " << describe(r);
    for (const char* index : {"0", "1", "2"}) {
      EXPECT_TRUE(std::filesystem::exists(tmp_.file(program + "-clones/local-w-" + index + "-verify.state")))
          << program << ": clone " << index;
    }
  }
}

}  // namespace
}  // namespace sluice::testing
