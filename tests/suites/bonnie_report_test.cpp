// bonnie++ 2.00a's report layout, CSV fields and +++++ rule, from phases with known times.
#include "suites/bonnie_report.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace sluice {
namespace {

BonniePhase phase(double seconds, double cpu, double latency) {
  BonniePhase p;
  p.ran = true;
  p.seconds = seconds;
  p.cpu_seconds = cpu;
  p.max_latency = latency;
  return p;
}

std::size_t fields(const std::string& line) {
  std::size_t n = 1;
  for (char c : line) n += c == ',' ? 1 : 0;
  return n;
}

TEST(BonnieReport, PhaseUnderHalfASecondIsTooFastToTime) {
  EXPECT_EQ(bonnie_rate_cells(BonnieTest::kBlockWrite, phase(0.49, 0.4, 0), 65536, true), " +++++ +++");
  EXPECT_EQ(bonnie_rate_cells(BonnieTest::kBlockWrite, phase(0.49, 0.4, 0), 65536, false), ",+++++,+++");
  EXPECT_EQ(bonnie_rate_cells(BonnieTest::kBlockWrite, BonniePhase{}, 65536, true), "          ");
  EXPECT_EQ(bonnie_rate_cells(BonnieTest::kBlockWrite, BonniePhase{}, 65536, false), ",,");
}

TEST(BonnieReport, RatesUseBonnieSuffixesAndCpuIsTruncated) {
  // 3072 KiB in 3.038 s = 1011 KiB/s, CPU 72.9 % -> 72
  EXPECT_EQ(bonnie_rate_cells(BonnieTest::kByteWrite, phase(3.038, 2.216, 0), 3072, true), " 1011k  72");
  EXPECT_EQ(bonnie_rate_cells(BonnieTest::kByteWrite, phase(3.038, 2.216, 0), 3072, false), ",1011,72");
  // 65536 KiB in 1 s = 64.0 MiB/s; 200 MiB/s; 2 GiB/s
  EXPECT_EQ(bonnie_rate_cells(BonnieTest::kBlockRead, phase(1, 0.5, 0), 65536, true), " 64.0m  50");
  EXPECT_EQ(bonnie_rate_cells(BonnieTest::kBlockRead, phase(1, 0.5, 0), 204800, true), "  200m  50");
  EXPECT_EQ(bonnie_rate_cells(BonnieTest::kBlockRead, phase(1, 1, 0), 2097152, true), "  2.0g 100");
  EXPECT_EQ(bonnie_rate_cells(BonnieTest::kSeeks, phase(2, 0.1, 0), 8192, true), "  4096   5");
  EXPECT_EQ(bonnie_rate_cells(BonnieTest::kSeeks, phase(20, 0.1, 0), 8192, true), " 409.6   0");
  EXPECT_EQ(bonnie_rate_cells(BonnieTest::kSeeks, phase(20, 0.1, 0), 8192, false), ",409.6,0");
  EXPECT_EQ(bonnie_rate_cells(BonnieTest::kCreateSeq, phase(0.75, 0.27, 0), 1024, true), "  1365  36");
}

TEST(BonnieReport, LatencyUnits) {
  EXPECT_EQ(bonnie_latency(0), "");
  EXPECT_EQ(bonnie_latency(0.019756), "19756us");
  EXPECT_EQ(bonnie_latency(0.16), "160ms");
  EXPECT_EQ(bonnie_latency(101.5), "101s");
}

BonnieResult sample_result() {
  BonnieResult r;
  r.machine = "sluicehost";
  r.seed = 1796064605;
  r.phases[0] = phase(3.038, 2.216, 0.019756);
  for (std::size_t i = 1; i < kBonnieTestCount; ++i)
    r.phases[i] = phase(0.2, 0.1, 0.0040955);  // printed truncated, as bonnie++ does: 4095us
  r.phases[6] = phase(0.75, 0.27, 0.010437);
  return r;
}

TEST(BonnieReport, TextLayoutMatchesBonnie200a) {
  BonnieOptions o;
  o.size_mib = 64;
  o.files = 1;
  const std::string text = render_bonnie_text(o, sample_result());
  const std::string expected =
      "Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-\n"
      "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
      "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
      "sluicehost      64M 1011k  72 +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++\n"
      "Latency             19756us    4095us    4095us    4095us    4095us    4095us\n"
      "Version 2.00a       ------Sequential Create------ --------Random Create--------\n"
      "sluicehost          -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
      "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
      "                  1  1365  36 +++++ +++ +++++ +++ +++++ +++ +++++ +++ +++++ +++\n"
      "Latency             10437us    4095us    4095us    4095us    4095us    4095us\n";
  EXPECT_EQ(text, expected);
}

TEST(BonnieReport, CsvHasBonnieFieldOrder) {
  BonnieOptions o;
  o.size_mib = 64;
  o.files = 1;
  const std::string csv = render_bonnie_csv(o, sample_result());
  EXPECT_EQ(csv,
            "1.98,2.00a,sluicehost,1,1796064605,64M,,8192,5,1011,72,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,"
            "+++,1,,,,,1365,36,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,19756us,4095us,4095us,4095us,"
            "4095us,4095us,10437us,4095us,4095us,4095us,4095us,4095us\n");
  EXPECT_EQ(fields(csv), 50u);
  BonnieOptions files_only = o;
  files_only.size_mib = 0;
  BonnieResult r = sample_result();
  for (std::size_t i = 0; i < 6; ++i) r.phases[i] = BonniePhase{};
  const std::string line = render_bonnie_csv(files_only, r);
  EXPECT_EQ(fields(line), 50u);
  EXPECT_EQ(line.substr(0, 40), "1.98,2.00a,sluicehost,1,1796064605,,,,,,");
  EXPECT_EQ(fields(bonnie_csv_header()), 48u);  // 2.00a's header is still format 1.97's
}

TEST(BonnieReport, JsonHasEveryPhaseThatRan) {
  BonnieOptions o;
  o.size_mib = 64;
  o.files = 1;
  const nlohmann::json j = bonnie_json(o, sample_result());
  ASSERT_EQ(j["phases"].size(), 12u);
  EXPECT_NEAR(j["phases"]["putc"]["rate"].get<double>(), 3072 / 3.038, 1e-9);
  EXPECT_EQ(j["phases"]["putc"]["rate_unit"], "KiB/s");
  EXPECT_FALSE(j["phases"]["putc"]["too_fast_to_time"].get<bool>());
  EXPECT_TRUE(j["phases"]["seeks"]["too_fast_to_time"].get<bool>());
  EXPECT_NEAR(j["phases"]["seq_create"]["max_latency_us"].get<double>(), 10437, 1e-6);
}

}  // namespace
}  // namespace sluice
