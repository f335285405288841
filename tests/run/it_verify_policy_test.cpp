// verify_policy=fsynced (fio master, after 3.42): a writing job saves how many of its writes the last completed
// sync covers, and a verify_only run with verify_state_load=1 reads back only those; the job's own verify phase
// does the same. 16 sequential 4 KiB writes to a small temporary file with psync; the verify run's reads are
// counted. Next to the fio of newer_fio.h when it knows the option (SLUICE_NEWER_FIO=/path/to/fio-master), each
// tool with its own state file (fio's is binary); otherwise sluice's own numbers only.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/newer_fio.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

const std::vector<std::string>& policy_programs() {
  static const std::vector<std::string> programs = [] {
    std::vector<std::string> p = {"sluice"};
    if (fio_knows_option(newer_fio(), "verify_policy")) {
      p.push_back(newer_fio());
    } else {
      std::fprintf(stderr, "note: %s lacks verify_policy: sluice's own checks only (set SLUICE_NEWER_FIO)\n",
                   newer_fio().c_str());
    }
    return p;
  }();
  return programs;
}

class VerifyPolicy : public ::testing::Test {
 protected:
  // Runs `program` in its own directory (where the state file goes) on its own file, with `extra`.
  RunOutput run(const std::string& program, const std::vector<std::string>& extra) {
    const std::string dir = tmp_.file(std::to_string(std::hash<std::string>{}(program)));
    std::filesystem::create_directories(dir);
    std::vector<std::string> args = {
        "--name=w",        "--filename=" + dir + "/data", "--size=64k", "--bs=4k", "--rw=write", "--ioengine=psync",
        "--verify=crc32c", "--output-format=json"};
    args.insert(args.end(), extra.begin(), extra.end());
    RunOptions options;
    options.cwd = dir;
    if (program == "sluice")
      args.insert(args.begin(), "run");
    else
      options.program = program;
    return run_binary(args, options);
  }

  // fio prints "Stop verify because ..." before its JSON.
  static nlohmann::json job_of(const RunOutput& r) {
    const std::size_t start = r.out.find("{\n");
    const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
    return doc ? (*doc)["jobs"][0] : nlohmann::json{};
  }

  // The writing run with `write_options`, then the verify_only run with the state: its reads.
  std::uint64_t verified_after(const std::string& program, std::vector<std::string> write_options) {
    write_options.push_back("--do_verify=0");
    const RunOutput wrote = run(program, write_options);
    EXPECT_EQ(wrote.exit_code, 0) << program << ": " << describe(wrote);
    EXPECT_EQ(total_ios(job_of(wrote), "write"), 16u) << program;
    const RunOutput checked = run(program, {"--verify_only", "--verify_state_load=1"});
    EXPECT_EQ(checked.exit_code, 0) << program << ": " << describe(checked);
    const nlohmann::json job = job_of(checked);
    EXPECT_EQ(job["error"].get<int>(), 0) << program;
    return total_ios(job, "read");
  }

  static bool is_fio(const std::string& program) { return program != "sluice"; }

  TempDir tmp_;
};

TEST_F(VerifyPolicy, OnlyTheWritesBeforeTheLastCompletedFsyncAreVerified) {
  for (const std::string& program : policy_programs()) {
    // Syncs after writes 5, 10 and 15 (none after the 16th: it is not a multiple).
    EXPECT_EQ(verified_after(program, {"--verify_policy=fsynced", "--fsync=5"}), 15u) << program;
    EXPECT_EQ(verified_after(program, {"--verify_policy=completed", "--fsync=5"}), 16u) << program;
  }
}

TEST_F(VerifyPolicy, FdatasyncAndSyncFileRangeCountToo) {
  for (const std::string& program : policy_programs()) {
    EXPECT_EQ(verified_after(program, {"--verify_policy=fsynced", "--fdatasync=3"}), 15u) << program;
    EXPECT_EQ(verified_after(program, {"--verify_policy=fsynced", "--sync_file_range=write:3"}), 15u) << program;
  }
}

TEST_F(VerifyPolicy, WithoutASyncNothingIsVerified) {
  for (const std::string& program : policy_programs()) {
    EXPECT_EQ(verified_after(program, {"--verify_policy=fsynced"}), 0u) << program;
  }
  const RunOutput warned = run("sluice", {"--verify_policy=fsynced", "--parse-only"});
  EXPECT_NE(warned.err.find("no write is verified"), std::string::npos) << warned.err;
}

// Where the tools differ on purpose (docs/fio-compatibility.md): sluice syncs after the last write when fsync=N
// divides the writes, and counts end_fsync's sync; fio master issues no sync after the last write and gives
// end_fsync the number of the write whose io unit it reuses (one short).
TEST_F(VerifyPolicy, TheSyncsAtTheEndCountInSluice) {
  for (const std::string& program : policy_programs()) {
    EXPECT_EQ(verified_after(program, {"--verify_policy=fsynced", "--fsync=4"}), is_fio(program) ? 12u : 16u)
        << program;
    EXPECT_EQ(verified_after(program, {"--verify_policy=fsynced", "--end_fsync=1"}), is_fio(program) ? 15u : 16u)
        << program;
  }
}

TEST_F(VerifyPolicy, TheJobsOwnVerifyPhaseChecksTheCoveredWrites) {
  for (const std::string& program : policy_programs()) {
    for (const std::string rw : {"--rw=write", "--rw=randwrite"}) {
      const RunOutput synced = run(program, {rw, "--verify_policy=fsynced", "--fsync=5"});
      ASSERT_EQ(synced.exit_code, 0) << program << ": " << describe(synced);
      EXPECT_EQ(total_ios(job_of(synced), "read"), 15u) << program << " " << rw;
      const RunOutput unsynced = run(program, {rw, "--verify_policy=fsynced"});
      EXPECT_EQ(total_ios(job_of(unsynced), "read"), 0u) << program << " " << rw;
    }
  }
}

TEST_F(VerifyPolicy, BadValuesAreRefused) {
  expect_run_refused({"--name=w", "--size=64k", "--verify=crc32c", "--verify_policy=fsync"}, "did you mean");
}

}  // namespace
}  // namespace sluice::testing
