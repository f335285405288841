#include "lab/lab_control.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

using std::chrono::nanoseconds;
using Kind = LabControl::Kind;

TEST(LabControl, EachSettingReadsBackAsWritten) {
  for (const LabControl& setting :
       {LabControl{Kind::kCalibrate, nanoseconds(820'000)}, LabControl{Kind::kCalibrate, nanoseconds(0)},
        LabControl{Kind::kModel, {}}, LabControl{Kind::kPath, nanoseconds(92'970)}, LabControl{Kind::kPath, {}}}) {
    const std::optional<LabControl> back = parse_lab_control(lab_control_text(setting));
    ASSERT_TRUE(back) << lab_control_text(setting);
    EXPECT_EQ(back->kind, setting.kind);
    EXPECT_EQ(back->value, setting.value);
  }
}

TEST(LabControl, ADurationIsInMicrosecondsWhenBare) {
  EXPECT_EQ(parse_lab_control("path=95")->value, nanoseconds(95'000));
  EXPECT_EQ(parse_lab_control("path=95us\n")->value, nanoseconds(95'000));
  EXPECT_EQ(parse_lab_control("calibrate=1ms")->value, nanoseconds(1'000'000));
  EXPECT_EQ(parse_lab_control("calibrate=1ms")->kind, Kind::kCalibrate);
}

TEST(LabControl, AnythingElseIsRefused) {
  for (const char* text : {"", "\n", "calibrate", "calibrate=", "calibrate=-1", "path=", "path=-1", "path=2s", "path=x",
                           "reset", "models", "path=1\nmodel"}) {
    EXPECT_FALSE(parse_lab_control(text)) << text;
  }
}

}  // namespace
}  // namespace sluice
