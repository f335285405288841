// zonemode, zonesize, zonerange, zoneskip: parsing and fio 3.33's checks (init.c), plus a zone that holds
// no io.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "job/validate.h"
#include "job_with.h"

namespace sluice {
namespace {

using ::testing::HasSubstr;

std::vector<Problem> problems_about(const std::vector<Problem>& problems, const std::string& option) {
  std::vector<Problem> matching;
  for (const Problem& p : problems) {
    if (p.option == option) matching.push_back(p);
  }
  return matching;
}

TEST(ZoneOptions, StridedSetsTheZoneGeometry) {
  const JobSpec job =
      testing::job_with({{"zonemode", "strided"}, {"zonesize", "256m"}, {"zonerange", "1g"}, {"zoneskip", "2g"}});
  EXPECT_TRUE(job.zone_strided);
  EXPECT_EQ(job.zone_size, 256ull << 20);
  EXPECT_EQ(job.zone_range, 1ull << 30);
  EXPECT_EQ(job.zone_skip, 2ull << 30);
  EXPECT_TRUE(validate(job).empty());
}

TEST(ZoneOptions, ZbdIsRefusedByName) {
  try {
    testing::job_with({{"zonemode", "zbd"}});
    FAIL() << "zonemode=zbd was accepted";
  } catch (const UserError& e) {
    EXPECT_THAT(e.what(), HasSubstr("zone write pointers, of zoned block devices or emulated on files as fio "
                                    "does, are not implemented"));
  }
  EXPECT_THROW(testing::job_with({{"zonemode", "stried"}}), UserError);
}

TEST(ZoneOptions, ZonesizeWithoutStridedIsAnErrorAsInFio) {
  const auto found = problems_about(validate(testing::job_with({{"zonesize", "1m"}})), "zonesize");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Problem::Severity::kError);
  EXPECT_THAT(found[0].message, HasSubstr("zonemode=none and zonesize are not compatible"));
}

TEST(ZoneOptions, StridedNeedsZonesize) {
  const auto found = problems_about(validate(testing::job_with({{"zonemode", "strided"}})), "zonemode");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Problem::Severity::kError);
  EXPECT_THAT(found[0].message, HasSubstr("needs zonesize"));
}

TEST(ZoneOptions, AZoneSmallerThanABlockIsAnError) {
  const auto found = problems_about(
      validate(testing::job_with({{"zonemode", "strided"}, {"zonesize", "1m"}, {"zonerange", "4k"}, {"bs", "64k"}})),
      "zonerange");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_THAT(found[0].message, HasSubstr("cannot hold one 65536-byte read"));
}

TEST(ZoneOptions, SkipWithoutZonesIsIgnoredWithAWarning) {
  const auto found = problems_about(validate(testing::job_with({{"zoneskip", "1m"}})), "zoneskip");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Problem::Severity::kWarning);
}

TEST(ZoneOptions, MoreThanOneFileIgnoresZonesWithAWarning) {
  const auto found = problems_about(
      validate(testing::job_with({{"zonemode", "strided"}, {"zonesize", "1m"}, {"nrfiles", "2"}})), "zonemode");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Problem::Severity::kWarning);
  EXPECT_THAT(found[0].message, HasSubstr("ignored"));
}

}  // namespace
}  // namespace sluice
