// sluice capacity end to end, on the null engine (fast, no file) and on a small temporary file.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/it_test_util.h"
#include "support/run_binary.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

using testing::describe;
using testing::parse_document;
using testing::run_binary;

const std::vector<std::string> kNull = {"capacity", "--ioengine=null", "--size=1g", "--budget=3s"};

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(CapacityCli, NormalOutputHasTheCurveAndTheAnswer) {
  const auto r = run_binary(kNull);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("iodepth  numjobs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lat p99.9"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("capacity: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("IOPS at concurrency"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("<= limit 10 ms"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("knee: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("thrashing: "), std::string::npos) << r.out;
  EXPECT_LT(r.elapsed.count(), 15000) << "the 3 s budget did not end the search";  // room for a busy start
}

TEST(CapacityCli, JsonHasFioJobsAndTheCapacityBlock) {
  const auto r = run_binary(with(kNull, {"--output-format=json", "--slo=500us", "--slo-stat=p99"}));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  ASSERT_TRUE((*doc)["jobs"].is_array());
  ASSERT_FALSE((*doc)["jobs"].empty());
  EXPECT_GT((*doc)["jobs"][0]["read"]["total_ios"].get<std::uint64_t>(), 0u);
  const auto& c = (*doc)["sluice"]["capacity"];
  EXPECT_EQ(c["slo_ns"], 500000);
  EXPECT_EQ(c["stat"], "p99");
  EXPECT_GT(c["iops"].get<double>(), 0);
  EXPECT_EQ(c["concurrency"].get<int>(), c["iodepth"].get<int>() * c["numjobs"].get<int>());
  ASSERT_FALSE(c["curve"].empty());
  for (const char* key : {"iodepth", "numjobs", "iops", "lat_mean_ns", "lat_p50_ns", "lat_p99_ns", "lat_p999_ns"}) {
    EXPECT_TRUE(c["curve"][0].contains(key)) << key;
  }
  EXPECT_TRUE(c.contains("knee"));
  EXPECT_TRUE(c.contains("thrashing"));
}

TEST(CapacityCli, TwoWorkloadsRunAsIndependentStreams) {
  const auto r = run_binary(with(kNull, {"--rw=randread,randwrite", "--output-format=json"}));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  const auto& c = (*doc)["sluice"]["capacity"];
  EXPECT_TRUE(c["independent_streams"].get<bool>());
  EXPECT_EQ(c["streams"], nlohmann::json::array({"randread", "randwrite"}));
  std::uint64_t reads = 0, writes = 0;
  for (const auto& job : (*doc)["jobs"]) {
    reads += job["read"]["total_ios"].get<std::uint64_t>();
    writes += job["write"]["total_ios"].get<std::uint64_t>();
  }
  EXPECT_GT(reads, 0u);
  EXPECT_GT(writes, 0u);
}

TEST(CapacityCli, BadSloStatNamesTheOptionAndTheValidValues) {
  const auto r = run_binary(with(kNull, {"--slo-stat=p98"}));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("--slo-stat=p98"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("p99.9"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(CapacityCli, BadScaleIsRefused) {
  const auto r = run_binary(with(kNull, {"--scale=threads"}));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("iodepth, numjobs, both"), std::string::npos) << r.err;
}

TEST(CapacityCli, BadSloIsRefused) {
  const auto r = run_binary(with(kNull, {"--slo=fast"}));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("--slo=fast"), std::string::npos) << r.err;
}

TEST(CapacityCli, UnknownJobOptionSuggestsTheNearest) {
  const auto r = run_binary(with(kNull, {"--iodepht=4"}));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("--iodepht"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("iodepth"), std::string::npos) << r.err;
}

TEST(CapacityCli, BadModeInAStreamListNamesRw) {
  const auto r = run_binary(with(kNull, {"--rw=randread,randwrit"}));
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("rw"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("randwrit"), std::string::npos) << r.err;
}

TEST(CapacityCli, MissingTargetIsRefused) {
  const auto r = run_binary({"capacity", "--budget=2s"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("--filename"), std::string::npos) << r.err;
}

TEST(CapacityCli, InterruptReportsWhatWasMeasured) {
  testing::RunOptions o;
  o.signal_after = std::chrono::milliseconds(1500);
  const auto r = run_binary({"capacity", "--ioengine=null", "--size=1g", "--budget=60s", "--max-concurrency=4096"}, o);
  EXPECT_EQ(r.exit_code, 130) << describe(r);
  EXPECT_NE(r.out.find("interrupted"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("conc"), std::string::npos) << r.out;
}

TEST(CapacityCli, RunsOnASmallFile) {
  testing::TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  const auto r = run_binary({"capacity", "--filename=" + dir.file("f"), "--size=16m", "--ioengine=psync", "--direct=0",
                             "--budget=3s", "--scale=numjobs", "--max-concurrency=4", "--output-format=json"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc);
  for (const auto& p : (*doc)["sluice"]["capacity"]["curve"]) EXPECT_EQ(p["iodepth"], 1);
}

}  // namespace
}  // namespace sluice
