// ramp_size (fio 3.42): the results start once the job (the group's jobs together under group_reporting) has
// done that much I/O, looked at once a second from the job's start as fio's helper thread does. Rate-limited
// jobs make the seconds predictable: at 16 MiB/s a 32 MiB job with ramp_size=8m has done 16 MiB at the first
// check, so the report holds the other 16 MiB (4096 ios of 4 KiB), not 24 MiB. Each job runs beside the
// same job in the fio of tests/support/newer_fio.h when that fio knows ramp_size. fio's checks start a little
// before its job does, so its ramp may end up to a second early: its count lies between sluice's and what is
// left after ramp_size bytes (16 MiB and 24 MiB there). Without that fio sluice is still checked against the
// counts computed here.
#include <gtest/gtest.h>

#include <future>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/newer_fio.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

RunOutput run_fio_ramp(const std::vector<std::string>& args) {
  RunOptions options;
  options.program = newer_fio();
  options.timeout = std::chrono::seconds(30);
  RunOutput r = run_binary(args, options);
  EXPECT_EQ(r.exit_code, 0) << newer_fio() << ": " << describe(r);
  return r;
}

struct RampCounts {
  std::uint64_t ios = 0;
  std::uint64_t bytes = 0;
};

// The reported reads or writes of the run's first job (the group's entry under group_reporting).
RampCounts ramp_counts_of(const RunOutput& r, const char* direction) {
  const std::optional<nlohmann::json> doc = parse_document(r.out);
  if (!doc) return {};
  const nlohmann::json& dir = (*doc)["jobs"][0][direction];
  return {dir["total_ios"].get<std::uint64_t>(), dir["io_bytes"].get<std::uint64_t>()};
}

// Runs the job in sluice and, when the newer fio knows ramp_size, in fio at the same time (each on its own
// files); returns sluice's output and fio's (nullopt without that fio).
std::pair<RunOutput, std::optional<RunOutput>> ramp_pair(const std::vector<std::string>& sluice_args,
                                                         const std::vector<std::string>& fio_args) {
  std::future<RunOutput> fio;
  const bool compare = fio_knows_option(newer_fio(), "ramp_size");
  if (compare) fio = std::async(std::launch::async, [&] { return run_fio_ramp(fio_args); });
  RunOutput sluice = run_as("sluice", sluice_args);
  if (!compare) return {sluice, std::nullopt};
  return {sluice, fio.get()};
}

void expect_near_count(std::uint64_t got, std::uint64_t expected, double tolerance, const std::string& who) {
  EXPECT_NEAR(static_cast<double>(got), static_cast<double>(expected), tolerance * static_cast<double>(expected))
      << who;
}

// fio's count: from the ios after sluice's whole-second ramp (3 % under, for the rate's granularity) to the
// ios after exactly ramp_size bytes.
void expect_fio_between(std::uint64_t fio, std::uint64_t after_whole_seconds, std::uint64_t after_ramp_size) {
  EXPECT_GE(static_cast<double>(fio), 0.97 * static_cast<double>(after_whole_seconds)) << "fio";
  EXPECT_LE(fio, after_ramp_size) << "fio";
}

TEST(RampSize, NullEngineReportsWhatCameAfterTheFirstCheckThatFoundTheRampDone) {
  const std::vector<std::string> args = {"--name=r",   "--ioengine=null", "--size=32m",          "--bs=4k",
                                         "--rate=16m", "--ramp_size=8m",  "--output-format=json"};
  const auto [sluice, fio] = ramp_pair(args, args);
  // 32 MiB at 16 MiB/s: 16 MiB by the check at 1 s, which ends the ramp; 16 MiB reported.
  const RampCounts s = ramp_counts_of(sluice, "read");
  expect_near_count(s.ios, 4096, 0.03, "sluice");
  EXPECT_EQ(s.bytes, s.ios * 4096);
  if (!fio) GTEST_SKIP() << newer_fio() << " does not know ramp_size: sluice checked alone";
  expect_fio_between(ramp_counts_of(*fio, "read").ios, 4096, 6144);
}

TEST(RampSize, TimeBasedRuntimeStartsAfterTheRamp) {
  const std::vector<std::string> args = {"--name=r",    "--ioengine=null", "--size=64m",
                                         "--bs=4k",     "--rate=8m",       "--time_based",
                                         "--runtime=1", "--ramp_size=12m", "--output-format=json"};
  const auto [sluice, fio] = ramp_pair(args, args);
  // 8 MiB/s: 8 MiB at 1 s (short of 12), 16 MiB at 2 s ends the ramp, then a measured second of 8 MiB.
  const std::optional<nlohmann::json> doc = parse_document(sluice.out);
  ASSERT_TRUE(doc);
  expect_near_count(ramp_counts_of(sluice, "read").ios, 2048, 0.05, "sluice");
  EXPECT_NEAR((*doc)["jobs"][0]["read"]["runtime"].get<double>(), 1000, 50);
  EXPECT_GE(sluice.elapsed.count(), 2900) << "two seconds of ramp, one of runtime";
  if (!fio) GTEST_SKIP() << newer_fio() << " does not know ramp_size: sluice checked alone";
  expect_near_count(ramp_counts_of(*fio, "read").ios, 2048, 0.10, "fio");
  EXPECT_GE(fio->elapsed.count(), 2500) << "fio: two checks of ramp (not aligned to its start), then runtime";
}

// Under group_reporting the group's bytes count: two jobs of 8 MiB/s have 16 MiB together at 1 s, past 12m,
// although neither has alone; each job reports its last second (group: 16 MiB).
TEST(RampSize, GroupReportingCountsTheGroupsIo) {
  const std::vector<std::string> args = {"--name=g",          "--ioengine=null", "--size=16m",
                                         "--bs=4k",           "--rate=8m",       "--numjobs=2",
                                         "--group_reporting", "--ramp_size=12m", "--output-format=json"};
  const auto [sluice, fio] = ramp_pair(args, args);
  expect_near_count(ramp_counts_of(sluice, "read").ios, 4096, 0.05, "sluice");
  if (!fio) GTEST_SKIP() << newer_fio() << " does not know ramp_size: sluice checked alone";
  expect_fio_between(ramp_counts_of(*fio, "read").ios, 4096, 5120);
}

TEST(RampSize, SmallFileWithPsync) {
  TempDir tmp;
  const auto args = [&](const std::string& who) {
    return std::vector<std::string>{"--name=f",
                                    "--filename=" + tmp.file(who),
                                    "--ioengine=psync",
                                    "--size=8m",
                                    "--bs=4k",
                                    "--rw=write",
                                    "--rate=4m",
                                    "--ramp_size=2m",
                                    "--output-format=json"};
  };
  const auto [sluice, fio] = ramp_pair(args("sluice"), args("fio"));
  // 8 MiB at 4 MiB/s: 4 MiB by the first check; the other 4 MiB (1024 writes) reported.
  expect_near_count(ramp_counts_of(sluice, "write").ios, 1024, 0.05, "sluice");
  if (!fio) GTEST_SKIP() << newer_fio() << " does not know ramp_size: sluice checked alone";
  expect_fio_between(ramp_counts_of(*fio, "write").ios, 1024, 1536);
}

TEST(RampSize, RefusedWithRampTimeOrInconsistentInAGroup) {
  expect_run_refused({"--name=r", "--ioengine=null", "--size=1m", "--ramp_size=1m", "--ramp_time=1"},
                     "ramp_size and ramp_time exclude each other");
  expect_run_refused({"--ioengine=null", "--size=1m", "--name=a", "--ramp_size=1m", "--name=b", "--ramp_size=2m"},
                     "job b: ramp_size=2097152 differs from job a's 1048576 in the same group");
  expect_run_refused({"--name=r", "--ioengine=null", "--size=1m", "--ramp_size=0"},
                     "--ramp_size=0: must be at least 1 byte");
}

}  // namespace
}  // namespace sluice::testing
