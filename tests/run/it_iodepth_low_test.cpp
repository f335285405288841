// iodepth_low next to fio 3.33: with libaio at iodepth=16, a full queue is reaped down to iodepth_low before
// it is refilled (fio's wait_for_completions), so most ios are submitted at a depth of 8 or less with
// iodepth_low=4 and nearly all at 16 without it, in both tools ("iodepth_level" in the JSON). The exact
// shares differ: sluice refills in groups of 4, fio one io at a time. Skips without fio.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/it_test_util.h"
#include "support/machine_features.h"
#include "support/temp_dir.h"

namespace sluice::testing {
namespace {

// Percent of submissions at a depth of at most 8, and at 9-16.
std::pair<double, double> low_and_full(const RunOutput& r) {
  const std::size_t start = r.out.find("{\n");
  const auto doc = parse_document(start == std::string::npos ? r.out : r.out.substr(start));
  if (!doc) return {0, 0};
  const nlohmann::json& levels = (*doc)["jobs"][0]["iodepth_level"];
  double low = 0;
  for (const char* key : {"1", "2", "4", "8"}) low += levels[key].get<double>();
  return {low, levels["16"].get<double>()};
}

TEST(IodepthLow, AFullQueueDrainsToTheLowWatermarkAsInFio) {
  SLUICE_REQUIRE(kFio);
  TempDir tmp;
  {
    std::ofstream out(tmp.file("f"), std::ios::binary);
    out << std::string(8 << 20, 'q');
  }
  auto run = [&](const std::string& program, const std::string& low) {
    std::vector<std::string> args = {"--name=d",
                                     "--filename=" + tmp.file("f"),
                                     "--rw=randread",
                                     "--bs=4k",
                                     "--ioengine=libaio",
                                     "--iodepth=16",
                                     "--iodepth_low=" + low,
                                     "--number_ios=2000",
                                     "--output-format=json"};
    return low_and_full(run_as(program, args));
  };
  for (const std::string program : {"fio", "sluice"}) {
    const auto [low_share, full_share] = run(program, "4");
    EXPECT_GT(low_share, 50.0) << program;
    const auto [kept_low, kept_full] = run(program, "16");
    EXPECT_LT(kept_low, 5.0) << program;
    EXPECT_GT(kept_full, 95.0) << program;
  }
}

}  // namespace
}  // namespace sluice::testing
