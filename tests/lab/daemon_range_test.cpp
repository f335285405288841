#include "lab/daemon_range.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "lab/model_parser.h"
#include "lab/presets.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

ModelSpec model(std::string_view text) { return parse_model(text, "test.model", "test"); }

TEST(DaemonRange, ThePeakIsTheHighestFourKibRateOfTheTruth) {
  EXPECT_NEAR(model_peak_rate(model("servers = 4\nread_time = 1ms\n")), 4000, 1);
  // A write-back cache's burst is faster than its reads: the peak is the burst.
  EXPECT_NEAR(model_peak_rate(model("servers = 1\nread_time = 2ms\nwrite_cache = write-back\ncache_size = 64m\n"
                                    "cache_write_time = 0.25ms\ndestage_rate = 100MiB/s\n")),
              4000, 1);
}

TEST(DaemonRange, AModelAboveTheRangeIsRefusedWithItsNumbers) {
  const std::optional<std::string> why = beyond_daemon_range(model("servers = 64\nread_time = 0.1ms\n"));
  ASSERT_TRUE(why);
  EXPECT_THAT(*why, HasSubstr("model test asks for up to 640000 requests/s"));
  EXPECT_THAT(*why, HasSubstr("--force"));
  EXPECT_FALSE(beyond_daemon_range(model("servers = 1\nread_time = 1ms\n")));
}

TEST(DaemonRange, EveryPresetIsWithinTheRange) {
  for (const ModelPreset& preset : model_presets()) {
    const ModelSpec m = parse_model(preset.text, std::string(preset.name), std::string(preset.name));
    EXPECT_FALSE(beyond_daemon_range(m)) << preset.name << ": " << beyond_daemon_range(m).value_or("");
  }
}

}  // namespace
}  // namespace sluice
