#include "workload/blktrace.h"

#include <gtest/gtest.h>
#include <linux/blktrace_api.h>

#include <sstream>
#include <string>

#include "common/error.h"
#include "support/blktrace_writer.h"

namespace sluice {
namespace {

using testing::kDevice;
using testing::Trace;

std::string named(unsigned major, unsigned minor) { return major == 8 && minor == 16 ? "/dev/sdb" : ""; }

IoLog parse_blktrace(const std::string& bytes, const ReplaySettings& settings = {}) {
  std::istringstream in(bytes);
  return parse_blktrace(in, "t.bin", settings, named);
}

TEST(Blktrace, QueueEventsBecomeIosWithTheirDelaysAndTheDepthIsProbed) {
  Trace t;
  t.queue_read(1'000'000, 8, 4096)
      .event(BLK_TA_ISSUE | BLK_TC_ACT(BLK_TC_READ), 1'100'000, 8, 4096)  // not a queue event
      .queue_read(1'500'000, 16, 8192)
      .queue_write(3'500'000, 100, 4096)
      .complete_read(4'000'000, 8, 4096)
      .event(BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_WRITE | BLK_TC_DISCARD), 5'000'000, 200, 65536)
      .event(BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_WRITE | BLK_TC_FLUSH), 6'000'000, 0, 0)
      .queue_read(7'000'000, 0, 0);  // zero bytes: ignored, as fio
  EXPECT_TRUE(looks_like_blktrace(t.bytes()));
  const IoLog log = parse_blktrace(t.bytes());
  ASSERT_EQ(log.files, std::vector<std::string>{"/dev/sdb"});
  ASSERT_EQ(log.entries.size(), 5u);
  EXPECT_EQ(log.entries[0].kind, IoLogEntry::Kind::kRead);
  EXPECT_EQ(log.entries[0].offset, 8u * 512);
  EXPECT_EQ(log.entries[0].delay_us, 0u);
  EXPECT_EQ(log.entries[1].offset, 16u * 512);
  EXPECT_EQ(log.entries[1].length, 8192u);
  EXPECT_EQ(log.entries[1].delay_us, 500u);
  EXPECT_EQ(log.entries[2].kind, IoLogEntry::Kind::kWrite);
  EXPECT_EQ(log.entries[2].delay_us, 2000u);
  EXPECT_EQ(log.entries[3].kind, IoLogEntry::Kind::kTrim);
  EXPECT_EQ(log.entries[3].length, 65536u);
  EXPECT_EQ(log.entries[4].kind, IoLogEntry::Kind::kSync);
  EXPECT_EQ(log.reads, 2u);
  EXPECT_EQ(log.writes, 1u);
  EXPECT_EQ(log.trims, 1u);
  EXPECT_EQ(log.syncs, 1u);
  EXPECT_EQ(log.depth, 2u);  // two reads queued before the first completion
}

TEST(Blktrace, BigEndianTracesAndPdusAreRead) {
  Trace t;
  t.big_endian();
  t.event(BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_READ), 10, 1, 512, kDevice, std::string(20, 'x')).queue_read(20, 2, 512);
  const IoLog log = parse_blktrace(t.bytes());
  ASSERT_EQ(log.entries.size(), 2u);
  EXPECT_EQ(log.entries[1].offset, 1024u);
}

TEST(Blktrace, RedirectScaleAlignAndSkip) {
  Trace t;
  t.queue_read(1000, 1000, 1000).queue_write(2000, 8, 4096).queue_read(5000, 8, 512);
  ReplaySettings s;
  s.redirect = "/tmp/f";
  s.scale = 2;
  s.align = 4096;
  s.skip_write = true;
  const IoLog log = parse_blktrace(t.bytes(), s);
  ASSERT_EQ(log.files, std::vector<std::string>{"/tmp/f"});
  ASSERT_EQ(log.entries.size(), 2u);
  EXPECT_EQ(log.entries[0].offset, 4096u * 62);  // 512000 / 2 = 256000, aligned down
  EXPECT_EQ(log.entries[0].length, 4096u);       // 1000 rounded up to the alignment, as fio
  EXPECT_EQ(log.entries[1].delay_us, 3u);        // the skipped write's 1 us is not replayed
}

TEST(Blktrace, BadTracesNameTheRecord) {
  Trace t;
  t.queue_read(1000, 8, 4096);
  std::string bytes = t.bytes();
  const auto error_of = [](const std::string& b) {
    try {
      (void)parse_blktrace(b);
    } catch (const UserError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of(bytes.substr(0, 30)).find("t.bin: record 1: the trace ends inside a record"), std::string::npos);
  std::string bad_version = bytes;
  bad_version[0] = 0x06;
  EXPECT_NE(error_of(bad_version).find("record 1: blktrace version 6"), std::string::npos);
  Trace other;
  other.event(BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_READ), 5, 8, 4096, (9u << 20) | 3u);
  EXPECT_NE(error_of(other.bytes()).find("no block device 9:3 under /dev; replay_redirect"), std::string::npos);
  Trace far;
  far.queue_read(5, std::uint64_t{1} << 60, 4096);  // sector x 512 would wrap past 2^64
  EXPECT_NE(error_of(far.bytes()).find("record 1: sector 1152921504606846976 is beyond any device"), std::string::npos);
  Trace empty;
  empty.complete_read(5, 8, 4096);
  EXPECT_NE(error_of(empty.bytes()).find("t.bin: the trace holds no queued"), std::string::npos);
  EXPECT_FALSE(looks_like_blktrace("fio version 3 iolog\n0 f add\n0 f open\n1 f read 0 4096\n4 f close\n"));
}

}  // namespace
}  // namespace sluice
