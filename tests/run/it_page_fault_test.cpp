// page_fault (fio 3.41's engine): ios copy to and from an anonymous mapping of the job's size, so the first
// touch of each page faults; no file. Checked by the minor faults the job reports, and against fio's counts
// where the installed fio has the engine (Debian 12's 3.33 has not).
#include <gtest/gtest.h>

#include <string>

#include "support/it_test_util.h"
#include "support/machine_features.h"

namespace sluice::testing {
namespace {

nlohmann::json first_job(const RunOutput& r) {
  const std::size_t start = r.out.find('{');
  const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
  return doc ? (*doc)["jobs"][0] : nlohmann::json();
}

TEST(PageFault, EachFirstTouchOfAPageFaults) {
  const RunOutput r = run_as(
      "sluice", {"--name=p", "--ioengine=page_fault", "--size=16m", "--rw=write", "--bs=4k", "--output-format=json"});
  const nlohmann::json job = first_job(r);
  ASSERT_TRUE(job.is_object());
  EXPECT_EQ(job["error"].get<int>(), 0);
  EXPECT_EQ(total_ios(job, "write"), 4096u);
  EXPECT_GE(job["minf"].get<std::uint64_t>(), 4096u) << "16 MiB of first touches: a minor fault per 4 KiB page";
}

TEST(PageFault, OneMappingOnly) {
  expect_run_refused({"--name=p", "--ioengine=page_fault", "--size=16m", "--nrfiles=2"}, "multiple files");
  expect_run_refused({"--name=p", "--ioengine=page_fault", "--size=16m", "--offset=4k"}, "does not support an offset");
  expect_run_refused({"--name=p", "--ioengine=page_fault", "--rw=write"}, "needs --size or --filesize");
}

TEST(PageFault, CountsAsFio) {
  SLUICE_REQUIRE(kFio);
  RunOptions options;
  options.program = "fio";
  if (run_binary({"--enghelp"}, options).out.find("\tpage_fault\n") == std::string::npos) {
    GTEST_SKIP() << "the installed fio has no page_fault (fio 3.41+)";
  }
  for (const std::string program : {"fio", "sluice"}) {
    const RunOutput r = run_as(
        program, {"--name=p", "--ioengine=page_fault", "--size=8m", "--rw=randrw", "--bs=4k", "--output-format=json"});
    const nlohmann::json job = first_job(r);
    ASSERT_TRUE(job.is_object()) << program;
    EXPECT_EQ(total_ios(job, "read") + total_ios(job, "write"), 2048u) << program;
  }
}

}  // namespace
}  // namespace sluice::testing
