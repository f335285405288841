#include "workload/iolog.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "common/error.h"

namespace sluice {
namespace {

IoLog parse(const std::string& text, const ReplaySettings& settings = {}) {
  std::istringstream in(text);
  return parse_iolog(in, "t.log", settings);
}

std::string error_of(const std::string& text, const ReplaySettings& settings = {}) {
  try {
    (void)parse(text, settings);
  } catch (const UserError& e) {
    return e.what();
  }
  return "";
}

// The log fio 3.33 wrote for a 64 KiB randrw job (its timestamps, files and ios, shortened).
constexpr const char* kFioV3 =
    "fio version 3 iolog\n"
    "136 /tmp/f add\n"
    "511 /tmp/f open\n"
    "536 /tmp/f read 0 4096\n"
    "3021 /tmp/f read 45056 4096\n"
    "6838 /tmp/f write 28672 8192\n"
    "6874 /tmp/f sync 0 0\n"
    "7000 /tmp/f trim 4096 4096\n"
    "8455 /tmp/f close\n";

TEST(IoLog, ReadsFioVersion3WithDelaysBetweenLines) {
  const IoLog log = parse(kFioV3);
  EXPECT_EQ(log.version, 3);
  ASSERT_EQ(log.files, std::vector<std::string>{"/tmp/f"});
  ASSERT_EQ(log.entries.size(), 5u);
  EXPECT_EQ(log.entries[0].kind, IoLogEntry::Kind::kRead);
  // The first timed line has no delay; then each line waits its timestamp's difference, file lines included.
  EXPECT_EQ(log.entries[0].delay_us, (511 - 136) + (536 - 511));
  EXPECT_EQ(log.entries[1].delay_us, 3021u - 536u);
  EXPECT_EQ(log.entries[1].offset, 45056u);
  EXPECT_EQ(log.entries[2].kind, IoLogEntry::Kind::kWrite);
  EXPECT_EQ(log.entries[2].length, 8192u);
  EXPECT_EQ(log.entries[3].kind, IoLogEntry::Kind::kSync);
  EXPECT_EQ(log.entries[4].kind, IoLogEntry::Kind::kTrim);
  EXPECT_EQ(log.reads, 2u);
  EXPECT_EQ(log.writes, 1u);
  EXPECT_EQ(log.trims, 1u);
  EXPECT_EQ(log.syncs, 1u);
  EXPECT_EQ(log.bytes, 4096u * 3 + 8192u);
  EXPECT_EQ(log.extents[0], 45056u + 4096u);
  EXPECT_EQ(log.max_length[0], 4096u);
  EXPECT_EQ(log.max_length[1], 8192u);
}

TEST(IoLog, NoStallAndTimeScaleChangeTheDelays) {
  ReplaySettings fast;
  fast.no_stall = true;
  for (const IoLogEntry& e : parse(kFioV3, fast).entries) EXPECT_EQ(e.delay_us, 0u);
  ReplaySettings twice;
  twice.time_scale = 200;
  EXPECT_EQ(parse(kFioV3, twice).entries[1].delay_us, (3021u - 536u) / 2);
  ReplaySettings half;
  half.time_scale = 50;
  EXPECT_EQ(parse(kFioV3, half).entries[1].delay_us, (3021u - 536u) * 2);
}

TEST(IoLog, AClockGoingBackGivesNoDelay) {
  const IoLog log = parse("fio version 3 iolog\n5 f add\n100 f read 0 512\n50 f read 512 512\n80 f read 0 512\n");
  EXPECT_EQ(log.entries[1].delay_us, 0u);
  EXPECT_EQ(log.entries[2].delay_us, 30u);
}

TEST(IoLog, ReadsVersion2WithWaits) {
  const IoLog log = parse("fio version 2 iolog\nf add\nf open\nf write 0 4096\nf wait 250 0\nf read 0 4096\n");
  EXPECT_EQ(log.version, 2);
  ASSERT_EQ(log.entries.size(), 3u);
  EXPECT_EQ(log.entries[1].kind, IoLogEntry::Kind::kWait);
  EXPECT_EQ(log.entries[1].offset, 250u);  // milliseconds after the start, as fio 3.33's code reads it
  ReplaySettings fast;
  fast.no_stall = true;
  EXPECT_EQ(parse("fio version 2 iolog\nf add\nf wait 250 0\nf read 0 4096\n", fast).entries.size(), 1u);
}

TEST(IoLog, ScaleAlignSkipAndRedirect) {
  ReplaySettings s;
  s.scale = 4;
  s.align = 4096;
  s.skip_write = true;
  s.redirect = "/dev/other";
  const IoLog log = parse(
      "fio version 3 iolog\n0 a add\n0 b add\n10 a read 65536 4096\n20 b write 0 4096\n"
      "30 b read 20000 512\n",
      s);
  ASSERT_EQ(log.files, std::vector<std::string>{"/dev/other"});
  ASSERT_EQ(log.entries.size(), 2u);
  EXPECT_EQ(log.entries[0].offset, 16384u);
  EXPECT_EQ(log.entries[1].offset, 4096u);  // 20000 / 4 = 5000, aligned down
  EXPECT_EQ(log.entries[1].file, 0u);
  EXPECT_EQ(log.writes, 0u);
  // The skipped write's own 10 us are not replayed (fio computes them, then drops the line).
  EXPECT_EQ(log.entries[1].delay_us, 10u);
}

TEST(IoLog, SeveralFilesKeepTheirOrderAndExtents) {
  const IoLog log = parse("fio version 2 iolog\nb add\na add\na read 8192 4096\nb read 0 512\n");
  ASSERT_EQ(log.files, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(log.entries[0].file, 1u);
  EXPECT_EQ(log.extents[0], 512u);
  EXPECT_EQ(log.extents[1], 12288u);
}

TEST(IoLog, BadInputNamesTheLineAndWhatIsWrong) {
  EXPECT_EQ(error_of(""), "t.log: the log is empty; it must start with \"fio version 3 iolog\"");
  EXPECT_NE(error_of("fio version 1 iolog\n").find("t.log:1: not a fio iolog"), std::string::npos);
  EXPECT_NE(error_of("fio version 2 iolog\nf add\nf reed 0 4096\n").find("t.log:3: unknown io action 'reed'"),
            std::string::npos);
  EXPECT_NE(error_of("fio version 2 iolog\nf read 0 4096\n").find("t.log:2: io on f, which the log did not add"),
            std::string::npos);
  EXPECT_NE(error_of("fio version 2 iolog\nf add\nf read x 4096\n").find("t.log:3: 'x' is not a byte offset"),
            std::string::npos);
  EXPECT_NE(error_of("fio version 3 iolog\n0 f add\n1 f wait 5 0\n").find("t.log:3: \"wait\" is not allowed"),
            std::string::npos);
  EXPECT_NE(error_of("fio version 3 iolog\n0 f add\n1 f read 0\n").find("t.log:3: expected"), std::string::npos);
  EXPECT_NE(error_of("fio version 2 iolog\nf add\nf read 0 0\n").find("t.log:3: an io of 0 bytes"), std::string::npos);
  EXPECT_NE(error_of("fio version 2 iolog\nf add\nf read 0 999999999\n").find("at most 64 MiB"), std::string::npos);
  EXPECT_NE(error_of("fio version 2 iolog\nf add\nf read 18446744073709551000 4096\n").find("beyond any file"),
            std::string::npos);
  EXPECT_NE(error_of("fio version 2 iolog\nf add\nf open\n").find("t.log: the log holds no io"), std::string::npos);
  EXPECT_NE(error_of("fio version 2 iolog\nf add\nf rename\n").find("t.log:3: unknown file action 'rename'"),
            std::string::npos);
}

TEST(IoLog, AWaitOfMoreThanADayIsRefusedEvenScaled) {
  EXPECT_NE(error_of("fio version 3 iolog\n1 f add\n90000000001 f read 0 4096\n").find("t.log:3: a wait of"),
            std::string::npos);
  ReplaySettings slow;
  slow.time_scale = 7;  // 100/7 times slower: a fuzzer's finding overflowed the scaled wait
  EXPECT_NE(error_of("fio version 3 iolog\n1 f add\n9223372036854775807 f read 0 4096\n", slow).find("more than a day"),
            std::string::npos);
  ReplaySettings fast;
  fast.no_stall = true;
  EXPECT_EQ(parse("fio version 3 iolog\n1 f add\n90000000001 f read 0 4096\n", fast).reads, 1u);
}

TEST(IoLog, ASecondRunAppendedToTheFileReplaysAfterTheFirst) {
  const IoLog log = parse(
      "fio version 3 iolog\n0 f add\n5 f read 0 4096\n900 f close\n"
      "fio version 3 iolog\n0 f add\n7 f read 4096 4096\n");
  ASSERT_EQ(log.entries.size(), 2u);
  EXPECT_EQ(log.entries[1].offset, 4096u);
  // The first run's close line's 895 us pass before it; its own clock starts again at 0 (as fio's rule: no
  // wait when time goes back, nor right after a time of 0).
  EXPECT_EQ(log.entries[1].delay_us, 895u);
  ASSERT_EQ(log.files.size(), 1u);
}

TEST(IoLog, TrimsMayBeLongerThanReadsAndWrites) {
  const IoLog log = parse("fio version 2 iolog\nf add\nf trim 0 1073741824\n");
  EXPECT_EQ(log.max_length[2], 1073741824u);
  EXPECT_NE(error_of("fio version 2 iolog\nf add\nf write 0 1073741824\n").find("at most 64 MiB"), std::string::npos);
  EXPECT_NE(error_of("fio version 2 iolog\nf add\nf trim 0 4294967296\n").find("less than 4 GiB"), std::string::npos);
}

TEST(IoLog, BlankLinesAndCarriageReturnsAreAccepted) {
  const IoLog log = parse("fio version 2 iolog\r\n\nf add\r\n  \nf read 0 4096\r\n");
  EXPECT_EQ(log.reads, 1u);
}

}  // namespace
}  // namespace sluice
