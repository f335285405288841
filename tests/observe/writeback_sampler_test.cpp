// The writeback timeline probe on synthetic /proc/meminfo and /sys/block/<dev>/stat.
#include "observe/writeback_sampler.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include "support/temp_dir.h"

namespace sluice {
namespace {

using namespace std::chrono_literals;

class SyntheticTree {
 public:
  SyntheticTree() {
    std::filesystem::create_directories(dir.file("proc"));
    std::filesystem::create_directories(dir.file("sys/block/vdb"));
  }
  void meminfo(std::uint64_t dirty_kb, std::uint64_t writeback_kb) {
    std::ofstream(dir.file("proc/meminfo")) << "MemTotal:  1000000 kB\nMemFree:   500000 kB\nDirty:   " << dirty_kb
                                            << " kB\nWriteback:   " << writeback_kb << " kB\n";
  }
  // read ios .. ; write sectors (field 7), in_flight (9), io_ticks (10), in_queue (11)
  void stat(std::uint64_t write_sectors, std::uint64_t in_flight, std::uint64_t io_ticks, std::uint64_t in_queue) {
    std::ofstream(dir.file("sys/block/vdb/stat"))
        << "0 0 0 0 10 0 " << write_sectors << " 5 " << in_flight << " " << io_ticks << " " << in_queue << "\n";
  }
  testing::TempDir dir;
};

TEST(Meminfo, ParsesFieldsInBytes) {
  const MemInfo m = parse_meminfo("MemFree: 100 kB\nActive(file): 2 kB\nInactive(file): 3 kB\nDirty: 7 kB\n");
  EXPECT_EQ(m.mem_free, 102400u);
  EXPECT_EQ(m.active_file, 2048u);
  EXPECT_EQ(m.inactive_file, 3072u);
  EXPECT_EQ(m.dirty, 7168u);
  EXPECT_EQ(m.writeback, 0u);
}

TEST(WritebackProbe, SampleHasMeminfoAndDeviceDifferences) {
  SyntheticTree tree;
  tree.meminfo(2048, 512);
  tree.stat(1000, 0, 100, 200);
  WritebackProbe probe("vdb", tree.dir.file("proc"), tree.dir.file("sys"));
  probe.begin();
  tree.stat(3048, 7, 600, 2200);  // 1 s later: 2048 sectors written, busy 500 ms, queue 2000 ms
  const WritebackSample s = probe.sample(1s, 1.0);
  EXPECT_EQ(s.dirty_bytes, 2048u * 1024);
  EXPECT_EQ(s.writeback_bytes, 512u * 1024);
  EXPECT_DOUBLE_EQ(s.dev_util, 50.0);
  EXPECT_DOUBLE_EQ(s.dev_queue, 2.0);
  EXPECT_EQ(s.dev_in_flight, 7u);
  EXPECT_EQ(s.dev_write_bytes, 2048u * 512);
}

TEST(WritebackProbe, UtilizationIsCappedAtHundredPercent) {
  SyntheticTree tree;
  tree.meminfo(0, 0);
  tree.stat(0, 0, 0, 0);
  WritebackProbe probe("vdb", tree.dir.file("proc"), tree.dir.file("sys"));
  probe.begin();
  tree.stat(0, 0, 1500, 0);
  EXPECT_DOUBLE_EQ(probe.sample(1s, 1.0).dev_util, 100.0);
}

TEST(WritebackProbe, MissingDeviceStillGivesMeminfo) {
  SyntheticTree tree;
  tree.meminfo(4, 0);
  WritebackProbe probe("nosuch", tree.dir.file("proc"), tree.dir.file("sys"));
  probe.begin();
  const WritebackSample s = probe.sample(1s, 1.0);
  EXPECT_EQ(s.dirty_bytes, 4096u);
  EXPECT_DOUBLE_EQ(s.dev_util, 0.0);
}

// The thread's rule, checked against the time the test measured rather than a guessed count: the k-th sample
// (from 1) is taken no earlier than k intervals after start() (so never more samples than intervals passed), and
// a thread that fell behind catches up, so a run of fifty intervals gives at least a few samples even on a busy
// machine (the sampler needs to be scheduled once after the third interval).
TEST(WritebackSampler, ThreadTakesOneSamplePerInterval) {
  SyntheticTree tree;
  tree.meminfo(1, 0);
  tree.stat(0, 0, 0, 0);
  // Fifty intervals in 500 ms: the bounds below are counted in intervals. Ten were too few beside the sanitizer
  // build (1 sample in 100 ms once, in the clean-clone CI): the sampler must be scheduled after the third interval.
  constexpr auto kInterval = 10ms;
  WritebackSampler sampler("vdb", kInterval, tree.dir.file("proc"), tree.dir.file("sys"));
  const auto before = std::chrono::steady_clock::now();
  sampler.start();
  std::this_thread::sleep_for(50 * kInterval);
  sampler.stop();
  const std::chrono::duration<double> ran = std::chrono::steady_clock::now() - before;
  const std::vector<WritebackSample>& samples = sampler.samples();
  ASSERT_GE(samples.size(), 3u);
  EXPECT_LE(samples.size(), static_cast<std::size_t>(ran / kInterval)) << "ran " << ran.count() << " s";
  const double interval_s = std::chrono::duration<double>(kInterval).count();
  for (std::size_t k = 0; k < samples.size(); ++k) {
    EXPECT_GE(samples[k].t_s, static_cast<double>(k + 1) * interval_s - 1e-6) << "sample " << k;
    if (k > 0) {
      EXPECT_GT(samples[k].t_s, samples[k - 1].t_s) << "sample " << k;
    }
  }
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

TEST(VmstatThresholds, TheKernelsDirtyThresholdsInBytes) {
  const auto t = parse_vmstat_thresholds(
      "nr_dirty 52\nnr_dirty_threshold 906594\nnr_dirty_background_threshold 452743\n"
      "nr_written 9\n",
      4096);
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->limit_bytes, 906594ull * 4096);
  EXPECT_EQ(t->background_bytes, 452743ull * 4096);
}

TEST(VmstatThresholds, AbsentWhenTheKernelDoesNotExportThem) {
  EXPECT_FALSE(parse_vmstat_thresholds("nr_dirty 52\nnr_dirty_threshold 906594\n", 4096).has_value());
}

}  // namespace
}  // namespace sluice
