// The capacity report: the JSON block's schema and the table's lines.
#include <gtest/gtest.h>

#include "method/capacity.h"

namespace sluice {
namespace {

CapacityPoint point(std::uint32_t iodepth, double iops, double lat_ns, bool within) {
  CapacityPoint p;
  p.iodepth = iodepth;
  p.iops = iops;
  p.lat_mean_ns = lat_ns;
  p.lat_p50_ns = static_cast<std::uint64_t>(lat_ns);
  p.lat_p95_ns = static_cast<std::uint64_t>(lat_ns * 2);
  p.lat_p99_ns = static_cast<std::uint64_t>(lat_ns * 3);
  p.lat_p999_ns = static_cast<std::uint64_t>(lat_ns * 4);
  p.steady = true;
  p.within_slo = within;
  return p;
}

struct Fixture {
  CapacityRequest request;
  CapacityResult result;
  Fixture() {
    JobSpec job;
    job.workload.rw = RwMode::kRandRead;
    job.engine.ioengine = EngineKind::kIoUring;
    job.target.direct = true;
    job.target.filenames = {"/tmp/x"};
    request.streams = {job};
    request.slo = std::chrono::milliseconds(1);
    result.curve = {point(1, 10000, 100000, true), point(2, 20000, 100000, true), point(4, 21000, 190000, true),
                    point(8, 15000, 533000, true), point(16, 15000, 1066000, false)};
    result.answer = result.curve[2];
    result.knee = find_knee(result.curve);
    result.thrashing = find_thrashing(result.curve);
    result.elapsed_s = 12.5;
    result.stop_reason = "latency limit exceeded at concurrency 16";
  }
};

TEST(CapacityJson, HasTheIssueSchema) {
  Fixture f;
  const nlohmann::json j = capacity_json(f.request, f.result);
  for (const char* key : {"slo_ns", "stat", "iops", "concurrency", "iodepth", "numjobs", "lat_ns", "knee", "thrashing",
                          "curve", "rules", "stop_reason", "independent_streams"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["slo_ns"], 1000000);
  EXPECT_EQ(j["stat"], "mean");
  EXPECT_EQ(j["concurrency"], 4);
  EXPECT_EQ(j["iodepth"], 4);
  EXPECT_EQ(j["numjobs"], 1);
  EXPECT_DOUBLE_EQ(j["iops"].get<double>(), 21000);
  EXPECT_EQ(j["lat_ns"], 190000);
  ASSERT_EQ(j["curve"].size(), 5u);
  for (const auto& p : j["curve"]) {
    for (const char* key : {"iodepth", "numjobs", "iops", "lat_mean_ns", "lat_p50_ns", "lat_p99_ns", "lat_p999_ns"}) {
      EXPECT_TRUE(p.contains(key)) << key;
    }
  }
}

TEST(CapacityJson, KneeAndThrashingArePointsOrNull) {
  Fixture f;
  const nlohmann::json j = capacity_json(f.request, f.result);
  ASSERT_TRUE(j["knee"].is_object());
  EXPECT_EQ(j["knee"]["concurrency"], 2);  // 2 -> 4 added 5% IOPS and latency
  ASSERT_TRUE(j["thrashing"].is_object());
  EXPECT_EQ(j["thrashing"]["concurrency"], 8);
  f.result.knee.reset();
  f.result.thrashing.reset();
  const nlohmann::json none = capacity_json(f.request, f.result);
  EXPECT_TRUE(none["knee"].is_null());
  EXPECT_TRUE(none["thrashing"].is_null());
}

TEST(CapacityJson, NoAnswerGivesNulls) {
  Fixture f;
  f.result.answer.reset();
  const nlohmann::json j = capacity_json(f.request, f.result);
  EXPECT_TRUE(j["iops"].is_null());
  EXPECT_TRUE(j["concurrency"].is_null());
}

TEST(CapacityTable, PrintsCurveAnswerKneeAndThrashing) {
  Fixture f;
  const std::string text = render_capacity_table(f.request, f.result);
  EXPECT_NE(text.find("capacity: 21000 IOPS at concurrency 4 (4 x 1), mean lat"), std::string::npos) << text;
  EXPECT_NE(text.find("<= limit 1"), std::string::npos) << text;
  EXPECT_NE(text.find("knee: concurrency 2 (2 x 1)"), std::string::npos) << text;
  EXPECT_NE(text.find("thrashing: concurrency 8 (8 x 1)"), std::string::npos) << text;
  EXPECT_NE(text.find("lat p99.9"), std::string::npos) << text;
  EXPECT_NE(text.find("steady"), std::string::npos) << text;
}

TEST(CapacityTable, WarningsAreAtTheTopOfTheTable) {
  Fixture f;
  EXPECT_EQ(render_capacity_table(f.request, f.result).find("Warnings:"), std::string::npos);
  Problem w;
  w.option = "direct";
  w.message = "buffered I/O (direct=0) on a file";
  f.result.final_run.warnings.push_back(w);
  const std::string text = render_capacity_table(f.request, f.result);
  EXPECT_EQ(text.rfind("Warnings:\n", 0), 0u) << text;
  EXPECT_NE(text.find(": direct: buffered I/O (direct=0) on a file\n"), std::string::npos) << text;
}

TEST(CapacityTable, SaysIndependentStreamsAreNotRandrw) {
  Fixture f;
  JobSpec writer = f.request.streams.front();
  writer.workload.rw = RwMode::kRandWrite;
  f.request.streams.push_back(writer);
  const std::string text = render_capacity_table(f.request, f.result);
  EXPECT_NE(text.find("randread + randwrite"), std::string::npos) << text;
  EXPECT_NE(text.find("independent streams"), std::string::npos) << text;
  EXPECT_TRUE(capacity_json(f.request, f.result)["independent_streams"].get<bool>());
}

TEST(CapacityTable, ShowsTransactionsForDependentIo) {
  Fixture f;
  for (CapacityPoint& p : f.result.curve) p.transactions_per_s = p.iops / 2;
  f.result.answer = f.result.curve[2];
  const std::string text = render_capacity_table(f.request, f.result);
  EXPECT_NE(text.find("trans/s"), std::string::npos) << text;
  EXPECT_NE(text.find("10500 read-modify-write transactions/s"), std::string::npos) << text;
  EXPECT_DOUBLE_EQ(capacity_json(f.request, f.result)["transactions_per_s"].get<double>(), 10500);
}

}  // namespace
}  // namespace sluice
