// unlink_each_loop next to fio 3.33: before each loop after the first the job's files are deleted and
// created again empty (no layout). The system calls show it (strace: for loops=3 both tools unlink the file
// twice and leave the last loop's file); with io_size=512k of a 1 MiB file, what is left at the end is the
// last loop's half (the laid-out file would stay whole). Skips the comparison without fio or strace.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

std::vector<std::string> loop_job(const std::string& file, std::vector<std::string> extra) {
  std::vector<std::string> args = {"--name=loops", "--filename=" + file,   "--size=1m",           "--bs=4k",
                                   "--loops=3",    "--unlink_each_loop=1", "--output-format=json"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

struct FileShape {
  std::uint64_t size = 0;
  std::uint64_t allocated = 0;
};

FileShape shape_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return {static_cast<std::uint64_t>(st.st_size), static_cast<std::uint64_t>(st.st_blocks) * 512};
}

std::int64_t write_ios(const RunOutput& r) {
  const auto doc = parse_document(r.out);
  return doc ? (*doc)["jobs"][0]["write"]["total_ios"].get<std::int64_t>() : -1;
}

// The unlink calls on `path` in an strace -f output file.
int unlinks_of(const std::string& trace, const std::string& path) {
  std::ifstream in(trace);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (line.find("unlink") != std::string::npos && line.find('"' + path + '"') != std::string::npos &&
        line.find("= 0") != std::string::npos) {
      ++n;
    }
  }
  return n;
}

TEST(UnlinkEachLoop, DeletedBeforeEachLaterLoopAsFio) {
  if (!::sluice::testing::have(::sluice::testing::Feature::kFio) || !have_program("strace"))
    GTEST_SKIP() << "needs fio and strace";
  TempDir tmp;
  for (const std::string program : {"fio", "sluice"}) {
    const std::string file = tmp.file(program);
    const std::string trace = tmp.file(program + ".strace");
    const RunOutput r = run_traced(program, loop_job(file, {"--rw=randwrite"}), "unlink,unlinkat", trace).run;
    ASSERT_EQ(r.exit_code, 0) << program << ": " << describe(r);
    EXPECT_EQ(write_ios(r), 3 * 256) << program;
    EXPECT_EQ(unlinks_of(trace, file), 2) << program;
    EXPECT_EQ(shape_of(file).size, 1024u * 1024) << program;  // the last loop wrote every block
  }
}

TEST(UnlinkEachLoop, OnlyTheLastLoopsBlocksAreLeft) {
  TempDir tmp;
  for (const bool unlink : {false, true}) {
    const std::string file = tmp.file(unlink ? "unlinked" : "kept");
    std::vector<std::string> args = loop_job(file, {"--rw=write", "--io_size=512k"});
    if (!unlink) args.erase(std::find(args.begin(), args.end(), "--unlink_each_loop=1"));
    const RunOutput r = run_as("sluice", args);
    EXPECT_EQ(write_ios(r), 3 * 128);
    // Loops of 512 KiB go on where the last ended (0, 512k, 0): the third loop's file is its first half.
    EXPECT_EQ(shape_of(file).size, unlink ? 512u * 1024 : 1024u * 1024) << unlink;
    EXPECT_NEAR(static_cast<double>(shape_of(file).allocated), unlink ? 512.0 * 1024 : 1024.0 * 1024, 16 * 1024);
  }
}

// io_uring holds the files it registered: it must be opened again on the new files, or the last loops would
// write into the deleted one and leave the new file empty.
TEST(UnlinkEachLoop, EveryEngineWritesIntoTheNewFiles) {
  for (const char* engine : {"psync", "sync", "libaio", "io_uring", "posixaio"}) {
    SCOPED_TRACE(engine);
    TempDir tmp;
    const std::string file = tmp.file("f");
    const RunOutput r =
        run_as("sluice",
               loop_job(file, {"--rw=randwrite", "--ioengine=" + std::string(engine), "--iodepth=4", "--nrfiles=1"}));
    EXPECT_EQ(write_ios(r), 3 * 256);
    EXPECT_EQ(shape_of(file).size, 1024u * 1024);
    EXPECT_NEAR(static_cast<double>(shape_of(file).allocated), 1024.0 * 1024, 16 * 1024);
  }
}

TEST(UnlinkEachLoop, VerifiesTheLastLoop) {
  TempDir tmp;
  const RunOutput r =
      run_as("sluice", loop_job(tmp.file("f"), {"--rw=randwrite", "--verify=crc32c", "--verify_state_save=0"}));
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["jobs"][0]["read"]["total_ios"].get<int>(), 256);  // one loop's blocks, all intact
  EXPECT_EQ((*doc)["jobs"][0]["error"].get<int>(), 0);
}

TEST(UnlinkEachLoop, RefusedWhereItWouldLoseOrReadNothing) {
  TempDir tmp;
  const auto refused = expect_run_refused;
  refused(loop_job(tmp.file("a"), {"--rw=randrw"}), "would read empty files");
  refused(loop_job(tmp.file("b"), {"--rw=write", "--ioengine=mmap"}), "not mmap");
  const std::string existing = tmp.file("existing");
  std::ofstream(existing) << std::string(1 << 20, 'x');
  refused(loop_job(existing, {"--rw=write"}), "which existed before this run");
  EXPECT_EQ(shape_of(existing).size, 1u << 20);  // untouched
}

}  // namespace
}  // namespace sluice::testing
