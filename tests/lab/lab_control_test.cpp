#include "lab/lab_control.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

using std::chrono::nanoseconds;

TEST(LabControl, EachSettingReadsBackAsWritten) {
  for (const LabControl& setting : {LabControl{.calibrating = true, .path = std::nullopt},
                                    LabControl{.calibrating = false, .path = std::nullopt},
                                    LabControl{.calibrating = std::nullopt, .path = nanoseconds(92'970)},
                                    LabControl{.calibrating = std::nullopt, .path = nanoseconds(0)}}) {
    const std::optional<LabControl> back = parse_lab_control(lab_control_text(setting));
    ASSERT_TRUE(back) << lab_control_text(setting);
    EXPECT_EQ(back->calibrating, setting.calibrating);
    EXPECT_EQ(back->path, setting.path);
  }
}

TEST(LabControl, APathIsADurationInMicrosecondsWhenBare) {
  EXPECT_EQ(parse_lab_control("path=95")->path, nanoseconds(95'000));
  EXPECT_EQ(parse_lab_control("path=95us\n")->path, nanoseconds(95'000));
  EXPECT_EQ(parse_lab_control("path=1ms")->path, nanoseconds(1'000'000));
}

TEST(LabControl, AnythingElseIsRefused) {
  for (const char* text : {"", "\n", "calibrating=2", "calibrating", "path=", "path=-1", "path=2s", "path=x",
                           "reset", "calibrating=1\npath=1"}) {
    EXPECT_FALSE(parse_lab_control(text)) << text;
  }
}

}  // namespace
}  // namespace sluice
