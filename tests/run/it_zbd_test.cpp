// zonemode=zbd next to fio 3.33 on regular files (fio's emulated zones: no zoned hardware needed): the same
// jobs through both tools, compared by their io logs (write_iolog) and their reports. Where the random
// generators differ, each tool's log is checked against the zone rules themselves (every write at its zone's
// write pointer, a reset only of a full zone, never more zones partly written than max_open_zones). The
// comparisons skip without fio.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

constexpr std::uint64_t kZone = 1 << 20;

// The "; N zone resets" of the normal output's first write line; -1 when there is none.
long zone_resets_in(const std::string& text) {
  std::smatch m;
  static const std::regex kResets(R"(write: IOPS=[^\n]*; (\d+) zone resets)");
  return std::regex_search(text, m, kResets) ? std::stol(m[1]) : -1;
}

// Replays a log of writes through the zone rules: each write starts at its zone's write pointer, or at the
// zone's start when the zone was full (a reset, counted). Returns the resets; the most zones partly written
// at once goes to `most_open`.
long replay_writes(const std::vector<LoggedIo>& ios, std::size_t& most_open) {
  std::map<std::uint64_t, std::uint64_t> wp;  // zone -> bytes written in it
  long resets = 0;
  most_open = 0;
  for (const LoggedIo& io : ios) {
    if (io.action != "write") continue;
    const std::uint64_t zone = io.offset / kZone;
    std::uint64_t& written = wp[zone];
    if (io.offset != zone * kZone + written) {
      EXPECT_EQ(io.offset, zone * kZone) << io << ": neither at the write pointer nor a reset zone's start";
      EXPECT_EQ(written, kZone) << io << ": a zone reset before it was full";
      written = 0;
      ++resets;
    }
    written += io.length;
    EXPECT_LE(written, kZone) << io;
    std::size_t open = 0;
    for (const auto& [z, bytes] : wp) open += bytes > 0 && bytes < kZone ? 1 : 0;
    most_open = std::max(most_open, open);
  }
  return resets;
}

class Zbd : public ::testing::Test {
 protected:
  void SetUp() override { SLUICE_REQUIRE(kFio); }
  // A 16 MiB file laid out by `program`, for the zoned jobs that follow.
  std::string laid_out(const std::string& program) {
    const std::string path = tmp_.file(program + ".zoned");
    run_as(program, {"--name=lay", "--filename=" + path, "--size=16m", "--rw=write", "--bs=1m"});
    return path;
  }
  // Runs a zoned job (normal output) with an io log; the log's ios.
  std::vector<LoggedIo> run_logged(const std::string& program, const std::string& path, std::vector<std::string> extra,
                                   RunOutput* output = nullptr) {
    const std::string log = tmp_.file(program + "." + std::to_string(++logs_) + ".iolog");
    std::vector<std::string> args = {"--name=z",      "--filename=" + path, "--zonemode=zbd",
                                     "--zonesize=1m", "--bs=64k",           "--write_iolog=" + log};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunOutput r = run_as(program, args);
    if (output != nullptr) *output = r;
    return logged_ios(log);
  }
  // Runs a job file; the JSON document.
  nlohmann::json run_job_file(const std::string& program, const std::string& text) {
    const std::string path = tmp_.file(program + ".fio");
    std::ofstream(path) << text;
    const RunOutput r = run_as(program, {path, "--output-format=json"});
    const auto doc = parse_document(r.out);
    return doc ? *doc : nlohmann::json();
  }
  TempDir tmp_;
  int logs_ = 0;
};

TEST_F(Zbd, SequentialWritesGoZoneByZoneAsFio) {
  std::vector<LoggedIo> logs[2];
  int i = 0;
  for (const std::string program : {"fio", "sluice"}) {
    const std::string path = laid_out(program);
    logs[i] = run_logged(program, path, {"--rw=write", "--size=8m"});
    ASSERT_EQ(logs[i].size(), 128u) << program;
    for (std::size_t n = 0; n < logs[i].size(); ++n) EXPECT_EQ(logs[i][n].offset, n * 65536) << program;
    ++i;
  }
}

// fio 3.33 measured here: randseed=1 and max_open_zones=4 gave 128 writes and 2 resets; without the limit 16
// writes in each of the 8 zones of size=8m and none. sluice's random offsets are its own, so its count of
// resets is its own too; both logs obey the rules, and each tool's report counts what its log shows.
TEST_F(Zbd, RandomWritesKeepToTheOpenZoneLimitAsFio) {
  for (const std::string program : {"fio", "sluice"}) {
    const std::string path = laid_out(program);
    RunOutput out;
    std::vector<LoggedIo> ios =
        run_logged(program, path, {"--rw=randwrite", "--size=8m", "--max_open_zones=4", "--randseed=1"}, &out);
    ASSERT_EQ(ios.size(), 128u) << program;
    std::size_t most_open = 0;
    const long resets = replay_writes(ios, most_open);
    EXPECT_LE(most_open, 4u) << program;
    EXPECT_EQ(zone_resets_in(out.out), resets) << program << ": " << out.out;

    ios = run_logged(program, path, {"--rw=randwrite", "--size=8m", "--randseed=1"}, &out);
    std::map<std::uint64_t, int> per_zone;
    for (const LoggedIo& io : ios) ++per_zone[io.offset / kZone];
    EXPECT_EQ(per_zone.size(), 8u) << program;
    for (const auto& [zone, writes] : per_zone) EXPECT_EQ(writes, 16) << program << " zone " << zone;
    EXPECT_EQ(replay_writes(ios, most_open), 0) << program;
    EXPECT_EQ(zone_resets_in(out.out), 0) << program;
  }
}

// Reads stay in what the run wrote: after 3 MiB written, a sequential read of the whole file reads 3 MiB and
// ends; random reads are moved into those 3 MiB. The write pointers are the run's: a read-only run of its
// own finds every zone empty and reads nothing, without an error.
TEST_F(Zbd, ReadsStayBelowTheWritePointersAsFio) {
  for (const std::string program : {"fio", "sluice"}) {
    const std::string path = laid_out(program);
    const std::string head = "[global]\nfilename=" + path + "\nzonemode=zbd\nzonesize=1m\nbs=64k\n";
    nlohmann::json doc = run_job_file(
        program, head +
                     "[w]\nrw=write\nsize=3m\n[r]\nstonewall\nrw=read\nsize=16m\n[rr]\nstonewall\nrw=randread\n"
                     "size=16m\nwrite_iolog=" +
                     tmp_.file(program + ".rr.iolog") + "\n");
    ASSERT_EQ(doc["jobs"].size(), 3u) << program;
    EXPECT_EQ(doc["jobs"][1]["read"]["io_bytes"].get<std::uint64_t>(), 3 * kZone) << program;
    EXPECT_EQ(doc["jobs"][1]["error"].get<int>(), 0) << program;
    EXPECT_EQ(total_ios(doc["jobs"][2], "read"), 256u) << program;
    for (const LoggedIo& io : logged_ios(tmp_.file(program + ".rr.iolog"))) {
      EXPECT_LE(io.offset + io.length, 3 * kZone) << program << ": " << io;
    }
    doc = run_job_file(program, head + "[r]\nrw=read\nsize=16m\n");
    EXPECT_EQ(doc["jobs"][0]["read"]["io_bytes"].get<std::uint64_t>(), 0u) << program;
    EXPECT_EQ(doc["jobs"][0]["error"].get<int>(), 0) << program;
  }
}

// zonecapacity: a sequential writer writes each zone's capacity and goes on at the next zone's start.
TEST_F(Zbd, SequentialWritesStopAtTheZoneCapacityAsFio) {
  std::vector<LoggedIo> logs[2];
  int i = 0;
  for (const std::string program : {"fio", "sluice"}) {
    const std::string path = laid_out(program);
    logs[i] = run_logged(program, path, {"--rw=write", "--size=4m", "--zonecapacity=768k"});
    ASSERT_EQ(logs[i].size(), 48u) << program;  // 12 writes of the 768 KiB capacity in each of 4 zones
    for (const LoggedIo& io : logs[i]) EXPECT_LT(io.offset % kZone, 768u * 1024) << program << ": " << io;
    ++i;
  }
  for (std::size_t n = 0; n < 48; ++n) {
    EXPECT_EQ(logs[0][n].offset, logs[1][n].offset) << n;
    EXPECT_EQ(logs[0][n].length, logs[1][n].length) << n;
  }
}

// A trim resets its zone and reaches no file: what was written there is gone for the reads after it.
TEST_F(Zbd, TrimsResetZonesAsFio) {
  for (const std::string program : {"fio", "sluice"}) {
    const std::string path = laid_out(program);
    const nlohmann::json doc =
        run_job_file(program, "[global]\nfilename=" + path +
                                  "\nzonemode=zbd\nzonesize=1m\n[w]\nrw=write\nbs=64k\nsize=4m\n[t]\nstonewall\n"
                                  "rw=trim\nbs=1m\nsize=2m\n[r]\nstonewall\nrw=read\nbs=64k\nsize=4m\n");
    ASSERT_EQ(doc["jobs"].size(), 3u) << program;
    EXPECT_EQ(total_ios(doc["jobs"][1], "trim"), 2u) << program;
    EXPECT_EQ(doc["jobs"][2]["read"]["io_bytes"].get<std::uint64_t>(), 2 * kZone) << program;
  }
  // sluice reports the resets (fio 3.36+ as well; 3.33 has no such JSON key).
  const std::string path = tmp_.file("sluice.zoned");
  const RunOutput r =
      run_as("sluice", {"--name=t", "--filename=" + path, "--zonemode=zbd", "--zonesize=1m", "--rw=randwrite",
                        "--bs=64k", "--size=2m", "--number_ios=48", "--output-format=json"});
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  EXPECT_TRUE((*doc)["jobs"][0].contains("zone_resets"));
}

TEST_F(Zbd, WrittenZonesVerifyAsFio) {
  for (const std::string program : {"fio", "sluice"}) {
    const std::string path = laid_out(program);
    const RunOutput r =
        run_as(program, {"--name=v", "--filename=" + path, "--zonemode=zbd", "--zonesize=1m", "--rw=randwrite",
                         "--bs=64k", "--size=2m", "--verify=crc32c", "--verify_state_save=0", "--output-format=json"});
    const auto doc = parse_document(r.out);
    ASSERT_TRUE(doc) << program;
    const auto& job = (*doc)["jobs"][0];
    EXPECT_EQ(job["error"].get<int>(), 0) << program;
    EXPECT_EQ(total_ios(job, "write"), 32u) << program;
    EXPECT_EQ(total_ios(job, "read"), 32u) << program << ": every written block verified";
  }
}

TEST(ZbdRefusals, BadZoneSettingsAreRefusedBeforeAnythingRuns) {
  TempDir tmp;
  const std::string file = "--filename=" + tmp.file("z");
  expect_run_refused({"--name=z", file, "--size=4m", "--zonemode=zbd", "--rw=write"}, "needs zonesize");
  expect_run_refused({"--name=z", file, "--size=4m", "--zonemode=zbd", "--zonesize=64k", "--bs=128k", "--rw=write"},
                     "larger than zonesize");
  expect_run_refused({"--name=z", file, "--size=4m", "--zonemode=zbd", "--zonesize=1m", "--bs=64k", "--rw=trim"},
                     "is not the zone size");
  expect_run_refused({"--name=z", file, "--size=4m", "--zonemode=zbd", "--zonesize=1m", "--rw=randrmw"},
                     "write pointer");
  expect_run_refused({"--name=z", file, "--size=512k", "--zonemode=zbd", "--zonesize=1m", "--rw=write"},
                     "smaller than zonesize");
  expect_run_refused(
      {"--name=z", file, "--size=4m", "--zonemode=zbd", "--zonesize=1m", "--zonecapacity=2m", "--rw=write"},
      "larger than zonesize");
  expect_run_refused(
      {"--name=z", file, "--size=4m", "--zonemode=zbd", "--zonesize=1m", "--zone_reset_frequency=2", "--rw=write"},
      "a fraction from 0 to 1");
}

}  // namespace
}  // namespace sluice::testing
