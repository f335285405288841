// role=background (sluice extension) in job files and on the command line.
#include <gtest/gtest.h>

#include "common/error.h"
#include "job/job_file.h"
#include "job/option_table.h"

namespace sluice {
namespace {

TEST(RoleOption, JobFileSectionCanBeBackground) {
  JobFileSettings settings;
  settings.expansion.system = SystemValues{4, 4096, 2048};
  const std::vector<FileJob> jobs = parse_job_text(
      "[global]\nioengine=null\nsize=1m\n[db]\nrw=randwrite\n[copy]\nrw=write\nrole=background\n", "job.fio", settings);
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].spec.control.role, JobRole::kForeground);
  EXPECT_EQ(jobs[1].spec.control.role, JobRole::kBackground);
}

TEST(RoleOption, CommandLineValueIsApplied) {
  JobSpec job;
  apply_option(job, "role", "background", SourcePos{});
  EXPECT_EQ(job.control.role, JobRole::kBackground);
  apply_option(job, "role", "foreground", SourcePos{});
  EXPECT_EQ(job.control.role, JobRole::kForeground);
}

TEST(RoleOption, UnknownRoleIsRefusedWithChoices) {
  JobSpec job;
  try {
    apply_option(job, "role", "backgrund", SourcePos{});
    FAIL() << "accepted";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("background"), std::string::npos);
  }
}

}  // namespace
}  // namespace sluice
