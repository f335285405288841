// Walks the engine traits table and checks every claim of every row against the engine itself, on files in
// a temporary directory: a row that lies about an engine fails here. (Validation's side of the trim claim is
// in tests/job/validate_test.cpp: trim is accepted exactly on the engines whose row says trim.)
#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/falloc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine_test_util.h"
#include "support/machine_features.h"

namespace sluice {

// Test names and failure messages show the engine's name, not the row's bytes.
void PrintTo(const EngineTraits& traits, std::ostream* os) { *os << traits.name; }

namespace {

constexpr std::uint32_t kBlock = 4096;
constexpr std::size_t kBlocks = 8;
constexpr std::int64_t kUnset = std::numeric_limits<std::int64_t>::min();

void fill_pattern(char* p, std::size_t length) {
  for (std::size_t i = 0; i < length; ++i) p[i] = static_cast<char>(1 + (i * 131 + (i >> 12)) % 251);  // never 0
}

// Registered files and buffers of every io_uring instance of this process, read from /proc/self/fdinfo.
struct UringRegistrations {
  int rings = 0;
  int rings_with_files = 0;
  int rings_with_buffers = 0;
};

int fdinfo_count(const std::string& fdinfo_path, const std::string& key) {
  std::ifstream in(fdinfo_path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) return std::atoi(line.c_str() + key.size());
  }
  return 0;
}

UringRegistrations uring_registrations() {
  UringRegistrations r;
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return r;
  while (const dirent* e = readdir(dir)) {
    const std::string fd_path = std::string("/proc/self/fd/") + e->d_name;
    char target[128] = {};
    if (readlink(fd_path.c_str(), target, sizeof target - 1) <= 0) continue;
    if (std::string(target) != "anon_inode:[io_uring]") continue;
    const std::string info = std::string("/proc/self/fdinfo/") + e->d_name;
    ++r.rings;
    if (fdinfo_count(info, "UserFiles:") > 0) ++r.rings_with_files;
    if (fdinfo_count(info, "UserBufs:") > 0) ++r.rings_with_buffers;
  }
  closedir(dir);
  return r;
}

class EngineTraitsTest : public ::testing::TestWithParam<EngineTraits> {
 protected:
  void SetUp() override {
    if (!engine_available(GetParam().kind)) {
      GTEST_SKIP() << GetParam().name << " is refused by this kernel (or seccomp): its claims cannot be checked";
    }
    if (GetParam().kind == EngineKind::kE4defrag) SLUICE_REQUIRE(kExt4MoveExt);
    if (GetParam().kind == EngineKind::kIoUring) SLUICE_REQUIRE(kIoUringOps);
  }
  void TearDown() override {
    if (fd_ >= 0) ::close(fd_);
  }

  const EngineTraits& traits() const { return GetParam(); }

  // A file of kBlocks blocks of the (never zero) pattern, flushed; fd_ is open read-write (O_DIRECT if asked
  // and the filesystem allows: `direct` says what was used).
  void make_file(bool& direct) {
    if (traits().dirs) {  // dircreate makes it; dirstat and dirdelete work on one that exists (the runner's)
      if (traits().kind != EngineKind::kDirCreate) {
        ASSERT_EQ(::mkdir(dir_.file("data").c_str(), 0700), 0);
      }
      return;
    }
    fd_ = testing::open_test_file(dir_.file("data"), O_RDWR, direct);
    ASSERT_GE(fd_, 0);
    ASSERT_EQ(pwrite(fd_, pattern_.get(), kBlocks * kBlock, 0), static_cast<ssize_t>(kBlocks * kBlock));
    ASSERT_EQ(fsync(fd_), 0);
  }

  // The setup the runner would give this engine: the file (when the engine works on files) and its size.
  EngineSetup setup_for(std::uint32_t depth, bool direct = false) const {
    EngineSetup setup{.depth = depth, .direct = direct, .writes = true};
    if (traits().needs_fd) setup.fds = {fd_};
    if (traits().needs_fd || traits().needs_size) setup.file_sizes = {kBlocks * kBlock};  // page_fault: its mapping
    if (traits().uses_files) {
      setup.paths = {dir_.file("data")};
      setup.file_starts = {0};
    }
    setup.directory = dir_.path();  // e4defrag's donor file lives there
    return setup;
  }

  // The engine of the row, with the options an engine needs to run here.
  EngineOptions engine_options() const {
    return {.ioengine = traits().kind,
            // cpuio: 1 ms of burning an io, not the default 50 ms; no claim depends on it
            .cpuio = {.cpuchunks_us = 1000},
            .e4defrag = {.donorname = "donor", .inplace = false}};
  }

  IoUnit read_unit(std::uint64_t block, char* buffer) const {
    return {.op = IoOp::kRead, .offset = block * kBlock, .length = kBlock, .buffer = buffer, .result = kUnset};
  }

  // Reaps until `count` completions came back (bounded, so a lost io fails instead of hanging).
  static std::vector<IoUnit*> reap_all(Engine& engine, std::size_t count) {
    std::vector<IoUnit*> done;
    std::vector<IoUnit*> out(count);
    for (int round = 0; done.size() < count && round < 1000; ++round) {
      const int n = engine.reap(1, std::span<IoUnit*>(out.data(), count - done.size()));
      done.insert(done.end(), out.begin(), out.begin() + n);
    }
    return done;
  }

  // Submits one io and reaps it; returns its result.
  static std::int64_t run_one(Engine& engine, IoUnit unit) {
    IoUnit* batch[] = {&unit};
    if (engine.submit(batch) != 1) return kUnset;
    return reap_all(engine, 1).size() == 1 ? unit.result : kUnset;
  }

  testing::TempDir dir_;
  int fd_ = -1;
  std::unique_ptr<char, FreeDeleter> pattern_ = [] {
    auto p = testing::aligned_buffer(kBlocks * kBlock);
    fill_pattern(p.get(), kBlocks * kBlock);
    return p;
  }();
};

TEST_P(EngineTraitsTest, NameRoundTripsThroughTheTableAndTheEngine) {
  EXPECT_EQ(engine_by_name(traits().name), traits().kind);
  EXPECT_EQ(engine_name(traits().kind), traits().name);
  EXPECT_EQ(engine_names()[static_cast<std::size_t>(traits().kind)], traits().name);
  const auto engine = make_engine(engine_options());
  EXPECT_EQ(engine->name(), traits().name);
  EXPECT_EQ(engine->caps().kind, traits().kind);
}

// async: completions come from reap(), after submit() returned with several ios in flight.
// Otherwise every io is finished when submit() returns.
TEST_P(EngineTraitsTest, AsyncClaimMatchesWhenIosComplete) {
  if (!traits().reads) GTEST_SKIP() << traits().name << " does no reads";
  constexpr std::size_t kDepth = 4;
  bool direct = false;
  if (traits().uses_files) {
    ASSERT_NO_FATAL_FAILURE(make_file(direct));
  }
  const auto engine = make_engine(engine_options());
  engine->open(setup_for(kDepth));
  auto buf = testing::aligned_buffer(kDepth * kBlock);
  std::vector<IoUnit> units;
  for (std::size_t i = 0; i < kDepth; ++i) units.push_back(read_unit(i, buf.get() + i * kBlock));
  std::vector<IoUnit*> batch;
  for (IoUnit& u : units) batch.push_back(&u);

  ASSERT_EQ(engine->submit(batch), static_cast<int>(kDepth));
  for (const IoUnit& u : units) {
    if (traits().completes_in_submit()) {
      EXPECT_EQ(u.result, kBlock) << "a synchronous engine finishes the io inside submit()";
    } else {
      EXPECT_EQ(u.result, kUnset) << "an async engine reports completions from reap(), not submit()";
    }
  }
  const std::vector<IoUnit*> done = reap_all(*engine, kDepth);
  EXPECT_EQ(std::set<IoUnit*>(done.begin(), done.end()).size(), kDepth);
  for (const IoUnit& u : units) EXPECT_EQ(u.result, kBlock);
}

// moves_data: a read brings the file's bytes; without it, the engine leaves the buffer alone (null touches
// nothing, falloc allocates, the per-file engines operate on the name).
TEST_P(EngineTraitsTest, MovesDataClaimMatchesWhatAReadBrings) {
  if (!traits().reads) GTEST_SKIP() << traits().name << " does no reads";
  bool direct = false;
  if (traits().uses_files) {
    ASSERT_NO_FATAL_FAILURE(make_file(direct));
  }
  const auto engine = make_engine(engine_options());
  engine->open(setup_for(1));
  auto buf = testing::aligned_buffer(kBlock);
  ASSERT_EQ(run_one(*engine, read_unit(2, buf.get())), kBlock);
  if (traits().moves_data) {
    EXPECT_EQ(std::memcmp(buf.get(), pattern_.get() + 2 * kBlock, kBlock), 0)
        << "the read did not bring the file's bytes";
  } else {
    EXPECT_EQ(std::count(buf.get(), buf.get() + kBlock, 0), static_cast<long>(kBlock))
        << "the engine touched the buffer";
  }
}

// needs_fd: the engine works through the descriptors it is given; without them it works on the names (or on
// nothing). An engine that needs them fails an io when it has only the file's name.
TEST_P(EngineTraitsTest, NeedsFdClaimMatchesWhetherANameIsEnough) {
  if (!traits().uses_files) GTEST_SKIP() << traits().name << " works on no file";
  bool direct = false;
  ASSERT_NO_FATAL_FAILURE(make_file(direct));
  EngineSetup setup = setup_for(1);
  setup.fds = {-1};
  const auto engine = make_engine(engine_options());
  engine->open(setup);
  auto buf = testing::aligned_buffer(kBlock);
  const IoOp op = traits().reads ? IoOp::kRead : IoOp::kWrite;
  const std::int64_t result =
      run_one(*engine, {.op = op, .offset = 0, .length = kBlock, .buffer = buf.get(), .result = kUnset});
  if (traits().needs_fd) {
    EXPECT_NE(result, kBlock) << "an engine that needs descriptors completed an io with only the file's name";
  } else {
    EXPECT_EQ(result, kBlock);
  }
}

// per_file: one operation per file, done by the io at the region's start (timed); the file's other ios are
// completed without it and untimed. Other engines time every io.
TEST_P(EngineTraitsTest, PerFileClaimMatchesWhichIosAreTimed) {
  bool direct = false;
  if (traits().uses_files) {
    ASSERT_NO_FATAL_FAILURE(make_file(direct));
  }
  const auto engine = make_engine(engine_options());
  engine->open(setup_for(1));
  auto buf = testing::aligned_buffer(kBlock);
  const IoOp op = traits().reads ? IoOp::kRead : IoOp::kWrite;
  IoUnit later{.op = op, .offset = 3 * kBlock, .length = kBlock, .buffer = buf.get(), .result = kUnset};
  IoUnit* batch[] = {&later};
  ASSERT_EQ(engine->submit(batch), 1);
  ASSERT_EQ(reap_all(*engine, 1).size(), 1u);
  EXPECT_EQ(later.result, kBlock);
  EXPECT_EQ(later.timed, !traits().per_file) << "an io past the file's start";
  // The same unit again (the runner reuses its units), now at the file's start: timed again. The file is
  // flushed first: e4defrag cannot move a range whose page cache folio the last move left dirty (EBUSY).
  ASSERT_EQ(traits().needs_fd ? fsync(fd_) : 0, 0);
  later.offset = 0;
  later.result = kUnset;
  ASSERT_EQ(engine->submit(batch), 1);
  ASSERT_EQ(reap_all(*engine, 1).size(), 1u);
  EXPECT_EQ(later.result, kBlock);
  EXPECT_TRUE(later.timed) << "the io at the file's start";
}

// needs_size: without the file's length the engine cannot reach its bytes (mmap maps nothing).
TEST_P(EngineTraitsTest, NeedsSizeClaimMatchesReadsWithoutFileSizes) {
  if (!traits().needs_fd) GTEST_SKIP() << traits().name << " works on no file";
  if (!traits().reads) GTEST_SKIP() << traits().name << " does no reads";
  bool direct = false;
  ASSERT_NO_FATAL_FAILURE(make_file(direct));
  EngineSetup setup = setup_for(1);
  setup.file_sizes.clear();
  const auto engine = make_engine(engine_options());
  engine->open(setup);
  auto buf = testing::aligned_buffer(kBlock);
  const std::int64_t result = run_one(*engine, read_unit(0, buf.get()));
  if (traits().needs_size) {
    EXPECT_EQ(result, 0) << "an engine that needs the size read bytes it was not told about";
  } else {
    EXPECT_EQ(result, kBlock);
  }
}

// Whether the filesystem holding `path` punches holes (so EOPNOTSUPP from an engine is the engine's own).
bool fs_punches_holes(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  const bool ok =
      ftruncate(fd, 2 * kBlock) == 0 && fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, kBlock) == 0;
  ::close(fd);
  ::unlink(path.c_str());
  return ok;
}

// trim: issued to the file (punch hole, reads back as zeros) or refused by the filesystem with EOPNOTSUPP,
// which still shows the engine issued it. An engine without trim refuses it itself.
TEST_P(EngineTraitsTest, TrimClaimMatchesWhatTheEngineDoes) {
  bool direct = false;
  if (traits().uses_files) {
    ASSERT_NO_FATAL_FAILURE(make_file(direct));
  }
  const auto engine = make_engine(engine_options());
  engine->open(setup_for(2));
  const std::int64_t result =
      run_one(*engine, {.op = IoOp::kTrim, .offset = kBlock, .length = kBlock, .result = kUnset});
  if (!traits().trim) {
    EXPECT_EQ(result, -EOPNOTSUPP);
    return;
  }
  if (!traits().needs_fd) {  // null does nothing; a per-file engine's trim past the file's start is untimed
    EXPECT_EQ(result, kBlock);
    return;
  }
  if (result == -EOPNOTSUPP && !fs_punches_holes(dir_.file("probe"))) {
    GTEST_SKIP() << "the filesystem cannot punch holes (the engine did issue the trim)";
  }
  ASSERT_EQ(result, kBlock);
  std::vector<char> back(kBlock, 1);
  ASSERT_EQ(pread(fd_, back.data(), kBlock, kBlock), static_cast<ssize_t>(kBlock));
  EXPECT_EQ(std::count(back.begin(), back.end(), 0), static_cast<long>(kBlock)) << "the trimmed block kept its data";
}

// flush: fsync and fdatasync complete with their length after a write.
TEST_P(EngineTraitsTest, FlushClaimMatchesFsyncAndFdatasync) {
  bool direct = false;
  if (traits().uses_files) {
    ASSERT_NO_FATAL_FAILURE(make_file(direct));
  }
  const auto engine = make_engine(engine_options());
  engine->open(setup_for(2));
  ASSERT_EQ(run_one(*engine, {.op = IoOp::kWrite, .length = kBlock, .buffer = pattern_.get(), .result = kUnset}),
            kBlock);
  const std::int64_t fsync_result = run_one(*engine, {.op = IoOp::kFsync, .length = 1, .result = kUnset});
  const std::int64_t fdatasync_result = run_one(*engine, {.op = IoOp::kFdatasync, .length = 1, .result = kUnset});
  if (traits().flush) {
    EXPECT_EQ(fsync_result, 1);
    EXPECT_EQ(fdatasync_result, 1);
  } else {
    EXPECT_LT(fsync_result, 0);
    EXPECT_LT(fdatasync_result, 0);
  }
}

bool resident(int fd, std::size_t length) {
  void* map = mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return true;
  std::vector<unsigned char> pages((length + kBlock - 1) / kBlock);
  const bool ok = mincore(map, length, pages.data()) == 0;
  munmap(map, length);
  return !ok || std::any_of(pages.begin(), pages.end(), [](unsigned char p) { return (p & 1) != 0; });
}

// direct: with direct=1 the engine reads the file without filling the page cache. Without the claim (mmap),
// the data goes through the page cache even on an O_DIRECT descriptor.
TEST_P(EngineTraitsTest, DirectClaimMatchesThePageCache) {
  if (!traits().moves_data) GTEST_SKIP() << traits().name << " moves no data";
  bool direct = true;
  ASSERT_NO_FATAL_FAILURE(make_file(direct));
  if (!direct) GTEST_SKIP() << "the filesystem of " << dir_.file("") << " refuses O_DIRECT";
  (void)posix_fadvise(fd_, 0, 0, POSIX_FADV_DONTNEED);
  if (resident(fd_, kBlocks * kBlock)) GTEST_SKIP() << "the filesystem keeps the file cached (cannot drop it)";
  const auto engine = make_engine(engine_options());
  engine->open(setup_for(1, true));
  auto buf = testing::aligned_buffer(kBlock);
  ASSERT_EQ(run_one(*engine, read_unit(3, buf.get())), kBlock);
  EXPECT_EQ(std::memcmp(buf.get(), pattern_.get() + 3 * kBlock, kBlock), 0);
  engine->close();
  EXPECT_EQ(resident(fd_, kBlocks * kBlock), !traits().direct)
      << (traits().direct ? "a direct read filled the page cache" : "the engine bypassed the page cache");
}

// registers: the engine registers the job's files and buffers with the kernel (io_uring's fdinfo lists them).
TEST_P(EngineTraitsTest, RegistersClaimMatchesTheKernelsView) {
  if (!traits().needs_fd) GTEST_SKIP() << traits().name << " works on no file";
  bool direct = false;
  ASSERT_NO_FATAL_FAILURE(make_file(direct));
  const UringRegistrations before = uring_registrations();
  EngineSetup setup = setup_for(2);
  setup.buffers = {{pattern_.get(), kBlocks * kBlock}};
  const auto engine = make_engine(engine_options());
  engine->open(setup);
  const UringRegistrations after = uring_registrations();
  if (traits().registers) {
    EXPECT_EQ(after.rings_with_files, before.rings_with_files + 1);
    EXPECT_EQ(after.rings_with_buffers, before.rings_with_buffers + 1);
  } else {
    EXPECT_EQ(after.rings_with_files, before.rings_with_files);
    EXPECT_EQ(after.rings_with_buffers, before.rings_with_buffers);
  }
}

INSTANTIATE_TEST_SUITE_P(EveryEngine, EngineTraitsTest, ::testing::ValuesIn(kEngineTable),
                         [](const auto& engine) { return std::string(engine.param.name); });

TEST(EngineTable, UnknownNamesAreNotEngines) {
  EXPECT_FALSE(engine_by_name("rbd").has_value());
  EXPECT_FALSE(engine_by_name("").has_value());
  EXPECT_FALSE(engine_by_name("PSYNC").has_value());
}

TEST(EngineTable, EnginesThatCannotBeRefusedAreAvailable) {
  for (const EngineTraits& t : kEngineTable) {
    if (!t.may_be_refused) {
      EXPECT_TRUE(engine_available(t.kind)) << t.name;
    }
  }
}

TEST(EngineTable, AvailabilityIsWhetherTheEngineOpens) {
  for (const EngineTraits& t : kEngineTable) {
    bool opens = true;
    try {
      make_engine(t.kind)->open(EngineSetup{});
    } catch (const std::exception&) {
      opens = false;
    }
    EXPECT_EQ(engine_available(t.kind), opens) << t.name;
  }
}

}  // namespace
}  // namespace sluice
