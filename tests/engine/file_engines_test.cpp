// Every engine that moves real bytes (psync, sync, mmap, libaio, io_uring) against a file in a temporary
// directory: data round trip, many ios in flight, short reads at EOF, -errno results, sync ops, trim.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <random>
#include <set>

#include "engine/engine.h"
#include "engine_test_util.h"

namespace sluice {
namespace {

constexpr std::uint32_t kBlock = 4096;

void fill_pattern(char* p, std::uint64_t offset, std::size_t length) {
  for (std::size_t i = 0; i < length; ++i) p[i] = static_cast<char>((offset + i) * 131 + ((offset + i) >> 12));
}

class FileEngineTest : public ::testing::TestWithParam<EngineKind> {
 protected:
  // Makes and opens the engine; skips the test when the kernel refuses it (io_uring disabled).
  std::unique_ptr<Engine> open_engine(const EngineSetup& setup) {
    std::unique_ptr<Engine> engine;
    try {
      engine = make_engine(GetParam());
      engine->open(setup);
    } catch (const UserError& e) {
      if (GetParam() == EngineKind::kIoUring) return nullptr;
      throw;
    }
    return engine;
  }

  // A file of `blocks` 4 KiB blocks holding the pattern, written with pwrite.
  int make_patterned_file(const std::string& path, std::size_t blocks, bool& direct) {
    int fd = testing::open_test_file(path, O_RDWR, direct);
    auto buf = testing::aligned_buffer(blocks * kBlock);
    fill_pattern(buf.get(), 0, blocks * kBlock);
    EXPECT_EQ(pwrite(fd, buf.get(), blocks * kBlock, 0), static_cast<ssize_t>(blocks * kBlock));
    return fd;
  }

  std::vector<std::uint64_t> sizes(std::uint64_t size) const { return {size}; }

  testing::TempDir dir_;
};

#define OPEN_OR_SKIP(engine, setup)                                                   \
  auto engine = open_engine(setup);                                                   \
  if (!(engine)) GTEST_SKIP() << "io_uring is unavailable on this kernel"

TEST_P(FileEngineTest, WritesThenReadsBackThePattern) {
  constexpr std::size_t kBlocks = 64;
  bool direct = make_engine(GetParam())->caps().direct;
  int fd = testing::open_test_file(dir_.file("data"), O_RDWR, direct);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, kBlocks * kBlock), 0);
  auto wbuf = testing::aligned_buffer(kBlocks * kBlock);
  auto rbuf = testing::aligned_buffer(kBlocks * kBlock);
  fill_pattern(wbuf.get(), 0, kBlocks * kBlock);
  EngineSetup setup{.depth = 8, .fds = {fd}, .file_sizes = sizes(kBlocks * kBlock), .direct = direct, .writes = true};
  for (std::size_t i = 0; i < kBlocks; ++i) setup.buffers.push_back({wbuf.get() + i * kBlock, kBlock});
  OPEN_OR_SKIP(engine, setup);

  std::vector<IoUnit> writes(kBlocks), reads(kBlocks);
  for (std::size_t i = 0; i < kBlocks; ++i) {
    writes[i] = {.op = IoOp::kWrite, .offset = i * kBlock, .length = kBlock, .buffer = wbuf.get() + i * kBlock,
                 .buffer_index = static_cast<int>(i)};
    reads[i] = {.op = IoOp::kRead, .offset = i * kBlock, .length = kBlock, .buffer = rbuf.get() + i * kBlock};
  }
  ASSERT_EQ(testing::run_all(*engine, writes, 8).size(), kBlocks);
  ASSERT_EQ(testing::run_all(*engine, reads, 8).size(), kBlocks);
  for (std::size_t i = 0; i < kBlocks; ++i) {
    EXPECT_EQ(writes[i].result, kBlock);
    EXPECT_EQ(reads[i].result, kBlock);
  }
  EXPECT_EQ(std::memcmp(wbuf.get(), rbuf.get(), kBlocks * kBlock), 0);
  engine->close();
  ::close(fd);
}

TEST_P(FileEngineTest, ManyInFlightEachCompletesOnceWithItsOwnData) {
  constexpr std::size_t kBlocks = 256;
  constexpr unsigned kDepth = 32;
  bool direct = make_engine(GetParam())->caps().direct;
  int fd = make_patterned_file(dir_.file("data"), kBlocks, direct);
  OPEN_OR_SKIP(engine, (EngineSetup{.depth = kDepth, .fds = {fd}, .file_sizes = sizes(kBlocks * kBlock)}));

  std::vector<std::uint64_t> offsets(kBlocks);
  for (std::size_t i = 0; i < kBlocks; ++i) offsets[i] = i * kBlock;
  std::shuffle(offsets.begin(), offsets.end(), std::mt19937_64(7));
  auto buf = testing::aligned_buffer(kBlocks * kBlock);
  std::vector<IoUnit> units(kBlocks);
  for (std::size_t i = 0; i < kBlocks; ++i) {
    units[i] = {.op = IoOp::kRead, .offset = offsets[i], .length = kBlock, .buffer = buf.get() + i * kBlock};
  }
  auto order = testing::run_all(*engine, units, kDepth);
  ASSERT_EQ(order.size(), kBlocks);
  EXPECT_EQ(std::set<IoUnit*>(order.begin(), order.end()).size(), kBlocks);
  auto expected = testing::aligned_buffer(kBlock);
  for (const IoUnit& u : units) {
    ASSERT_EQ(u.result, kBlock);
    fill_pattern(expected.get(), u.offset, kBlock);
    EXPECT_EQ(std::memcmp(u.buffer, expected.get(), kBlock), 0) << "offset " << u.offset;
  }
  engine->close();
  ::close(fd);
}

TEST_P(FileEngineTest, ShortReadAtEofReportsTheShortCount) {
  bool direct = false;
  int fd = testing::open_test_file(dir_.file("short"), O_RDWR, direct);
  std::vector<char> data(kBlock + 100, 'x');
  ASSERT_EQ(pwrite(fd, data.data(), data.size(), 0), static_cast<ssize_t>(data.size()));
  OPEN_OR_SKIP(engine, (EngineSetup{.depth = 2, .fds = {fd}, .file_sizes = sizes(data.size())}));
  auto buf = testing::aligned_buffer(kBlock);
  std::vector<IoUnit> units = {{.op = IoOp::kRead, .offset = kBlock, .length = kBlock, .buffer = buf.get()}};
  ASSERT_EQ(testing::run_all(*engine, units, 2).size(), 1u);
  EXPECT_EQ(units[0].result, 100);
  engine->close();
  ::close(fd);
}

TEST_P(FileEngineTest, ReadFromWriteOnlyFileIsMinusEbadf) {
  bool direct = false;
  int fd = testing::open_test_file(dir_.file("wronly"), O_WRONLY, direct);
  ASSERT_EQ(ftruncate(fd, kBlock), 0);
  EngineSetup setup{.depth = 2, .fds = {fd}, .file_sizes = sizes(kBlock)};
  if (GetParam() == EngineKind::kMmap) {
    EXPECT_THROW(make_engine(EngineKind::kMmap)->open(setup), IoError);  // a mapping needs a readable fd
    ::close(fd);
    return;
  }
  OPEN_OR_SKIP(engine, setup);
  auto buf = testing::aligned_buffer(kBlock);
  std::vector<IoUnit> units = {{.op = IoOp::kRead, .offset = 0, .length = kBlock, .buffer = buf.get()}};
  ASSERT_EQ(testing::run_all(*engine, units, 2).size(), 1u);
  EXPECT_EQ(units[0].result, -EBADF);
  engine->close();
  ::close(fd);
}

TEST_P(FileEngineTest, FsyncAndFdatasyncCompleteAfterWrites) {
  bool direct = false;
  int fd = testing::open_test_file(dir_.file("sync"), O_RDWR, direct);
  ASSERT_EQ(ftruncate(fd, 4 * kBlock), 0);
  OPEN_OR_SKIP(engine, (EngineSetup{.depth = 4, .fds = {fd}, .file_sizes = sizes(4 * kBlock), .writes = true}));
  auto buf = testing::aligned_buffer(2 * kBlock);
  std::vector<IoUnit> units = {{.op = IoOp::kWrite, .offset = 0, .length = kBlock, .buffer = buf.get()},
                               {.op = IoOp::kWrite, .offset = kBlock, .length = kBlock, .buffer = buf.get() + kBlock},
                               {.op = IoOp::kFsync},
                               {.op = IoOp::kFdatasync}};
  ASSERT_EQ(testing::run_all(*engine, units, 4).size(), 4u);
  EXPECT_EQ(units[0].result, kBlock);
  EXPECT_EQ(units[1].result, kBlock);
  EXPECT_EQ(units[2].result, 0);
  EXPECT_EQ(units[3].result, 0);
  engine->close();
  ::close(fd);
}

TEST_P(FileEngineTest, TrimOfAFileReadsBackAsZeros) {
  if (!make_engine(GetParam())->caps().trim) GTEST_SKIP() << "engine does not support trim";
  bool direct = false;
  int fd = make_patterned_file(dir_.file("trim"), 4, direct);
  OPEN_OR_SKIP(engine, (EngineSetup{.depth = 2, .fds = {fd}, .file_sizes = sizes(4 * kBlock)}));
  std::vector<IoUnit> units = {{.op = IoOp::kTrim, .offset = kBlock, .length = kBlock}};
  ASSERT_EQ(testing::run_all(*engine, units, 2).size(), 1u);
  if (units[0].result == -EOPNOTSUPP) GTEST_SKIP() << "filesystem cannot punch holes";
  EXPECT_EQ(units[0].result, kBlock);
  std::vector<char> back(kBlock, 1);
  ASSERT_EQ(pread(fd, back.data(), kBlock, kBlock), static_cast<ssize_t>(kBlock));
  EXPECT_EQ(std::count(back.begin(), back.end(), 0), static_cast<long>(kBlock));
  engine->close();
  ::close(fd);
}

INSTANTIATE_TEST_SUITE_P(Engines, FileEngineTest,
                         ::testing::Values(EngineKind::kPsync, EngineKind::kSync, EngineKind::kMmap,
                                           EngineKind::kLibaio, EngineKind::kIoUring),
                         [](const auto& info) { return std::string(engine_name(info.param)); });

}  // namespace
}  // namespace sluice
