// Trim on a block device (BLKDISCARD path) through every engine that supports it, on a loop device this
// test attaches itself. Needs root and losetup.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>

#include "engine/engine.h"
#include "engine_test_util.h"
#include "support/loop_device.h"

namespace sluice {
namespace {

class BlockTrim : public ::testing::TestWithParam<EngineKind> {
 protected:
  void SetUp() override {
    const std::string why_not = loop_.attach(dir_.file("disk.img"), 16 << 20);
    if (!why_not.empty()) GTEST_SKIP() << why_not;
    device_ = loop_.path();
  }

  testing::TempDir dir_;
  testing::LoopDevice loop_;  // after dir_: detached before the image's directory goes
  std::string device_;
};

TEST_P(BlockTrim, DiscardedRangeReadsBackAsZeros) {
  int fd = ::open(device_.c_str(), O_RDWR | O_DIRECT);
  ASSERT_GE(fd, 0);
  auto buf = testing::aligned_buffer(1 << 20);
  std::fill(buf.get(), buf.get() + (1 << 20), 'z');
  ASSERT_EQ(pwrite(fd, buf.get(), 1 << 20, 0), 1 << 20);
  std::unique_ptr<Engine> engine;
  try {
    engine = make_engine(GetParam());
    engine->open({.depth = 2, .fds = {fd}, .direct = true, .writes = true});
  } catch (const UserError& e) {
    ::close(fd);
    GTEST_SKIP() << e.what();
  }
  std::vector<IoUnit> units = {{.op = IoOp::kTrim, .offset = 0, .length = 1 << 20}};
  ASSERT_EQ(testing::run_all(*engine, units, 2).size(), 1u);
  if (units[0].result == -EOPNOTSUPP) GTEST_SKIP() << "loop device does not support discard";
  EXPECT_EQ(units[0].result, 1 << 20);
  ASSERT_EQ(pread(fd, buf.get(), 1 << 20, 0), 1 << 20);
  EXPECT_EQ(std::count(buf.get(), buf.get() + (1 << 20), 0), 1 << 20);
  engine->close();
  ::close(fd);
}

INSTANTIATE_TEST_SUITE_P(Engines, BlockTrim,
                         ::testing::Values(EngineKind::kPsync, EngineKind::kSync, EngineKind::kLibaio,
                                           EngineKind::kIoUring));

}  // namespace
}  // namespace sluice
