#pragma once
// blktrace_merge: fio's merge_blktrace_file, merge_blktrace_scalars and merge_blktrace_iters. Several blktrace
// traces become one, in time order, before it is replayed: each trace's queued reads, writes and discards
// (fio's t_get_ddir; every other record is dropped, pdus with them), their times scaled by the trace's
// percentage, and the trace repeated `iterations` times, each repetition shifted by the trace's length, as
// fio's blktrace.c merge_blktrace_iologs (fio's master: every released fio up to 3.42 reads 8 bytes of a
// record there and merges nothing).
#include <cstdint>
#include <string>
#include <vector>

namespace sluice {

struct BlktraceMergeInput {
  std::string path;
  std::uint32_t scalar_percent = 100;  // event times x percent / 100: 50 replays twice as fast
  std::uint32_t iterations = 1;
};

// Writes the merged trace to `output` (host byte order, pdu_len 0) and returns how many records it has.
// Throws UserError naming the file: unreadable, not a blktrace, truncated, or with nothing to merge; IoError
// when the output cannot be written.
std::uint64_t merge_blktraces(const std::vector<BlktraceMergeInput>& inputs, const std::string& output);

}  // namespace sluice
