// significant_figures and unit_base in the normal output, next to fio 3.33 on the same null job: both print
// bandwidths in bit/s with at most N characters of number, IOPS with at most N (the numbers differ, the
// shapes must not). The fio half is skipped without fio.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"

namespace sluice::testing {
namespace {

const std::vector<std::string> kJob = {"--name=units", "--ioengine=null",         "--size=256m",  "--bs=4k",
                                       "--rw=read",    "--significant_figures=6", "--unit_base=1"};

struct Shapes {
  bool job_line = false, group_line = false;
  std::vector<std::string> numbers;  // IOPS, BW, BW (alternate base), group bw
};

Shapes shapes_of(const std::string& out) {
  Shapes s;
  static const std::regex job(
      R"(  read: IOPS=([0-9.]+)k?, BW=([0-9.]+)(?:[KMGT]i)?bit/s \(([0-9.]+)(?:[kMGT])?bit/s\))");
  static const std::regex group(
      R"(   READ: bw=([0-9.]+)(?:[KMGT]i)?bit/s \([0-9.]+(?:[kMGT])?bit/s\), .*, io=[0-9.]+[KMGT]iB)");
  std::smatch m;
  if (std::regex_search(out, m, job)) {
    s.job_line = true;
    s.numbers = {m[1], m[2], m[3]};
  }
  if (std::regex_search(out, m, group)) {
    s.group_line = true;
    s.numbers.push_back(m[1]);
  }
  return s;
}

void expect_shapes(const RunOutput& r, const char* tool) {
  ASSERT_EQ(r.exit_code, 0) << tool << ": " << describe(r);
  const Shapes s = shapes_of(r.out);
  EXPECT_TRUE(s.job_line) << tool << ":\n" << r.out;
  EXPECT_TRUE(s.group_line) << tool << ":\n" << r.out;
  for (const std::string& number : s.numbers) EXPECT_LE(number.size(), 6u) << tool << ": " << number;
}

TEST(NormalUnits, SluicePrintsBitsWithSixFigures) {
  std::vector<std::string> args = {"run"};
  args.insert(args.end(), kJob.begin(), kJob.end());
  expect_shapes(run_binary(args), "sluice");
}

TEST(NormalUnits, FioPrintsTheSameShapes) {
  SLUICE_REQUIRE(kFio);
  RunOptions options;
  options.program = "fio";
  expect_shapes(run_binary(kJob, options), "fio");
}

TEST(NormalUnits, UnitBaseDoesNotChangeTheJson) {
  std::vector<std::string> args = {"run", "--output-format=json"};
  args.insert(args.end(), kJob.begin(), kJob.end());
  const RunOutput r = run_binary(args);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto doc = parse_document(r.out);
  ASSERT_TRUE(doc.has_value()) << r.out;
  const nlohmann::json& read = (*doc)["jobs"][0]["read"];
  // bw stays KiB/s and io_bytes bytes, as fio's JSON.
  EXPECT_EQ(read["io_bytes"].get<std::uint64_t>(), 256ull << 20);
  EXPECT_EQ(read["bw"].get<std::uint64_t>(), read["bw_bytes"].get<std::uint64_t>() / 1024);
}

}  // namespace
}  // namespace sluice::testing
