// end_syncfs (fio 3.42): when a write job ends, one syncfs(2) for the file system of its files instead of an
// fsync per file, counted under strace. fio 3.42 makes exactly one for a job of 4 files in one directory
// (with psync and libaio; end_fsync makes 4 fsyncs with psync), and counts none of its end syncs in the
// JSON's "sync" section: sluice the same. The fio comparison runs when the fio of tests/support/newer_fio.h
// knows end_syncfs; sluice's own counts are checked without it. Skips without strace.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/newer_fio.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

struct Traced {
  int syncfs = 0;
  int fsync = 0;
  std::uint64_t json_syncs = 0;  // the JSON's sync.total_ios
  std::uint64_t writes = 0;
};

// Runs `program` (the newer fio, or "sluice") under strace, counting its syncfs calls and the fsyncs of
// files in `dir`.
Traced traced_syncs(const std::string& program, const std::string& dir, const std::vector<std::string>& args,
                    TempDir& tmp) {
  const std::string trace = tmp.file(program == "sluice" ? "sluice.strace" : "fio.strace");
  std::vector<std::string> command = {"-f", "-qq", "-y", "-e", "trace=syncfs,fsync", "-o", trace};
  std::filesystem::create_directories(dir);
  if (program == "sluice") {
    command.insert(command.end(), {SLUICE_BINARY, "run"});
  } else {
    command.push_back(program);
  }
  command.insert(command.end(), args.begin(), args.end());
  RunOptions options;
  options.program = "strace";
  options.timeout = std::chrono::seconds(30);
  const RunOutput r = run_binary(command, options);
  EXPECT_EQ(r.exit_code, 0) << program << ": " << describe(r);
  Traced t;
  // fsyncs of the job's files only (sluice's own journal makes one too): strace -y names each descriptor's
  // path.
  std::ifstream in(trace);
  for (std::string line; std::getline(in, line);) {
    t.syncfs += line.find("syncfs(") != std::string::npos ? 1 : 0;
    t.fsync += line.find("fsync(") != std::string::npos && line.find(dir + "/") != std::string::npos ? 1 : 0;
  }
  if (const auto doc = parse_document(r.out)) {
    t.json_syncs = (*doc)["jobs"][0]["sync"]["total_ios"].get<std::uint64_t>();
    t.writes = (*doc)["jobs"][0]["write"]["total_ios"].get<std::uint64_t>();
  }
  return t;
}

std::vector<std::string> syncfs_job(const std::string& dir, const std::string& engine, const std::string& end) {
  return {"--name=w", "--directory=" + dir, "--ioengine=" + engine, "--rw=write", "--size=1m", "--nrfiles=4",
          "--bs=4k",  "--" + end + "=1",    "--output-format=json"};
}

class EndSyncfs : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { SLUICE_REQUIRE(kStrace); }
};

TEST_P(EndSyncfs, OneSyncfsForFourFilesAndNoSyncCounted) {
  TempDir tmp;
  const std::string engine = GetParam();
  const Traced s = traced_syncs("sluice", tmp.file("s"), syncfs_job(tmp.file("s"), engine, "end_syncfs"), tmp);
  EXPECT_EQ(s.syncfs, 1) << engine;
  EXPECT_EQ(s.fsync, 0) << engine;
  EXPECT_EQ(s.json_syncs, 0u) << engine;
  EXPECT_EQ(s.writes, 256u) << engine;
  if (!fio_knows_option(newer_fio(), "end_syncfs")) {
    GTEST_SKIP() << newer_fio() << " does not know end_syncfs: sluice checked alone";
  }
  const Traced f = traced_syncs(newer_fio(), tmp.file("f"), syncfs_job(tmp.file("f"), engine, "end_syncfs"), tmp);
  EXPECT_EQ(f.syncfs, s.syncfs) << engine;
  EXPECT_EQ(f.fsync, s.fsync) << engine;
  EXPECT_EQ(f.json_syncs, s.json_syncs) << engine;
  EXPECT_EQ(f.writes, s.writes) << engine;
}

INSTANTIATE_TEST_SUITE_P(Engines, EndSyncfs, ::testing::Values("psync", "libaio"));

// Beside it, end_fsync still syncs each file (psync: one fsync(2) each) and makes no syncfs.
TEST(EndSyncfsVersusEndFsync, EndFsyncSyncsEachFile) {
  SLUICE_REQUIRE(kStrace);
  TempDir tmp;
  const Traced s = traced_syncs("sluice", tmp.file("s"), syncfs_job(tmp.file("s"), "psync", "end_fsync"), tmp);
  EXPECT_EQ(s.syncfs, 0);
  EXPECT_EQ(s.fsync, 4);
}

TEST(EndSyncfsVersusEndFsync, ReadJobMakesNoSyncfs) {
  SLUICE_REQUIRE(kStrace);
  TempDir tmp;
  std::vector<std::string> args = syncfs_job(tmp.file("s"), "psync", "end_syncfs");
  std::replace(args.begin(), args.end(), std::string("--rw=write"), std::string("--rw=read"));
  EXPECT_EQ(traced_syncs("sluice", tmp.file("s"), args, tmp).syncfs, 0);
}

TEST(EndSyncfsVersusEndFsync, RefusedWithAnEngineThatCannotSyncfs) {
  TempDir tmp;
  expect_run_refused(
      {"--name=m", "--filename=" + tmp.file("m"), "--ioengine=mmap", "--size=1m", "--rw=write", "--end_syncfs=1"},
      "end_syncfs cannot be done with ioengine=mmap");
}

}  // namespace
}  // namespace sluice::testing
