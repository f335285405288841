// What a job does to the page cache before it starts (fio's invalidate, pre_read, create_only), seen from
// outside with mincore(2) on the job's file after `sluice run --create_only=1`: the job lays out or opens its
// file, applies its hints, and ends without I/O, so what is resident is what the hints left.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

// Larger than the readahead of a buffered read can bring in around a small region (read_ahead_kb is 8192
// on some virtual disks).
constexpr std::size_t kFileBytes = 64u << 20;

// Share of the file's pages in the page cache (0..1), -1 when it cannot be told.
double resident_share(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st {};
  ::fstat(fd, &st);
  void* map = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return -1;
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in_core((static_cast<std::size_t>(st.st_size) + page - 1) / page);
  const int rc = ::mincore(map, static_cast<std::size_t>(st.st_size), in_core.data());
  ::munmap(map, static_cast<std::size_t>(st.st_size));
  if (rc != 0) return -1;
  std::size_t resident = 0;
  for (unsigned char c : in_core) resident += c & 1u;
  return static_cast<double>(resident) / static_cast<double>(in_core.size());
}

// Writes the file through the page cache and reads it back, so that all of it is resident.
void write_cached(const std::string& path) {
  std::ofstream(path, std::ios::binary) << std::string(kFileBytes, 'c');
  std::ifstream in(path, std::ios::binary);
  std::string back((std::istreambuf_iterator<char>(in)), {});
  ::sync();  // clean pages: DONTNEED drops only clean ones
}

RunOutput create_only(const std::string& file, std::vector<std::string> extra) {
  std::vector<std::string> args = {"run",       "--name=hints", "--filename=" + file, "--size=64m",
                                   "--rw=read", "--direct=0",   "--create_only=1",    "--output-format=json"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_binary(args, {});
}

TEST(CacheHints, InvalidateDropsTheFilesPagesByDefault) {
  TempDir tmp;
  const std::string f = tmp.file("f");
  write_cached(f);
  ASSERT_GT(resident_share(f), 0.9) << "the file did not stay in the page cache; nothing to test";
  const RunOutput r = create_only(f, {});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_LT(resident_share(f), 0.05);
}

TEST(CacheHints, InvalidateZeroKeepsThem) {
  TempDir tmp;
  const std::string f = tmp.file("f");
  write_cached(f);
  const RunOutput r = create_only(f, {"--invalidate=0"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_GT(resident_share(f), 0.9);
}

TEST(CacheHints, PreReadBringsTheRegionIn) {
  TempDir tmp;
  const std::string f = tmp.file("f");
  write_cached(f);
  ASSERT_EQ(create_only(f, {}).exit_code, 0);  // dropped first
  ASSERT_LT(resident_share(f), 0.05);
  const RunOutput r = create_only(f, {"--pre_read=1", "--size=4m"});  // the region only: 1/16 of the file
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const double share = resident_share(f);
  EXPECT_GE(share, 4.0 / 64);
  EXPECT_LT(share, 0.5);  // readahead brings some more (up to two windows), never the whole file
}

// F_GET_RW_HINT reads the hint back from the inode, which stays in memory while the test holds it open.
TEST(CacheHints, WriteHintIsSetOnTheFile) {
  TempDir tmp;
  const std::string f = tmp.file("f");
  write_cached(f);
  const int fd = ::open(f.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  const RunOutput r = create_only(f, {"--write_hint=long", "--rw=write"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  std::uint64_t hint = 0;
  ASSERT_EQ(::fcntl(fd, F_GET_RW_HINT, &hint), 0);
  EXPECT_EQ(hint, 4u);  // RWH_WRITE_LIFE_LONG
  ::close(fd);
}

TEST(CacheHints, CreateOnlyLaysOutAndDoesNoIo) {
  TempDir tmp;
  const std::string f = tmp.file("new");
  const RunOutput r = create_only(f, {});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(std::filesystem::file_size(f), kFileBytes);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ(total_ios(doc->at("jobs").at(0), "read"), 0u);
  EXPECT_EQ(doc->at("jobs").at(0).at("error"), 0);
}

}  // namespace
}  // namespace sluice::testing
