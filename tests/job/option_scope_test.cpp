#include "job/option_scope.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

TEST(OptionScope, OptionsAboveTheSectionInTheSameFileAreGlobal) {
  JobSpec job;
  job.where = {"a.fio", 10};
  job.given_options = {{"bs", "8k"}, {"rw", "read"}};
  job.option_pos = {{"bs", {"a.fio", 2}}, {"rw", {"a.fio", 11}}};
  EXPECT_EQ(global_options_of(job), (std::map<std::string, std::string>{{"bs", "8k"}}));
  EXPECT_EQ(own_options_of(job), (std::map<std::string, std::string>{{"rw", "read"}}));
}

TEST(OptionScope, ACommandLineJobHasNoGlobalOptions) {
  JobSpec job;
  job.given_options = {{"bs", "8k"}};
  job.option_pos = {{"bs", {"", 0}}};
  EXPECT_TRUE(global_options_of(job).empty());
  EXPECT_EQ(own_options_of(job).size(), 1u);
}

}  // namespace
}  // namespace sluice
