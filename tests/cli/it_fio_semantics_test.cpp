// Local job semantics where sluice once differed from fio 3.33 (issue 37): the same job file through the
// `fio` link and, where installed, through fio 3.33 itself. Each test checks sluice against the number fio's
// rule gives (so it runs without fio too) and, when /usr/bin/fio exists, that fio gives the same.
//  - rw=read:512k with bs=1m: the hole after each io ends the pass where the next io no longer fits
//    (io_u.c get_next_seq_offset), or wraps to the start when the hole reaches the file's end exactly.
//  - random_generator=lfsr: every block once per pass, norandommap or not (lib/lfsr.c).
//  - a second job at offset=64m of a file the first writes from 0: the file is laid out to cover it
//    (filesetup.c extends to offset + size).
//  - blocksize=512 with verify_interval=1M, and the reverse: fio shrinks the interval and runs (init.c).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using json = nlohmann::json;

bool fio_installed() { return std::filesystem::exists("/usr/bin/fio"); }
std::string fio_link_path() { return std::filesystem::path(SLUICE_BINARY).parent_path().string() + "/fio"; }

// Runs `job_file` with JSON output through `program`; the document, or null after recording a failure.
json run_json(const std::string& program, const std::string& job_file) {
  RunOptions options;
  options.program = program;
  const RunOutput r = run_binary({"--output-format=json", job_file}, options);
  EXPECT_EQ(r.exit_code, 0) << program << ": " << describe(r);
  if (r.exit_code != 0) return nullptr;
  const std::size_t start = r.out.find("{\n");  // fio may print notes before the document
  const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
  EXPECT_TRUE(doc) << program << ": " << r.out;
  return doc ? *doc : json(nullptr);
}

std::uint64_t kbytes(const json& job, const char* direction) {
  return job[direction]["io_kbytes"].get<std::uint64_t>();
}

std::string write_job(TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.file(name);
  std::ofstream(path) << text;
  return path;
}

// The distinct offsets of the reads in a fio-format io log ("NAME read OFFSET LENGTH" lines, with or without
// a leading timestamp).
std::set<std::uint64_t> read_offsets_in_log(const std::string& path) {
  std::set<std::uint64_t> offsets;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    for (std::size_t i = 0; i + 1 < w.size(); ++i) {
      if (w[i] == "read") offsets.insert(std::stoull(w[i + 1]));
    }
  }
  return offsets;
}

struct HoleCase {
  std::string size;
  std::string hole;
  std::uint64_t ios;  // by fio's rule
};

TEST(FioSemantics, HoleAfterEachSequentialReadAsFio) {
  TempDir dir;
  // 128m: ios at 0, 1.5m, ... 126m; the hole then leads to 127.5m, where 1m no longer fits: 85 ios.
  // 16m: ios at 0 ... 15m; the last ends at the file's end, which ends the pass (no wrap): 11 ios.
  // 16m with read:1m: ios at 0, 2m ... 14m; the hole reaches the file's end exactly, so the walk wraps
  // and size bytes are read: 16 ios.
  for (const HoleCase& c : {HoleCase{"128m", "512k", 85}, HoleCase{"16m", "512k", 11}, HoleCase{"16m", "1m", 16}}) {
    const std::string job =
        write_job(dir, "hole-" + c.size + "-" + c.hole + ".fio",
                  "[hole]\nioengine=null\nrw=read:" + c.hole + "\nbs=1m\nnorandommap\nsize=" + c.size + "\n");
    const json mine = run_json(fio_link_path(), job);
    ASSERT_FALSE(mine.is_null());
    EXPECT_EQ(total_ios(mine["jobs"][0], "read"), c.ios) << "size=" << c.size << " hole=" << c.hole;
    EXPECT_EQ(kbytes(mine["jobs"][0], "read"), c.ios * 1024) << "size=" << c.size << " hole=" << c.hole;
    if (!fio_installed()) continue;
    const json theirs = run_json("/usr/bin/fio", job);
    ASSERT_FALSE(theirs.is_null());
    EXPECT_EQ(kbytes(theirs["jobs"][0], "read"), kbytes(mine["jobs"][0], "read"))
        << "size=" << c.size << " hole=" << c.hole;
  }
  if (!fio_installed()) GTEST_SKIP() << "fio is not installed: sluice was checked against fio's rule only";
}

TEST(FioSemantics, LfsrTouchesEveryBlockOnceAsFio) {
  TempDir dir;
  auto job = [&](const std::string& tool) {
    return write_job(dir, tool + ".fio",
                     "[lfsr]\nioengine=null\nfilesize=1M\nrw=randread\nnorandommap=1\nrandom_generator=lfsr\n"
                     "write_iolog=" +
                         dir.file(tool + ".log") + "\n");
  };
  const json mine = run_json(fio_link_path(), job("sluice"));
  ASSERT_FALSE(mine.is_null());
  EXPECT_EQ(total_ios(mine["jobs"][0], "read"), 256u);
  EXPECT_EQ(read_offsets_in_log(dir.file("sluice.log")).size(), 256u);
  if (!fio_installed()) GTEST_SKIP() << "fio is not installed: sluice was checked against fio's rule only";
  const json theirs = run_json("/usr/bin/fio", job("fio"));
  ASSERT_FALSE(theirs.is_null());
  EXPECT_EQ(total_ios(theirs["jobs"][0], "read"), 256u);
  EXPECT_EQ(read_offsets_in_log(dir.file("fio.log")).size(), 256u);
}

TEST(FioSemantics, SharedFileIsLaidOutToCoverTheSecondJobsRegion) {
  TempDir dir;
  auto job = [&](const std::string& tool) {
    return write_job(dir, tool + ".fio",
                     "[global]\nfilename=" + dir.file(tool + ".dat") +
                         "\nbs=64k\n"
                         "[first]\nrw=write\nsize=16m\n"
                         "[second]\noffset=64m\nsize=16m\nrw=rw\n");
  };
  const json mine = run_json(fio_link_path(), job("sluice"));
  ASSERT_FALSE(mine.is_null());
  ASSERT_EQ(mine["jobs"].size(), 2u);
  EXPECT_EQ(mine["jobs"][1]["error"], 0);
  EXPECT_EQ(kbytes(mine["jobs"][1], "read") + kbytes(mine["jobs"][1], "write"), 16384u);
  EXPECT_EQ(std::filesystem::file_size(dir.file("sluice.dat")), 80u << 20);
  if (!fio_installed()) GTEST_SKIP() << "fio is not installed: sluice was checked against fio's rule only";
  const json theirs = run_json("/usr/bin/fio", job("fio"));
  ASSERT_FALSE(theirs.is_null());
  EXPECT_EQ(kbytes(theirs["jobs"][1], "read") + kbytes(theirs["jobs"][1], "write"), 16384u);
  EXPECT_EQ(std::filesystem::file_size(dir.file("fio.dat")), 80u << 20);
}

TEST(FioSemantics, VerifyIntervalLargerOrSmallerThanTheBlockSizeRunsAsFio) {
  TempDir dir;
  auto job = [&](const std::string& tool) {
    return write_job(dir, tool + ".fio",
                     "[global]\nfilename=" + dir.file(tool + ".dat") +
                         "\nsize=4m\nverify=md5\ndo_verify=0\nverify_state_save=0\nrw=write\n"
                         "[small]\nblocksize=512\nverify_interval=1M\n"
                         "[big]\nstonewall\nblocksize=1M\nverify_interval=512\n");
  };
  const json mine = run_json(fio_link_path(), job("sluice"));
  ASSERT_FALSE(mine.is_null());
  ASSERT_EQ(mine["jobs"].size(), 2u);
  EXPECT_EQ(total_ios(mine["jobs"][0], "write"), 8192u);
  EXPECT_EQ(total_ios(mine["jobs"][1], "write"), 4u);
  if (!fio_installed()) GTEST_SKIP() << "fio is not installed: sluice was checked against fio's rule only";
  const json theirs = run_json("/usr/bin/fio", job("fio"));
  ASSERT_FALSE(theirs.is_null());
  EXPECT_EQ(total_ios(theirs["jobs"][0], "write"), 8192u);
  EXPECT_EQ(total_ios(theirs["jobs"][1], "write"), 4u);
}

}  // namespace
}  // namespace sluice::testing
