// flow and flow_sleep as the option table types and stores them (options_fio_control.cpp): flow is a signed
// weight, flow_sleep a JobSpec field the flow controller reads (not given_options).
#include <gtest/gtest.h>

#include "common/error.h"
#include "job/job_with.h"
#include "job/option_table.h"

namespace sluice {
namespace {

using testing::job_with;

TEST(FlowOptions, FlowIsTypedSigned) {
  const OptionDef* flow = find_option("flow");
  ASSERT_NE(flow, nullptr);
  EXPECT_EQ(flow->type, OptionType::kSigned);
  EXPECT_EQ(flow->range, "-1000000..1000000");
}

TEST(FlowOptions, FlowLimitsBothSigns) {
  EXPECT_EQ(job_with({{"flow", "-1000000"}}).control.flow, -1'000'000);
  EXPECT_THROW(job_with({{"flow", "-1000001"}}), UserError);
  EXPECT_THROW(job_with({{"flow", "1000001"}}), UserError);
}

TEST(FlowOptions, FlowSleepIsStoredInMicroseconds) {
  EXPECT_EQ(JobSpec{}.control.flow_sleep, std::chrono::microseconds(1000));
  EXPECT_EQ(job_with({{"flow_sleep", "250"}}).control.flow_sleep, std::chrono::microseconds(250));
  EXPECT_THROW(job_with({{"flow_sleep", "10000001"}}), UserError);
}

}  // namespace
}  // namespace sluice
