// zonemode, zonesize, zonerange, zoneskip and zonemode=zbd's options: parsing and fio 3.33's checks (init.c,
// zbd.c), plus a zone that holds no io.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "job/option_builders.h"
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

// A job with `options` applied in order and finished as a parsed job file's (Nz sizes resolved).
JobSpec parsed_job(const std::vector<std::pair<std::string, std::string>>& options) {
  JobSpec job;
  job.name = "j";
  for (const auto& [name, value] : options) apply_option(job, name, value, SourcePos{});
  detail::finish_parsed_job(job);
  return job;
}

TEST(ZoneOptions, StridedSetsTheZoneGeometry) {
  const JobSpec job =
      testing::job_with({{"zonemode", "strided"}, {"zonesize", "256m"}, {"zonerange", "1g"}, {"zoneskip", "2g"}});
  EXPECT_TRUE(job.zones.zone_strided);
  EXPECT_EQ(job.zones.zone_size, 256ull << 20);
  EXPECT_EQ(job.zones.zone_range, 1ull << 30);
  EXPECT_EQ(job.zones.zone_skip, 2ull << 30);
  EXPECT_TRUE(validate(job).empty());
}

TEST(ZoneOptions, ZbdSetsTheZonesAndTheirLimits) {
  const JobSpec job = testing::job_with({{"zonemode", "zbd"},
                                         {"zonesize", "256m"},
                                         {"zonecapacity", "200m"},
                                         {"max_open_zones", "32"},
                                         {"job_max_open_zones", "4"},
                                         {"read_beyond_wp", "1"},
                                         {"zone_reset_threshold", "0.7"},
                                         {"zone_reset_frequency", "0.25"},
                                         {"ignore_zone_limits", "1"},
                                         {"rw", "randwrite"},
                                         {"bs", "512k"}});
  EXPECT_TRUE(job.zones.zone_zbd);
  EXPECT_FALSE(job.zones.zone_strided);
  EXPECT_EQ(job.zones.zone_capacity, 200ull << 20);
  EXPECT_EQ(job.zones.max_open_zones, 32u);
  EXPECT_EQ(job.zones.job_max_open_zones, 4u);
  EXPECT_TRUE(job.zones.read_beyond_wp);
  EXPECT_DOUBLE_EQ(job.zones.zone_reset_threshold, 0.7);
  EXPECT_DOUBLE_EQ(job.zones.zone_reset_frequency, 0.25);
  EXPECT_TRUE(validate(job).empty());
  EXPECT_THROW(testing::job_with({{"zonemode", "stried"}}), UserError);
  EXPECT_THROW(testing::job_with({{"zone_reset_threshold", "1.5"}}), UserError);
  EXPECT_THROW(testing::job_with({{"max_open_zones", "4097"}}), UserError);  // fio's ZBD_MAX_OPEN_ZONES
}

TEST(ZoneOptions, ZbdChecksAsFio) {
  auto error_about = [](std::vector<std::pair<std::string, std::string>> options, const std::string& option,
                        const std::string& text) {
    options.emplace_back("zonemode", "zbd");
    const auto found = problems_about(validate(parsed_job(options)), option);
    ASSERT_EQ(found.size(), 1u) << text;
    EXPECT_EQ(found[0].severity, Problem::Severity::kError);
    EXPECT_THAT(found[0].message, HasSubstr(text));
  };
  error_about({}, "zonemode", "needs zonesize");
  error_about({{"zonesize", "256"}}, "zonesize", "at least 512 bytes");
  error_about({{"zonesize", "1m"}, {"zonecapacity", "2m"}}, "zonecapacity", "larger than zonesize");
  error_about({{"zonesize", "1m"}, {"zoneskip", "1536k"}}, "zoneskip", "not a multiple of zonesize");
  error_about({{"zonesize", "64k"}, {"rw", "write"}, {"bs", "128k"}}, "bs", "larger than zonesize");
  error_about({{"zonesize", "1m"}, {"rw", "trim"}, {"bs", "64k"}}, "bs", "is not the zone size");
  error_about({{"zonesize", "1m"}, {"rw", "randtrim"}, {"bsrange", "1m-2m"}}, "bs", "not allowed for trims");
  error_about({{"zonesize", "1m"}, {"rw", "write"}, {"bs", "384k"}, {"verify", "crc32c"}}, "bs",
              "not a divisor of zonesize");
  error_about({{"zonesize", "1m"}, {"rw", "randrmw"}}, "rw", "write pointer");
}

TEST(ZoneOptions, ZbdOptionsWithoutZbdAreIgnoredWithAWarning) {
  const auto found = problems_about(validate(testing::job_with({{"max_open_zones", "4"}})), "max_open_zones");
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].severity, Problem::Severity::kWarning);
}

TEST(ZoneOptions, SizesInZonesAreZonesizeMultiples) {
  const JobSpec job = parsed_job({{"zonemode", "zbd"},
                                  {"size", "10z"},
                                  {"zonesize", "4m"},
                                  {"io_size", "3z"},
                                  {"offset", "2z"},
                                  {"offset_increment", "1z"},
                                  {"zoneskip", "2z"}});
  EXPECT_EQ(job.target.size.bytes, 40ull << 20);  // zonesize given after size: the zones count once it is known
  EXPECT_EQ(job.time.io_size, 12ull << 20);
  EXPECT_EQ(job.target.offset.bytes, 8ull << 20);
  EXPECT_EQ(job.target.offset_increment, 4ull << 20);
  EXPECT_EQ(job.zones.zone_skip, 8ull << 20);
  EXPECT_THROW(parsed_job({{"size", "10z"}}), UserError);  // no zonesize
  EXPECT_THROW(parsed_job({{"size", "1xz"}}), UserError);
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
