// fio's sync_file_range=FLAGS:N next to fio 3.33 on the same jobs: a sync_file_range every N writes (both
// tools' io logs and JSON sync latencies count them; sluice also issues the one due after the last write, as
// it does for fsync=N), each over the range written since the file's last sync (checked in sluice's own io
// log, which carries the range), on every engine that flushes, and sluice replays such a log. Skips without fio.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

// The "sync_file_range" lines of a version 3 io log, with the ios before each.
struct RangeLogLine {
  std::string action;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

std::vector<RangeLogLine> range_log_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<RangeLogLine> lines;
  std::string text;
  while (std::getline(in, text)) {
    std::istringstream fields(text);
    std::string time, file;
    RangeLogLine line;
    if (fields >> time >> file >> line.action >> line.offset >> line.length) lines.push_back(line);
  }
  return lines;
}

int count_range_action(const std::vector<RangeLogLine>& lines, const std::string& action) {
  int n = 0;
  for (const RangeLogLine& l : lines) n += l.action == action ? 1 : 0;
  return n;
}

std::vector<std::string> range_job_args(const std::string& file, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"--name=sfr", "--filename=" + file, "--size=1m", "--bs=4k", "--output-format=json"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(SyncFileRange, EveryNWritesAsFio) {
  SLUICE_REQUIRE(kFio);
  TempDir tmp;
  for (const std::string program : {"fio", "sluice"}) {
    const std::string log = tmp.file(program + ".iolog");
    const RunOutput r = run_as(
        program, range_job_args(tmp.file(program), {"--rw=randwrite", "--write_iolog=" + log,
                                                    "--sync_file_range=wait_before,write:8", "--verify_state_save=0"}));
    const std::vector<RangeLogLine> lines = range_log_lines(log);
    EXPECT_EQ(count_range_action(lines, "write"), 256) << program;
    // 256 writes, one every 8: fio 31 (none after the last write), sluice 32.
    const int syncs = count_range_action(lines, "sync_file_range");
    EXPECT_EQ(syncs, program == "fio" ? 31 : 32) << program;
    const auto doc = parse_document(r.out);
    ASSERT_TRUE(doc) << program;
    EXPECT_EQ((*doc)["jobs"][0]["sync"]["lat_ns"]["N"].get<int>(), syncs) << program;
  }
}

// Each range covers the writes completed since the file's last sync: [lowest offset, highest end).
TEST(SyncFileRange, RangeIsWhatWasWrittenSinceTheLastSync) {
  TempDir tmp;
  const std::string log = tmp.file("log");
  run_as("sluice",
         range_job_args(tmp.file("f"), {"--rw=randwrite", "--write_iolog=" + log, "--sync_file_range=write:4"}));
  std::uint64_t low = UINT64_MAX, high = 0;
  int checked = 0;
  for (const RangeLogLine& line : range_log_lines(log)) {
    if (line.action == "write") {
      low = std::min(low, line.offset);
      high = std::max(high, line.offset + line.length);
    } else if (line.action == "sync_file_range") {
      EXPECT_EQ(line.offset, low);
      EXPECT_EQ(line.length, high - low);
      low = UINT64_MAX;
      high = 0;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 64);
}

TEST(SyncFileRange, EveryFlushingEngineIssuesThem) {
  TempDir tmp;
  for (const std::string engine : {"psync", "sync", "libaio", "io_uring", "posixaio", "mmap"}) {
    if (engine == "io_uring" && !have(Feature::kIoUringOps)) {
      std::cout << "io_uring left out: " << probe(Feature::kIoUringOps).reason << "\n";
      continue;
    }
    const RunOutput r =
        run_as("sluice", range_job_args(tmp.file(engine), {"--rw=randwrite", "--ioengine=" + engine, "--iodepth=4",
                                                           "--sync_file_range=write:16"}));
    const auto doc = parse_document(r.out);
    ASSERT_TRUE(doc) << engine;
    EXPECT_EQ((*doc)["jobs"][0]["sync"]["total_ios"].get<int>(), 16) << engine;
    EXPECT_EQ((*doc)["jobs"][0]["error"].get<int>(), 0) << engine;
  }
}

TEST(SyncFileRange, ALogWithThemReplays) {
  TempDir tmp;
  const std::string log = tmp.file("log");
  run_as("sluice", range_job_args(tmp.file("f"), {"--rw=write", "--write_iolog=" + log, "--sync_file_range=write:8"}));
  const RunOutput r =
      run_as("sluice", {"--name=replay", "--filename=" + tmp.file("f"), "--read_iolog=" + log, "--output-format=json"});
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["jobs"][0]["write"]["total_ios"].get<int>(), 256);
  EXPECT_EQ((*doc)["jobs"][0]["sync"]["total_ios"].get<int>(), 32);
}

TEST(SyncFileRange, BadValuesAreRefused) {
  TempDir tmp;
  for (const auto& [value, message] : std::vector<std::pair<std::string, std::string>>{
           {"wait_befor", "did you mean 'wait_before'"},
           {"write:0", "the count after ':' is a number of writes, at least 1"},
           {":8", "give wait_before, write and/or wait_after"}}) {
    const RunOutput r = run_binary(
        {"run", "--name=x", "--filename=" + tmp.file("f"), "--size=64k", "--rw=write", "--sync_file_range=" + value});
    EXPECT_EQ(r.exit_code, 1) << value;
    EXPECT_NE(r.err.find("--sync_file_range=" + value), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << value << ": " << r.err;
  }
}

}  // namespace
}  // namespace sluice::testing
