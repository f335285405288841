// fio options end to end through build/sluice: exitall_on_error, buffer_pattern on disk, and backwards
// sequential reads (rw=read:-8k, fio's backwards-read example).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

using json = nlohmann::json;

// DISABLED: fails today (the other job runs its full 15 s); the worker's request_stop() after a failed job does
// not reach the group's other worker. To be fixed before exitall_on_error is advertised.
TEST(FioOptionsEndToEnd, ExitallOnErrorStopsTheOtherJobsOfTheGroup) {
  // "fails" cannot reach its rate_min, so it fails by its end (2 s); "long" alone would run 15 s.
  const RunOutput r =
      run_binary({"run", "--output-format=json", "--name=fails", "--ioengine=null", "--size=1g", "--rw=read",
                  "--rate=1m", "--rate_min=1g", "--time_based", "--runtime=2s", "--exitall_on_error", "--name=long",
                  "--ioengine=null", "--size=1g", "--rw=read", "--time_based", "--runtime=15s"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_LT(r.elapsed, std::chrono::seconds(8)) << describe(r);
}

TEST(FioOptionsEndToEnd, BufferPatternIsWhatLandsOnDisk) {
  TempDir dir;
  const std::string file = dir.file("pattern.dat");
  const RunOutput r =
      run_binary({"run", "--name=p", "--filename=" + file, "--size=64k", "--rw=write", "--buffer_pattern=0xdeadbeef"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  std::ifstream in(file, std::ios::binary);
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_EQ(data.size(), 65536u);
  for (std::size_t i = 0; i < data.size(); i += 4) ASSERT_EQ(data.substr(i, 4), "\xde\xad\xbe\xef") << "at " << i;
}

// fio 3.33 on the same command lines: the stats=0 job is not in "jobs" (nor in the terse lines), and with
// disk_util=0 in every job there is no "disk_util" key.
TEST(FioOptionsEndToEnd, StatsZeroLeavesTheJobOutAndDiskUtilZeroTheDisks) {
  const RunOutput r = run_binary({"run", "--output-format=json", "--name=a", "--ioengine=null", "--size=1m", "--name=b",
                                  "--ioengine=null", "--size=2m", "--stats=0"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  ASSERT_EQ((*doc)["jobs"].size(), 1u);
  EXPECT_EQ((*doc)["jobs"][0]["jobname"], "a");
  const RunOutput terse = run_binary({"run", "--minimal", "--name=a", "--ioengine=null", "--size=1m", "--name=b",
                                      "--ioengine=null", "--size=2m", "--stats=0"});
  EXPECT_EQ(std::count(terse.out.begin(), terse.out.end(), '\n'), 1) << describe(terse);

  TempDir dir;
  for (const bool on : {true, false}) {
    const RunOutput d = run_binary({"run", "--output-format=json", "--name=d", "--filename=" + dir.file("d.dat"),
                                    "--size=1m", std::string("--disk_util=") + (on ? "1" : "0")});
    ASSERT_EQ(d.exit_code, 0) << describe(d);
    const auto ddoc = parse_document(d.out);
    ASSERT_TRUE(ddoc);
    EXPECT_EQ(ddoc->contains("disk_util"), on) << "disk_util=" << on;
  }
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The distinct 4 KiB blocks of `data`.
std::size_t distinct_blocks(const std::string& data) {
  std::vector<std::string> blocks;
  for (std::size_t at = 0; at + 4096 <= data.size(); at += 4096) blocks.push_back(data.substr(at, 4096));
  std::sort(blocks.begin(), blocks.end());
  return static_cast<std::size_t>(std::unique(blocks.begin(), blocks.end()) - blocks.begin());
}

// fio's default scramble_buffers=1 changes each rewrite of the one buffer a depth-1 job has; 0 writes the
// very same block again and again (what deduplicating storage collapses).
TEST(FioOptionsEndToEnd, ScrambleBuffersZeroWritesTheSameBlockAgain) {
  TempDir dir;
  for (const bool scramble : {true, false}) {
    const std::string file = dir.file(scramble ? "s1.dat" : "s0.dat");
    const RunOutput r = run_binary({"run", "--name=s", "--filename=" + file, "--size=64k", "--rw=write",
                                    "--ioengine=psync", std::string("--scramble_buffers=") + (scramble ? "1" : "0")});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_EQ(distinct_blocks(file_bytes(file)), scramble ? 16u : 1u);
  }
}

// file_append: the region starts at the file's end, and a write job is not laid out first: its writes extend
// the file, the old bytes stay.
TEST(FioOptionsEndToEnd, FileAppendWritesAfterTheEndOfTheFile) {
  TempDir dir;
  const std::string file = dir.file("a.dat");
  std::ofstream(file, std::ios::binary) << std::string(65536, 'o');
  const RunOutput r = run_binary(
      {"run", "--output-format=json", "--name=a", "--filename=" + file, "--size=32k", "--rw=write", "--file_append=1"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::string data = file_bytes(file);
  ASSERT_EQ(data.size(), 65536u + 32768u);
  EXPECT_EQ(data.substr(0, 65536), std::string(65536, 'o'));
  EXPECT_EQ(data.substr(65536).find_first_not_of('o'), 0u) << "the appended part is the job's writes";
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["jobs"][0]["write"]["io_bytes"], 32768);
  // Without a size fio 3.33 appends nothing (its size is the file's, all before the end): said, not done.
  const RunOutput no_size = run_binary({"run", "--name=a", "--filename=" + file, "--rw=write", "--file_append=1"});
  EXPECT_EQ(no_size.exit_code, 1) << describe(no_size);
  EXPECT_NE(no_size.err.find("file_append=1 on " + file + " without a size"), std::string::npos) << no_size.err;
}

// A percentage offset is aligned up to the smallest block size (fio's get_start_offset), or to offset_align.
TEST(FioOptionsEndToEnd, APercentageOffsetIsAlignedUp) {
  TempDir dir;
  const std::string file = dir.file("o.dat");
  std::ofstream(file, std::ios::binary) << std::string(1000 * 1024, 'x');  // 33% of it: 337920 + 1024 * 0.96
  for (const auto& [align, expected] : std::vector<std::pair<std::string, std::uint64_t>>{
           {"", 339968}, {"--offset_align=64k", 393216}, {"--offset_align=512", 337920}}) {
    std::vector<std::string> args = {
        "run",           "--name=o",     "--filename=" + file, "--rw=read",
        "--bs=4k",       "--offset=33%", "--number_ios=1",     "--write_lat_log=" + dir.file("lat"),
        "--log_offset=1"};
    if (!align.empty()) args.push_back(align);
    const RunOutput r = run_binary(args);
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    const std::string log = file_bytes(dir.file("lat_clat.1.log"));
    // fio's per-io line with log_offset: time, value, ddir, bs, offset, priority
    EXPECT_NE(log.find(", 4096, " + std::to_string(expected) + ", "), std::string::npos) << align << ": " << log;
  }
}

// lockmem pins memory while the job runs; more than the machine has fails the job with the reason.
TEST(FioOptionsEndToEnd, LockmemPinsOrSaysWhyNot) {
  const RunOutput ok = run_binary({"run", "--name=l", "--ioengine=null", "--size=1m", "--lockmem=4m"});
  EXPECT_EQ(ok.exit_code, 0) << describe(ok);
  const RunOutput too_much = run_binary({"run", "--name=l", "--ioengine=null", "--size=1m", "--lockmem=64t"});
  EXPECT_EQ(too_much.exit_code, 1) << describe(too_much);
  EXPECT_NE(too_much.err.find("lockmem=70368744177664: cannot pin"), std::string::npos) << too_much.err;
}

TEST(FioOptionsEndToEnd, BackwardsReadDoesSizeBytes) {
  TempDir dir;
  const RunOutput r = run_binary({"run", "--output-format=json", "--name=b", "--filename=" + dir.file("b.dat"),
                                  "--size=1m", "--bs=4k", "--rw=read:-8k"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ(total_ios((*doc)["jobs"][0], "read"), 256u);
}

// A hole after each io: past the file's end fio goes over it again, so size bytes still move.
TEST(FioOptionsEndToEnd, HoleModifierMovesSizeBytesAsFio) {
  SLUICE_REQUIRE(kFio);
  TempDir dir;
  std::vector<std::vector<std::string>> offsets;
  for (const std::string program : {"fio", "sluice"}) {
    const std::string log = dir.file(program + ".iolog");
    std::vector<std::string> args = {"--name=h",
                                     "--filename=" + dir.file(program),
                                     "--size=1m",
                                     "--bs=4k",
                                     "--rw=write:12k",
                                     "--write_iolog=" + log,
                                     "--output-format=json"};
    RunOptions options;
    if (program == "fio")
      options.program = "fio";
    else
      args.insert(args.begin(), "run");
    const RunOutput r = run_binary(args, options);
    ASSERT_EQ(r.exit_code, 0) << program << ": " << describe(r);
    std::ifstream in(log);
    std::string time, file, action, offset;
    offsets.emplace_back();
    while (in >> time >> file >> action) {
      if (action == "write" && in >> offset) offsets.back().push_back(offset);
      std::getline(in, time);
    }
  }
  ASSERT_EQ(offsets[1].size(), 256u);  // 64 writes per lap of the 1 MiB file, four laps
  EXPECT_EQ(offsets[1], offsets[0]);
}

TEST(FioOptionsEndToEnd, FilesizeAloneGivesTheSizeOnTheNullEngine) {
  // fio 3.33 does 16 MiB here: nrfiles x filesize.
  const RunOutput r = run_binary({"run", "--output-format=json", "--name=n", "--ioengine=null", "--rw=read", "--bs=4k",
                                  "--nrfiles=2", "--filesize=8m"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["jobs"][0]["read"]["io_bytes"].get<std::uint64_t>(), 16u << 20);
}

TEST(FioOptionsEndToEnd, ZonedAbsBeyondTheFileIsRefusedBeforeTheRun) {
  const RunOutput r = run_binary(
      {"run", "--name=z", "--ioengine=null", "--rw=randread", "--size=10m", "--random_distribution=zoned_abs:100/20m"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("job z: random_distribution=zoned_abs: the zones end at 20971520 bytes, beyond the "
                       "10485760 bytes"),
            std::string::npos)
      << describe(r);
}

TEST(FioOptionsEndToEnd, TrimwriteTrimsThenWritesEveryBlock) {
  for (const std::string mode : {"trimwrite", "randtrimwrite"}) {
    TempDir dir;
    const std::string file = dir.file("tw.dat");
    const RunOutput r = run_binary({"run", "--output-format=json", "--name=tw", "--filename=" + file, "--size=1m",
                                    "--bs=64k", "--rw=" + mode, "--iodepth=4", "--ioengine=io_uring"});
    ASSERT_EQ(r.exit_code, 0) << mode << ": " << describe(r);
    const auto doc = parse_document(r.out);
    ASSERT_TRUE(doc);
    const auto& job = (*doc)["jobs"][0];
    // As fio: every byte trimmed once and written once (fio doubles the job's byte total for these modes).
    EXPECT_EQ(job["trim"]["io_bytes"].get<std::uint64_t>(), 1u << 20) << mode;
    EXPECT_EQ(job["write"]["io_bytes"].get<std::uint64_t>(), 1u << 20) << mode;
    EXPECT_EQ(job["read"]["io_bytes"].get<std::uint64_t>(), 0u) << mode;
    // Each write followed its block's trim: the file holds written data, no hole of zeros is left.
    std::ifstream in(file, std::ios::binary);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_EQ(data.size(), 1u << 20) << mode;
    for (std::size_t block = 0; block < 16; ++block) {
      EXPECT_NE(data.substr(block * 65536, 65536), std::string(65536, '\0')) << mode << " block " << block;
    }
  }
}

}  // namespace
}  // namespace sluice::testing
