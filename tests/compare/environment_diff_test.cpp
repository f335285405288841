#include "compare/environment_diff.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

nlohmann::json env_doc(const std::string& kernel, const std::string& scheduler, const std::string& iodepth) {
  return nlohmann::json::parse(R"({"jobs": [{"jobname": "j", "job options": {"rw": "randread", "iodepth": ")" +
                               iodepth +
                               R"(", "output-format": "json"}}], "sluice": {"version": "0.1.0", "environment": {
    "host": "vm", "kernel_release": ")" +
                               kernel + R"(", "cpu": {"model": "EPYC", "count": 2},
    "vm": {"dirty_bytes": 0, "dirty_ratio": 20},
    "targets": [{"path": "/t/f", "filesystem": "ext4", "mount_options": "rw,relatime"}],
    "devices": [{"name": "vda", "model": null, "scheduler": ")" +
                               scheduler + R"(", "wbt_lat_usec": 75000}]}}})");
}

TEST(EnvironmentDiff, ListsWhatDiffers) {
  const std::vector<Difference> d =
      environment_differences(env_doc("6.1", "mq-deadline", "1"), env_doc("6.18", "none", "1"));
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].what, "device vda scheduler");
  EXPECT_EQ(d[0].old_value, "mq-deadline");
  EXPECT_EQ(d[0].new_value, "none");
  EXPECT_EQ(d[1].what, "kernel_release");
}

TEST(EnvironmentDiff, SameEnvironmentHasNoDifferences) {
  EXPECT_TRUE(environment_differences(env_doc("6.1", "none", "1"), env_doc("6.1", "none", "32")).empty());
}

TEST(EnvironmentDiff, FioResultComparesOnlyTheVersion) {
  const nlohmann::json fio = nlohmann::json::parse(R"({"fio version": "fio-3.33", "jobs": []})");
  EXPECT_FALSE(has_environment(fio));
  const std::vector<Difference> d = environment_differences(fio, env_doc("6.1", "none", "1"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].what, "version");
  EXPECT_EQ(d[0].old_value, "fio-3.33");
}

TEST(EnvironmentDiff, JobOptionsThatDifferIgnoringOutputOptions) {
  nlohmann::json b = env_doc("6.1", "none", "32");
  b["jobs"][0]["job options"]["output-format"] = "normal";
  const std::vector<Difference> d = job_option_differences(env_doc("6.1", "none", "1"), b);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].what, "job j: iodepth");
  EXPECT_EQ(d[0].old_value, "1");
  EXPECT_EQ(d[0].new_value, "32");
  EXPECT_TRUE(job_option_differences(env_doc("6.1", "none", "1"), env_doc("6.2", "none", "1")).empty());
}

}  // namespace
}  // namespace sluice

namespace sluice {
namespace {

TEST(EnvironmentDiff, FioLeavesFlagsOutOfItsJobOptions) {
  const nlohmann::json fio = nlohmann::json::parse(R"({"jobs": [{"jobname": "j", "job options": {"rw": "read"}}]})");
  nlohmann::json own = nlohmann::json::parse(R"({"jobs": [{"jobname": "j", "job options": {"rw": "read",
    "time_based": ""}}], "sluice": {}})");
  EXPECT_TRUE(job_option_differences(fio, own).empty());
  own["jobs"][0]["job options"]["time_based"] = "1";
  EXPECT_EQ(job_option_differences(fio, own).size(), 1u);
  nlohmann::json other = own;
  other["jobs"][0]["job options"].erase("time_based");
  EXPECT_EQ(job_option_differences(other, own).size(), 1u);  // between two sluice runs a flag counts
}

}  // namespace
}  // namespace sluice
