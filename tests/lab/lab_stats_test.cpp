#include "lab/lab_stats.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/error.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

nlohmann::json lab_record() {
  const nlohmann::json none = {{"count", 0}, {"bytes", 0}, {"queued_ns", 0}, {"service_ns", 0}, {"total_ns", 0}};
  return {
      {"model", "sas15k"},
      {"bytes_written", 0},
      {"ops",
       {{"read",
         {{"count", 4}, {"bytes", 16384}, {"queued_ns", 4000000}, {"service_ns", 20000000}, {"total_ns", 24000000}}},
        {"write", none},
        {"flush", none}}}};
}

TEST(LabStatsText, MeansPerRequestForEachOp) {
  const std::string text = render_lab_stats_text(lab_record(), "/mnt/lab");
  EXPECT_THAT(text, HasSubstr("lab at /mnt/lab: model sas15k"));
  EXPECT_THAT(text, HasSubstr("read            4        16 KiB          1 ms          5 ms          6 ms"));
  EXPECT_THAT(text, HasSubstr("flush           0           0 B             -             -             -"));
}

TEST(LabStatsText, FaultsInjectedPerRule) {
  nlohmann::json record = lab_record();
  EXPECT_THAT(render_lab_stats_text(record, "/mnt/lab"), ::testing::Not(HasSubstr("faults injected")));
  record["faults"] = nlohmann::json::array(
      {{{"rule", "read:eio:at=1m"}, {"fired", 3}}, {{"rule", "write:lie:count=1"}, {"fired", 1}}});
  const std::string text = render_lab_stats_text(record, "/mnt/lab");
  EXPECT_THAT(text, HasSubstr("faults injected"));
  EXPECT_THAT(text, HasSubstr("  read:eio:at=1m                                 3\n"));
  EXPECT_THAT(text, HasSubstr("  write:lie:count=1                              1\n"));
}

TEST(LabStatsText, SomethingElseIsRefused) {
  EXPECT_THROW(render_lab_stats_text(nlohmann::json{{"jobs", 1}}, "/mnt/x"), UserError);
}

}  // namespace
}  // namespace sluice
