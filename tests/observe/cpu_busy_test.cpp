// The machine's CPU busy share from <proc>/stat (a synthetic tree).
#include "observe/cpu_busy.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/temp_dir.h"

namespace sluice {
namespace {

TEST(CpuBusy, ReadsTheAggregateLineAndTheShareBetweenTwoReadings) {
  testing::TempDir root;
  std::filesystem::create_directories(root.path() + "/proc");
  std::ofstream(root.path() + "/proc/stat") << "cpu  100 10 40 800 30 5 5 10 0 0\ncpu0 50 5 20 400 15 2 3 5 0 0\n";
  SystemRoots roots;
  roots.proc_root = root.path() + "/proc";
  const std::optional<CpuTimes> t = read_cpu_times(roots);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->busy, 170u);  // user, nice, system, irq, softirq, steal
  EXPECT_EQ(t->total, 1000u);
  const CpuTimes later{t->busy + 30, t->total + 100};
  EXPECT_DOUBLE_EQ(*busy_share(*t, later), 0.3);
  EXPECT_FALSE(busy_share(*t, *t));
  roots.proc_root = root.path() + "/nothing";
  EXPECT_FALSE(read_cpu_times(roots));
}

}  // namespace
}  // namespace sluice
