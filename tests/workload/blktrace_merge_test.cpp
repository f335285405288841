// merge_blktraces as fio's merge_blktrace_iologs: queued reads, writes and discards only, without pdus, in
// time order (ties to the earlier trace), times scaled per trace, traces repeated after their length.
#include "workload/blktrace_merge.h"

#include <gtest/gtest.h>
#include <linux/blktrace_api.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "common/error.h"
#include "support/blktrace_writer.h"
#include "support/temp_dir.h"

namespace sluice {
namespace {

struct MergedEvent {
  char kind;  // 'r', 'w'
  std::uint64_t time_us;
  std::uint64_t sector;
  bool operator==(const MergedEvent&) const = default;
};

std::ostream& operator<<(std::ostream& os, const MergedEvent& e) {
  return os << e.kind << "@" << e.time_us << "us:" << e.sector;
}

std::vector<MergedEvent> merged_events(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<MergedEvent> events;
  for (std::size_t at = 0; at + sizeof(blk_io_trace) <= bytes.size(); at += sizeof(blk_io_trace)) {
    blk_io_trace t;
    std::memcpy(&t, bytes.data() + at, sizeof t);
    EXPECT_EQ(t.pdu_len, 0);
    events.push_back({(t.action & BLK_TC_ACT(BLK_TC_WRITE)) != 0 ? 'w' : 'r', t.time / 1000, t.sector});
  }
  return events;
}

class BlktraceMerge : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::Trace reads;  // three reads 1 ms apart, each completed (the completions are dropped), a pdu
    reads.queue_read(1'000'000, 0, 4096).complete_read(1'100'000, 0, 4096);
    reads.event(BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_READ), 2'000'000, 8, 4096, testing::kDevice, "pdu!");
    reads.queue_read(3'000'000, 16, 4096);
    std::ofstream(tmp_.file("a"), std::ios::binary) << reads.bytes();
    testing::Trace writes;
    writes.big_endian();  // either byte order merges; the output is the host's
    writes.queue_write(1'500'000, 100, 4096).queue_write(2'500'000, 108, 4096);
    std::ofstream(tmp_.file("b"), std::ios::binary) << writes.bytes();
  }

  std::vector<MergedEvent> merge(std::uint32_t scalar_a, std::uint32_t iterations_a) {
    merge_blktraces({{tmp_.file("a"), scalar_a, iterations_a}, {tmp_.file("b"), 100, 1}}, tmp_.file("m"));
    return merged_events(tmp_.file("m"));
  }

  testing::TempDir tmp_;
};

TEST_F(BlktraceMerge, InterleavesInTimeOrder) {
  EXPECT_EQ(merge(100, 1), (std::vector<MergedEvent>{
                               {'r', 1000, 0}, {'w', 1500, 100}, {'r', 2000, 8}, {'w', 2500, 108}, {'r', 3000, 16}}));
}

TEST_F(BlktraceMerge, ScalesTimesAndBreaksTiesForTheFirstTrace) {
  // At 50 % the reads come at 0.5, 1 and 1.5 ms; the read at 1.5 ms goes before the write at 1.5 ms.
  EXPECT_EQ(merge(50, 1), (std::vector<MergedEvent>{
                              {'r', 500, 0}, {'r', 1000, 8}, {'r', 1500, 16}, {'w', 1500, 100}, {'w', 2500, 108}}));
}

TEST_F(BlktraceMerge, RepeatsATraceAfterItsLength) {
  // The trace's length is its last queued event's time (3 ms): the second run starts at 3 + 1 ms.
  const std::vector<MergedEvent> events = merge(100, 2);
  ASSERT_EQ(events.size(), 8u);
  EXPECT_EQ(events[5], (MergedEvent{'r', 4000, 0}));
  EXPECT_EQ(events[7], (MergedEvent{'r', 6000, 16}));
}

TEST_F(BlktraceMerge, RefusesWhatIsNotATrace) {
  std::ofstream(tmp_.file("text")) << "fio version 3 iolog\n/tmp/f add\n";
  EXPECT_THROW(merge_blktraces({{tmp_.file("text"), 100, 1}}, tmp_.file("m")), UserError);
  testing::Trace completions;
  completions.complete_read(1'000, 0, 4096);
  std::ofstream(tmp_.file("c"), std::ios::binary) << completions.bytes();
  try {
    merge_blktraces({{tmp_.file("c"), 100, 1}}, tmp_.file("m"));
    ADD_FAILURE() << "a trace without queued ios was merged";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("no queued read, write or discard"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sluice
