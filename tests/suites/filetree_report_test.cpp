#include "suites/filetree_report.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

FiletreeResult sample() {
  FiletreeResult r;
  r.options.directory = "/mnt/x";
  r.options.threads = 2;
  r.plan.dirs = 2;
  r.plan.files.resize(4);
  r.plan.total_bytes = 8'000'000;
  r.drop_caches = true;
  r.cache_drops = {CacheDrop{true, ""}, CacheDrop{false, "cannot write /proc/sys/vm/drop_caches: Permission denied"}};
  for (const char* name : {"create", "read"}) {
    StepResult s;
    s.name = name;
    s.bytes = 8'000'000;
    s.files = 4;
    s.seconds = 2.0;
    s.latency.timed(FileOp::kWrite, [] { return 0; });
    r.steps.push_back(std::move(s));
  }
  r.steps.back().completed = false;
  r.interrupted = true;
  return r;
}

TEST(FiletreeReport, JsonHasOneEntryPerStepWithRates) {
  const nlohmann::json j = filetree_json(sample());
  const nlohmann::json& steps = j.at("sluice").at("filetree").at("steps");
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].at("name"), "create");
  EXPECT_EQ(steps[0].at("bytes"), 8'000'000u);
  EXPECT_EQ(steps[0].at("files"), 4u);
  EXPECT_DOUBLE_EQ(steps[0].at("seconds").get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(steps[0].at("MB/s").get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(steps[0].at("files/s").get<double>(), 2.0);
  EXPECT_TRUE(steps[0].at("completed").get<bool>());
  EXPECT_FALSE(steps[1].at("completed").get<bool>());
  const nlohmann::json& write = steps[0].at("latency_ns").at("write");
  EXPECT_EQ(write.at("count"), 1u);
  EXPECT_TRUE(write.at("percentile").contains("99.000000"));
  EXPECT_LE(write.at("percentile").at("99.000000").get<std::uint64_t>(), write.at("max").get<std::uint64_t>());
  EXPECT_FALSE(steps[0].at("latency_ns").contains("read"));  // kinds never used are left out
  EXPECT_TRUE(j.at("sluice").at("filetree").at("interrupted").get<bool>());
  EXPECT_EQ(j.at("sluice").at("filetree").at("cache_drops")[1],
            "cannot write /proc/sys/vm/drop_caches: Permission denied");
}

TEST(FiletreeReport, TextSaysWhatWasDroppedAndWhatWasInterrupted) {
  const std::string text = render_filetree_text(sample());
  EXPECT_NE(text.find("page cache dropped before 1 of 2 steps after create"), std::string::npos) << text;
  EXPECT_NE(text.find("4  (interrupted)"), std::string::npos) << text;
  EXPECT_NE(text.find("interrupted: the steps above"), std::string::npos) << text;
  EXPECT_NE(text.find("create         2.000        4.0         2.0"), std::string::npos) << text;
}

TEST(FiletreeReport, RatesAreZeroForAStepOfNoTime) {
  StepResult s;
  s.bytes = 10;
  EXPECT_EQ(step_mb_per_second(s), 0.0);
  EXPECT_EQ(step_files_per_second(s), 0.0);
}

}  // namespace
}  // namespace sluice
