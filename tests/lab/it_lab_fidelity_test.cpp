// Fidelity: on the raw lab device (sluice lab up --fs=none) of the ssd, sas15k and sata7k presets, fio (the
// independent tool) and sluice measure 4 KiB random reads at depth 1 and 32 within 10% of the truth that
// sluice lab truth computes from the model: IOPS and mean latency (issue 34, "Tests must show"). A reply is
// sent at the model's time less the path's, as lab up measured it (docs/lab.md, the path and its
// compensation); without that, depth 1 measures the model plus the path.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

struct Measured {
  double iops = 0;
  double mean_lat_ns = 0;
};

// The truth's row for 4 KiB random reads at `depth`.
std::optional<Measured> truth_row(const nlohmann::json& truth, int depth) {
  for (const nlohmann::json& row : truth["expect"]) {
    if (row.value("what", "") == "depth" && row.value("rw", "") == "randread" && row.value("bs", 0) == 4096 &&
        row.value("iodepth", 0) == depth) {
      return Measured{row.value("iops", 0.0), row.value("mean_lat_ns", 0.0)};
    }
  }
  return std::nullopt;
}

// fio's options for the measurement; sluice takes the same. No ramp_time: with one, fio measured sata7k at
// depth 32 10% under the truth where sluice measured 3% under (without, both within 1%: fio ends its ramp
// differently, not investigated further). Without a ramp the queue fills at the start, so the first 32 ios wait
// less than the steady state's: at depth 32 on sata7k, 5 s (~500 ios) keeps that under ~3% of the mean latency.
std::vector<std::string> job(const std::string& device, int depth) {
  return {"--name=fidelity",       "--filename=" + device,
          "--rw=randread",         "--bs=4k",
          "--direct=1",            "--ioengine=libaio",
          "--iodepth=" + std::to_string(depth),
          "--time_based",          depth > 1 ? "--runtime=5" : "--runtime=3",
          "--output-format=json"};
}

std::optional<Measured> read_result(const RunOutput& r) {
  const std::optional<nlohmann::json> doc = parse_document(r.out);
  if (!doc || !doc->contains("jobs") || (*doc)["jobs"].empty()) return std::nullopt;
  const nlohmann::json& read = (*doc)["jobs"][0]["read"];
  return Measured{read.value("iops", 0.0), read["lat_ns"].value("mean", 0.0)};
}

class LabFidelity : public ::testing::TestWithParam<const char*> {};

TEST_P(LabFidelity, FioAndSluiceMeasureTheTruthAtDepthOneAndThirtyTwo) {
  SLUICE_REQUIRE(kRoot);  // SCHED_FIFO for the benchmarks (below)
  SLUICE_REQUIRE(kLoopDevices);
  SLUICE_REQUIRE(kFuse);
  const std::string preset = GetParam();
  LabPlace lab;
  // 1 GiB: the rotating presets' seeks scale with the device (the truth is computed for the size served).
  const RunOutput up =
      lab.sluice({"lab", "up", preset, lab.dir(), "--size=1g", "--fs=none", "--output-format=json"});
  ASSERT_EQ(up.exit_code, 0) << describe(up);
  const nlohmann::json info = lab_json(up);
  const std::string device = info.value("device", "");
  ASSERT_THAT(device, ::testing::HasSubstr("/dev/loop"));
  ASSERT_TRUE(info["path"].is_object()) << "lab up measured no path: " << up.out;

  // The benchmarks run under SCHED_FIFO (chrt, as root), as the daemon's threads do: this test checks the
  // lab and the benchmarks' arithmetic, not how a CPU hog beside them delays their own threads (beside
  // stress-ng --cpu 2 at normal priority, ssd's depth-1 latency moved by -17% to +57%: docs/lab.md).
  std::vector<std::pair<std::string, RunOptions>> tools;
  RunOptions realtime;
  realtime.program = "chrt";
  if (have(Feature::kFio)) tools.emplace_back("fio", realtime);
  tools.emplace_back("sluice", realtime);
  for (const int depth : {1, 32}) {
    const std::optional<Measured> truth = truth_row(info["truth"], depth);
    ASSERT_TRUE(truth) << "no 4 KiB randread row at depth " << depth << " in " << info["truth"].dump();
    for (auto& [name, options] : tools) {
      options.timeout = std::chrono::milliseconds(30000);
      std::vector<std::string> args = job(device, depth);
      if (name == "sluice") args.insert(args.begin(), {SLUICE_BINARY, "run"});
      if (name == "fio") args.insert(args.begin(), "fio");
      args.insert(args.begin(), {"-f", "1"});
      const RunOutput run = run_binary(args, options);
      ASSERT_EQ(run.exit_code, 0) << describe(run);
      const std::optional<Measured> m = read_result(run);
      ASSERT_TRUE(m) << name << ": no result in\n" << run.out;
      const std::string what = preset + " " + name + " depth " + std::to_string(depth);
      EXPECT_NEAR(m->iops / truth->iops, 1.0, kTolerance)
          << what << ": " << m->iops << " IOPS, the truth " << truth->iops;
      EXPECT_NEAR(m->mean_lat_ns / truth->mean_lat_ns, 1.0, kTolerance)
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

}  // namespace
}  // namespace sluice::testing
