// Fidelity: on the raw lab device (sluice lab up --fs=none) of the ssd, sas15k and sata7k presets, fio (the
// independent tool) and sluice measure 4 KiB random reads at depth 1 and 32 within 10% of the truth (15% for a
// sub-2 ms model at depth 1, where the path's drift shows) that
// sluice lab truth computes from the model: IOPS and mean latency (issue 34, "Tests must show"). A reply is
// sent at the model's time less the path's, as lab up measured it (docs/lab.md, the path and its
// compensation); without that, depth 1 measures the model plus the path.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/lab_place.h"
#include "support/machine_features.h"
#include "support/run_binary.h"

namespace sluice::testing {
namespace {

constexpr double kTolerance = 0.10;
// ssd at depth 1: the model's 0.82 ms is within 10x of the path (~60-90 us), and the path drifts after lab up
// measured it: 0.96-1.03 of the truth in most runs, 1.11-1.14 in 2 of about 12 on the idle CI machine.
constexpr double kShallowFastTolerance = 0.15;
// An fsync'd write crosses the path twice (the write, then the flush), each time with the path's estimate
// subtracted: on raid-wb's 0.66 ms that error counts double (measured 0.81-1.00 of the truth on an idle machine,
// 0.93-0.97 beside stress-ng; raid-wt 0.95-0.97).
constexpr double kFsyncTolerance = 0.20;

struct PresetMeasured {
  double iops = 0;
  double mean_lat_ns = 0;
};

// The truth's row `what` for `rw` of `bs` bytes at `depth`.
std::optional<PresetMeasured> truth_row(const nlohmann::json& truth, const std::string& what, const std::string& rw,
                                        int bs, int depth) {
  for (const nlohmann::json& row : truth["expect"]) {
    if (row.value("what", "") == what && row.value("rw", "") == rw && row.value("bs", 0) == bs &&
        row.value("iodepth", 0) == depth) {
      return PresetMeasured{row.value("iops", 0.0), row.value("mean_lat_ns", 0.0)};
    }
  }
  return std::nullopt;
}

// The benchmarks, each under SCHED_FIFO (chrt, as root) as the daemon's threads are: these tests check the lab
// and the benchmarks' arithmetic, not how a CPU hog beside them delays their own threads (beside stress-ng
// --cpu 2 at normal priority, ssd's depth-1 latency moved by -17% to +57%: docs/lab.md).
std::vector<std::string> tools() {
  std::vector<std::string> names;
  if (have(Feature::kFio)) names.emplace_back("fio");
  names.emplace_back("sluice");
  return names;
}

RunOutput run_realtime(const std::string& tool, std::vector<std::string> args) {
  if (tool == "sluice") args.insert(args.begin(), {SLUICE_BINARY, "run"});
  if (tool == "fio") args.insert(args.begin(), "fio");
  args.insert(args.begin(), {"-f", "1"});
  RunOptions options;
  options.program = "chrt";
  options.timeout = std::chrono::milliseconds(30000);
  return run_binary(args, options);
}

// The lab of `preset` on a raw 1 GiB device (the rotating presets' seeks scale with the device: the truth is
// computed for the size served); its `sluice.lab` document.
nlohmann::json raw_lab(const LabPlace& lab, const std::string& preset) {
  const RunOutput up = lab.sluice({"lab", "up", preset, lab.dir(), "--size=1g", "--fs=none", "--output-format=json"});
  EXPECT_EQ(up.exit_code, 0) << describe(up);
  const nlohmann::json info = lab_json(up);
  EXPECT_THAT(info.value("device", ""), ::testing::HasSubstr("/dev/loop"));
  EXPECT_TRUE(info["path"].is_object()) << "lab up measured no path: " << up.out;
  return info;
}

// fio's options for the measurement; sluice takes the same. No ramp_time: with one, fio measured sata7k at
// depth 32 10% under the truth where sluice measured 3% under (without, both within 1%: fio ends its ramp
// differently, not investigated further). Without a ramp the queue fills at the start, so the first 32 ios wait
// less than the steady state's: at depth 32 on sata7k, 5 s (~500 ios) keeps that under ~3% of the mean latency.
std::vector<std::string> job(const std::string& device, int depth) {
  return {"--name=fidelity",
          "--filename=" + device,
          "--rw=randread",
          "--bs=4k",
          "--direct=1",
          "--ioengine=libaio",
          "--iodepth=" + std::to_string(depth),
          "--time_based",
          depth > 1 ? "--runtime=5" : "--runtime=3",
          "--output-format=json"};
}

std::optional<PresetMeasured> job_result(const RunOutput& r, const char* direction) {
  const std::optional<nlohmann::json> doc = parse_document(r.out);
  if (!doc || !doc->contains("jobs") || (*doc)["jobs"].empty()) return std::nullopt;
  const nlohmann::json& d = (*doc)["jobs"][0][direction];
  return PresetMeasured{d.value("iops", 0.0), d["lat_ns"].value("mean", 0.0)};
}

class LabFidelity : public ::testing::TestWithParam<const char*> {};

TEST_P(LabFidelity, FioAndSluiceMeasureTheTruthAtDepthOneAndThirtyTwo) {
  SLUICE_REQUIRE(kRoot);  // SCHED_FIFO for the benchmarks
  SLUICE_REQUIRE(kLoopDevices);
  SLUICE_REQUIRE(kFuse);
  const std::string preset = GetParam();
  LabPlace lab;
  const nlohmann::json info = raw_lab(lab, preset);
  const std::string device = info.value("device", "");
  ASSERT_FALSE(device.empty());
  for (const int depth : {1, 32}) {
    const std::optional<PresetMeasured> truth = truth_row(info["truth"], "depth", "randread", 4096, depth);
    ASSERT_TRUE(truth) << "no 4 KiB randread row at depth " << depth << " in " << info["truth"].dump();
    for (const std::string& tool : tools()) {
      const RunOutput run = run_realtime(tool, job(device, depth));
      ASSERT_EQ(run.exit_code, 0) << describe(run);
      const std::optional<PresetMeasured> m = job_result(run, "read");
      ASSERT_TRUE(m) << tool << ": no result in\n" << run.out;
      const std::string what = preset + " " + tool + " depth " + std::to_string(depth);
      const double tolerance = depth == 1 && truth->mean_lat_ns < 2e6 ? kShallowFastTolerance : kTolerance;
      EXPECT_NEAR(m->iops / truth->iops, 1.0, tolerance)
          << what << ": " << m->iops << " IOPS, the truth " << truth->iops;
      EXPECT_NEAR(m->mean_lat_ns / truth->mean_lat_ns, 1.0, tolerance)
          << what << ": mean latency " << m->mean_lat_ns / 1000 << " us, the truth " << truth->mean_lat_ns / 1000;
      RecordProperty(what + " iops/truth", std::to_string(m->iops / truth->iops));
      RecordProperty(what + " lat/truth", std::to_string(m->mean_lat_ns / truth->mean_lat_ns));
    }
  }
  EXPECT_EQ(lab.sluice({"lab", "down", lab.dir()}).exit_code, 0);
  EXPECT_EQ(lab.leftovers(), "");
}

INSTANTIATE_TEST_SUITE_P(Presets, LabFidelity, ::testing::Values("ssd", "sas15k", "sata7k"),
                         [](const ::testing::TestParamInfo<const char*>& p) { return std::string(p.param); });

// raid-wt vs raid-wb (issue 34): fsync'd 16 KiB random writes, one thread, on the raw device, at the rate of the
// truth's fsync row (each write then a flush): a write-through cache waits for a disk (130 a second), a
// battery-backed write-back one for its cache (1 509), and fio and sluice both measure each within 20%.
class LabFsyncFidelity : public ::testing::TestWithParam<const char*> {};

TEST_P(LabFsyncFidelity, FioAndSluiceMeasureTheTruthsFsyncdWriteRate) {
  SLUICE_REQUIRE(kRoot);
  SLUICE_REQUIRE(kLoopDevices);
  SLUICE_REQUIRE(kFuse);
  const std::string preset = GetParam();
  LabPlace lab;
  const nlohmann::json info = raw_lab(lab, preset);
  const std::string device = info.value("device", "");
  ASSERT_FALSE(device.empty());
  const std::optional<PresetMeasured> truth = truth_row(info["truth"], "fsync", "randwrite", 16384, 1);
  ASSERT_TRUE(truth) << info["truth"].dump();
  for (const std::string& tool : tools()) {
    const RunOutput run =
        run_realtime(tool, {"--name=fsync", "--filename=" + device, "--rw=randwrite", "--bs=16k", "--direct=1",
                            "--ioengine=psync", "--fsync=1", "--time_based", "--runtime=3", "--output-format=json"});
    ASSERT_EQ(run.exit_code, 0) << describe(run);
    const std::optional<PresetMeasured> m = job_result(run, "write");
    ASSERT_TRUE(m) << tool << ": no result in\n" << run.out;
    EXPECT_NEAR(m->iops / truth->iops, 1.0, kFsyncTolerance)
        << preset << " " << tool << ": " << m->iops << " fsync'd writes/s, the truth " << truth->iops;
    RecordProperty(preset + " " + tool + " fsync iops/truth", std::to_string(m->iops / truth->iops));
  }
  EXPECT_EQ(lab.sluice({"lab", "down", lab.dir()}).exit_code, 0);
  EXPECT_EQ(lab.leftovers(), "");
}

INSTANTIATE_TEST_SUITE_P(Presets, LabFsyncFidelity, ::testing::Values("raid-wt", "raid-wb"),
                         [](const ::testing::TestParamInfo<const char*>& p) {
                           std::string name = p.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace sluice::testing
