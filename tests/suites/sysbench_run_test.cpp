// run_sysbench on the null engine (counting across threads) and on small files in a temporary directory.
#include "suites/sysbench_run.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "common/error.h"
#include "suites/sysbench_files.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

SysbenchOptions null_options(SysbenchMode mode) {
  SysbenchOptions o;
  o.mode = mode;
  o.file_num = 4;
  o.total_size = 4 << 20;
  o.time_s = 0;
  o.events = 2000;
  o.threads = 4;
  return o;
}

TEST(SysbenchRun, EventsAreReadsWritesAndPeriodicFsyncsAcrossThreads) {
  SysbenchOptions o = null_options(SysbenchMode::kRndrw);
  const std::vector<int> no_files(o.file_num, -1);
  const SysbenchRunResult r = run_sysbench(o, no_files, EngineKind::kNull, 5, {});
  EXPECT_EQ(r.counts.events, 2000u);
  std::uint64_t per_thread = 0;
  for (const SysbenchThreadResult& t : r.threads) per_thread += t.events;
  EXPECT_EQ(per_thread, 2000u);
  // Periodic fsyncs are events; each thread's end-of-test fsync of every file is not.
  const std::uint64_t end_fsyncs = o.threads * o.file_num;
  EXPECT_EQ(r.counts.reads + r.counts.writes + (r.counts.fsyncs - end_fsyncs), 2000u);
  EXPECT_GT(r.counts.fsyncs, end_fsyncs);
  EXPECT_NEAR(static_cast<double>(r.counts.reads) / static_cast<double>(r.counts.writes), 1.5, 0.05);
  EXPECT_EQ(r.histogram.total(), 2000u);
  EXPECT_LE(r.latency_min_ns, r.latency_max_ns);
}

TEST(SysbenchRun, FsyncAllPutsOneFsyncInEveryWriteEvent) {
  SysbenchOptions o = null_options(SysbenchMode::kRndwr);
  o.fsync_all = true;
  normalise_sysbench_options(o);
  const std::vector<int> no_files(o.file_num, -1);
  const SysbenchRunResult r = run_sysbench(o, no_files, EngineKind::kNull, 5, {});
  EXPECT_EQ(r.counts.writes, 2000u);
  EXPECT_EQ(r.counts.fsyncs, 2000u);
  EXPECT_EQ(r.counts.events, 2000u);
}

TEST(SysbenchRun, ReadModesDoNoEndFsync) {
  SysbenchOptions o = null_options(SysbenchMode::kSeqrd);
  const std::vector<int> no_files(o.file_num, -1);
  const SysbenchRunResult r = run_sysbench(o, no_files, EngineKind::kNull, 5, {});
  EXPECT_EQ(r.counts.reads, 2000u);
  EXPECT_EQ(r.counts.fsyncs, 0u);
}

TEST(SysbenchRun, PrepareRunAndCleanupOnSmallFiles) {
  testing::TempDir dir;
  SysbenchOptions o;
  o.dir = dir.path();
  o.file_num = 3;
  o.total_size = 3 * 100000;  // not a block multiple: prepare rounds each file up to whole blocks
  o.block_size = 16384;
  const SysbenchPrepareResult p = sysbench_prepare(o);
  ASSERT_EQ(p.lines.size(), 3u);
  EXPECT_EQ(p.lines[0], "Creating file test_file.0");
  EXPECT_EQ(p.bytes_written, 3u * 7 * 16384);
  EXPECT_EQ(sysbench_prepare(o).lines[2], "Reusing existing file test_file.2");

  o.mode = SysbenchMode::kRndwr;
  o.time_s = 0;
  o.events = 300;
  o.threads = 2;
  std::vector<int> fds = sysbench_open_files(o);
  const SysbenchRunResult r = run_sysbench(o, fds, EngineKind::kPsync, 9, {});
  sysbench_close_files(fds);
  EXPECT_EQ(r.counts.events, 300u);
  EXPECT_GT(r.counts.bytes_written, 0u);
  EXPECT_GT(r.latency_sum_ns, 0u);
  EXPECT_EQ(sysbench_cleanup(o), 3u);
}

TEST(SysbenchRun, RunBeforePrepareNamesTheFileAndTheExpectedSize) {
  testing::TempDir dir;
  SysbenchOptions o;
  o.dir = dir.path();
  o.file_num = 2;
  o.total_size = 2 << 20;
  o.mode = SysbenchMode::kRndrd;
  try {
    sysbench_open_files(o);
    FAIL() << "opened missing files";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("test_file.0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("1MiB"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("prepare"), std::string::npos) << e.what();
  }
  dir.make_file("test_file.0", 1 << 20);
  dir.make_file("test_file.1", 1000);
  try {
    sysbench_open_files(o);
    FAIL() << "accepted a short file";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("size of file '" + dir.path() + "/test_file.1' is 1000B, but at least 1MiB"),
              std::string::npos)
        << e.what();
  }
}

TEST(SysbenchRun, SeqwrRecreatesTheFiles) {
  testing::TempDir dir;
  SysbenchOptions o;
  o.dir = dir.path();
  o.file_num = 2;
  o.total_size = 64 << 10;
  o.mode = SysbenchMode::kSeqwr;
  dir.make_file("test_file.0", 1 << 20);
  std::vector<int> fds = sysbench_open_files(o);
  sysbench_close_files(fds);
  struct stat st {};
  ASSERT_EQ(::stat(dir.file("test_file.0").c_str(), &st), 0);
  EXPECT_EQ(st.st_size, 0);
  ASSERT_EQ(::stat(dir.file("test_file.1").c_str(), &st), 0);
}

}  // namespace
}  // namespace sluice
