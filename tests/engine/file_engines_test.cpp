// What fio's engines that move no data do to the file: falloc allocates, extends and punches holes,
// ftruncate sets the length, filecreate / filestat / filedelete operate on the name once per file.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine_test_util.h"

namespace sluice {
namespace {

constexpr std::uint32_t kFileBlock = 4096;

struct FileState {
  bool exists = false;
  std::uint64_t size = 0;
  std::uint64_t allocated = 0;  // bytes of disk blocks
};

FileState state_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {true, static_cast<std::uint64_t>(st.st_size), static_cast<std::uint64_t>(st.st_blocks) * 512};
}

std::int64_t run_one(Engine& engine, IoUnit& unit) {
  IoUnit* batch[] = {&unit};
  if (engine.submit(batch) != 1) return -1000;
  IoUnit* out[1] = {};
  return engine.reap(1, out) == 1 ? unit.result : -1000;
}

class FdEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.file("f");
    fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT, 0644);
    ASSERT_GE(fd_, 0);
  }
  void TearDown() override { ::close(fd_); }
  std::unique_ptr<Engine> open_engine(EngineKind kind) {
    auto engine = make_engine(kind);
    engine->open(EngineSetup{.depth = 1, .fds = {fd_}, .file_sizes = {0}, .writes = true});
    return engine;
  }
  IoUnit unit(IoOp op, std::uint64_t offset, std::uint32_t length) {
    return {.op = op, .offset = offset, .length = length, .buffer = buffer_.get()};
  }

  testing::TempDir dir_;
  std::string path_;
  int fd_ = -1;
  std::unique_ptr<char, FreeDeleter> buffer_ = testing::aligned_buffer(16 * kFileBlock);
};

TEST_F(FdEngineTest, FallocReadAllocatesWithoutGrowingWriteGrowsTrimPunches) {
  auto engine = open_engine(EngineKind::kFalloc);
  IoUnit read = unit(IoOp::kRead, 0, 4 * kFileBlock);
  ASSERT_EQ(run_one(*engine, read), 4 * kFileBlock);
  EXPECT_EQ(state_of(path_).size, 0u) << "a read keeps the size (FALLOC_FL_KEEP_SIZE)";
  EXPECT_GE(state_of(path_).allocated, 4u * kFileBlock);
  IoUnit write = unit(IoOp::kWrite, 4 * kFileBlock, 4 * kFileBlock);
  ASSERT_EQ(run_one(*engine, write), 4 * kFileBlock);
  EXPECT_EQ(state_of(path_).size, 8u * kFileBlock) << "a write allocates and extends";
  const std::uint64_t before = state_of(path_).allocated;
  IoUnit trim = unit(IoOp::kTrim, 0, 2 * kFileBlock);
  const std::int64_t trimmed = run_one(*engine, trim);
  if (trimmed == -EOPNOTSUPP) GTEST_SKIP() << "the filesystem cannot punch holes";
  ASSERT_EQ(trimmed, 2 * kFileBlock);
  EXPECT_EQ(state_of(path_).allocated, before - 2 * kFileBlock) << "a trim punches a hole";
  EXPECT_EQ(state_of(path_).size, 8u * kFileBlock);
  IoUnit sync = unit(IoOp::kFsync, 0, 0);
  EXPECT_EQ(run_one(*engine, sync), -EOPNOTSUPP);
}

TEST_F(FdEngineTest, FtruncateWriteSetsTheLengthToItsOffsetAndReadsAreRefused) {
  auto engine = open_engine(EngineKind::kFtruncate);
  IoUnit grow = unit(IoOp::kWrite, 12 * kFileBlock, kFileBlock);
  ASSERT_EQ(run_one(*engine, grow), kFileBlock);
  EXPECT_EQ(state_of(path_).size, 12u * kFileBlock);
  IoUnit shrink = unit(IoOp::kWrite, kFileBlock, kFileBlock);
  ASSERT_EQ(run_one(*engine, shrink), kFileBlock);
  EXPECT_EQ(state_of(path_).size, 1u * kFileBlock);
  IoUnit read = unit(IoOp::kRead, 0, kFileBlock);
  EXPECT_EQ(run_one(*engine, read), -EINVAL);
}

class FileOpEngineTest : public ::testing::Test {
 protected:
  std::unique_ptr<Engine> open_engine(EngineKind kind, std::vector<std::string> paths,
                                      FileStatCall call = FileStatCall::kStat) {
    auto engine = make_engine({.ioengine = kind, .filestat = {.stat_type = call}});
    EngineSetup setup{.depth = 1};
    setup.paths = paths;
    setup.file_starts.assign(paths.size(), kFileBlock);  // each file's region starts at its second block
    engine->open(setup);
    return engine;
  }
  static IoUnit io(int file, std::uint64_t offset) {
    return {.op = IoOp::kRead, .file_index = file, .offset = offset, .length = kFileBlock};
  }
  testing::TempDir dir_;
};

TEST_F(FileOpEngineTest, FilecreateCreatesEachFileAtItsRegionStartOnly) {
  const std::vector<std::string> paths = {dir_.file("a"), dir_.file("b")};
  auto engine = open_engine(EngineKind::kFileCreate, paths);
  IoUnit before_start = io(1, 0);
  ASSERT_EQ(run_one(*engine, before_start), kFileBlock);
  EXPECT_FALSE(before_start.timed);
  EXPECT_FALSE(state_of(paths[1]).exists) << "only the io at the region's start creates";
  IoUnit& create = before_start;  // the runner reuses its units: timed must be set again
  create.offset = kFileBlock;
  ASSERT_EQ(run_one(*engine, create), kFileBlock);
  EXPECT_TRUE(create.timed);
  EXPECT_TRUE(state_of(paths[1]).exists);
  EXPECT_EQ(state_of(paths[1]).size, 0u) << "created empty, as fio's open(O_CREAT)";
  struct stat st {};
  ASSERT_EQ(::stat(paths[1].c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_FALSE(state_of(paths[0]).exists);
}

TEST_F(FileOpEngineTest, FilestatStatsWithTheChosenCallAndFailsOnAMissingFile) {
  const std::string file = dir_.make_file("x", kFileBlock);
  const std::string link = dir_.file("dangling");
  ASSERT_EQ(::symlink(dir_.file("nowhere").c_str(), link.c_str()), 0);
  for (FileStatCall call : {FileStatCall::kStat, FileStatCall::kLstat, FileStatCall::kStatx}) {
    auto engine = open_engine(EngineKind::kFileStat, {file, link}, call);
    IoUnit ok = io(0, kFileBlock);
    EXPECT_EQ(run_one(*engine, ok), kFileBlock);
    IoUnit on_link = io(1, kFileBlock);
    // lstat stats the link itself; stat and statx (which follows it) find nothing behind it.
    EXPECT_EQ(run_one(*engine, on_link),
              call == FileStatCall::kLstat ? std::int64_t{kFileBlock} : std::int64_t{-ENOENT})
        << static_cast<int>(call);
  }
}

TEST_F(FileOpEngineTest, FiledeleteUnlinksOnceAndASecondPassFindsNothing) {
  const std::string file = dir_.make_file("gone", kFileBlock);
  auto engine = open_engine(EngineKind::kFileDelete, {file});
  IoUnit del = io(0, kFileBlock);
  ASSERT_EQ(run_one(*engine, del), kFileBlock);
  EXPECT_FALSE(state_of(file).exists);
  IoUnit again = io(0, kFileBlock);
  EXPECT_EQ(run_one(*engine, again), -ENOENT) << "fio's second open of a deleted file fails the same way";
}

}  // namespace
}  // namespace sluice
