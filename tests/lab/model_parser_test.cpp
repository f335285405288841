#include "lab/model_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace sluice {
namespace {

using ::testing::HasSubstr;
using namespace std::chrono_literals;

std::string parse_error_of(const std::string& text) {
  try {
    parse_model(text, "m.model", "m");
  } catch (const UserError& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted:\n" << text;
  return "";
}

TEST(ModelParser, ReadsKeysCommentsAndBlankLines) {
  const ModelSpec m = parse_model(
      "# a comment\n\n  servers = 4   # trailing comment\nread_time = 0.8ms\ntransfer_rate = 200MiB/s\n"
      "description = disk#2 of the shelf\n",
      "m.model", "m");
  EXPECT_EQ(m.name, "m");
  EXPECT_EQ(m.servers, 4u);
  EXPECT_EQ(m.read_time, 800us);
  EXPECT_DOUBLE_EQ(m.transfer_bytes_per_s, 200.0 * 1024 * 1024);
  EXPECT_EQ(m.description, "disk#2 of the shelf");
}

TEST(ModelParser, WriteTimeDefaultsToReadTime) {
  EXPECT_EQ(parse_model("read_time = 2ms\n", "m.model", "m").write_time, 2ms);
  EXPECT_EQ(parse_model("read_time = 2ms\nwrite_time = 3ms\n", "m.model", "m").write_time, 3ms);
}

TEST(ModelParser, CliffAsAMultipleOfSizeIsResolved) {
  const ModelSpec m =
      parse_model("cliff_after = 1.5x\nread_time = 1ms\nsize = 2g\ncliff_write_time = 3ms\n", "m.model", "m");
  EXPECT_EQ(m.cliff_after_bytes, std::uint64_t{3} << 30);
  EXPECT_EQ(m.cliff_write_time, 3ms);
}

// A lab serves the size it was brought up with: a cliff given as a multiple moves with it (the selftest found a
// 256 MiB ssd-cliff lab still fresh after 620 MiB written: its cliff sat at 1.5 x the preset's 4 GiB).
TEST(ModelParser, ACliffGivenAsAMultipleFollowsTheServedSize) {
  ModelSpec m = parse_model("cliff_after = 1.5x\nread_time = 1ms\ncliff_write_time = 3ms\n", "m.model", "m");
  m.resize(std::uint64_t{256} << 20);
  EXPECT_EQ(m.cliff_after_bytes, std::uint64_t{384} << 20);
  ModelSpec bytes = parse_model("cliff_after = 1g\nread_time = 1ms\ncliff_write_time = 3ms\n", "m.model", "m");
  bytes.resize(std::uint64_t{256} << 20);
  EXPECT_EQ(bytes.cliff_after_bytes, std::uint64_t{1} << 30);  // given in bytes: stays
}

TEST(ModelParser, UnknownKeyNamesFileLineAndTheNearestKey) {
  EXPECT_EQ(parse_error_of("read_time = 1ms\nsever = 4\n"), "m.model:2: unknown key 'sever'; did you mean 'servers'?");
  EXPECT_THAT(parse_error_of("read_time = 1ms\nzzzzzzzzzzzz = 4\n"),
              HasSubstr("m.model:2: unknown key 'zzzzzzzzzzzz' (the nearest is '"));
}

TEST(ModelParser, LineWithoutEqualsSign) {
  EXPECT_EQ(parse_error_of("read_time = 1ms\n\nservers 4\n"), "m.model:3: 'servers 4': write key = value");
}

TEST(ModelParser, KeyGivenTwice) {
  EXPECT_EQ(parse_error_of("read_time = 1ms\nservers = 2\nservers = 4\n"),
            "m.model:3: servers given twice (first on line 2)");
}

TEST(ModelParser, ValuesAreCheckedAgainstTheirType) {
  EXPECT_EQ(parse_error_of("read_time = 5\n"), "m.model:1: read_time = 5: a duration needs a unit, e.g. 0.8ms, 250us");
  EXPECT_THAT(parse_error_of("read_time = 1ms\nbandwidth = 250MiB\n"),
              HasSubstr("m.model:2: bandwidth = 250MiB: not a rate"));
  EXPECT_THAT(parse_error_of("read_time = 1ms\nservers = four\n"),
              HasSubstr("m.model:2: servers = four: not an integer"));
  EXPECT_THAT(parse_error_of("read_time = 1ms\nwrite_cache = writeback\n"),
              HasSubstr("m.model:2: write_cache = writeback: not one of none, write-through, write-back; did you mean "
                        "write-back?"));
  EXPECT_THAT(parse_error_of("read_time = 1ms\nservers =\n"), HasSubstr("m.model:2: servers: no value after '='"));
}

TEST(ModelParser, EveryErrorIsReportedNotOnlyTheFirst) {
  const std::string error = parse_error_of("sever = 4\nread_time = 1ms\nrpm = fast\n");
  EXPECT_THAT(error, HasSubstr("m.model:1: unknown key 'sever'"));
  EXPECT_THAT(error, HasSubstr("\nm.model:3: rpm = fast: not an integer"));
}

TEST(ModelValidation, ReadTimeIsRequired) {
  EXPECT_EQ(parse_error_of("servers = 2\n"), "m.model: no read_time: every model needs one, e.g. read_time = 0.8ms");
}

TEST(ModelValidation, WriteBackNeedsADestageRateAndACacheSize) {
  const std::string error = parse_error_of("read_time = 1ms\n\nwrite_cache = write-back\n");
  EXPECT_THAT(error, HasSubstr("m.model:3: write_cache = write-back needs destage_rate"));
  EXPECT_THAT(error, HasSubstr("m.model:3: write_cache = write-back needs cache_size"));
}

TEST(ModelValidation, CacheKeysNeedWriteBackAndSeeksNeedRpm) {
  EXPECT_EQ(parse_error_of("read_time = 1ms\nbattery = yes\n"),
            "m.model:2: battery applies only with write_cache = write-back");
  EXPECT_EQ(parse_error_of("read_time = 1ms\nseek_full = 8ms\n"),
            "m.model:2: seek_full applies only with rpm (rotating media)");
  EXPECT_THAT(parse_error_of("read_time = 1ms\nrpm = 7200\nseek_track = 2ms\nseek_full = 1ms\n"),
              HasSubstr("m.model:4: seek_full is shorter than seek_track"));
}

TEST(ModelValidation, CliffKeysGoTogetherAndJitterNeedsAFraction) {
  EXPECT_THAT(parse_error_of("read_time = 1ms\ncliff_after = 6g\n"),
              HasSubstr("m.model:2: cliff_after and cliff_write_time go together"));
  EXPECT_THAT(parse_error_of("read_time = 1ms\njitter = uniform\n"),
              HasSubstr("m.model:2: jitter needs jitter_fraction above 0% and at most 100%"));
  EXPECT_EQ(parse_error_of("read_time = 1ms\njitter_fraction = 5%\n"),
            "m.model:2: jitter_fraction applies only with jitter = uniform or exponential");
}

}  // namespace
}  // namespace sluice
