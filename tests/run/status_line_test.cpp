#include "run/status_line.h"

#include <gtest/gtest.h>

namespace sluice {
namespace {

TEST(StatusLine, NamesElapsedEtaAndEachActiveDirection) {
  const std::string line =
      format_status(65'000'000'000ull, 5'000'000'000ull, {12345.0, 0.0, 0.0}, {48.0 * 1048576, 0, 0});
  EXPECT_EQ(line, "[01:05 elapsed, eta 00:05] read: 12.3k IOPS, 48.0 MiB/s");
}

TEST(StatusLine, UnknownEtaIsShownAsDashes) {
  const std::string line = format_status(1'000'000'000ull, 0, {0, 10.0, 0}, {0, 4096.0 * 10, 0});
  EXPECT_EQ(line, "[00:01 elapsed, eta --:--] write: 10 IOPS, 0.0 MiB/s");
}

TEST(StatusLine, ForcedLineIsActiveWithoutATerminal) {
  EXPECT_TRUE(StatusLine(true, true).active());
  EXPECT_FALSE(StatusLine(false, true).active());
}

}  // namespace
}  // namespace sluice
