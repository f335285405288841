#include "workload/blktrace_merge.h"

#include <linux/blktrace_api.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

#include "common/error.h"
#include "workload/blktrace.h"

namespace sluice {
namespace {

// The records of one trace that take part, and what repeating it needs.
struct MergeTrace {
  std::vector<blk_io_trace> records;  // host byte order, pdu_len 0, raw times
  std::uint64_t length = 0;           // fio's bc->length: the last record's time, scaled when it was kept
  std::uint32_t scalar = 100;
  std::uint32_t iterations = 1;
  std::size_t next = 0;
  std::uint32_t iteration = 0;

  // fio's read_trace: (time + iteration x length) x scalar / 100.
  std::uint64_t time_of_next() const noexcept { return (records[next].time + iteration * length) * scalar / 100; }
};

bool kept(const blk_io_trace& t) noexcept {
  if ((t.action & 0xffff) != __BLK_TA_QUEUE) return false;
  return (t.action & (BLK_TC_ACT(BLK_TC_READ) | BLK_TC_ACT(BLK_TC_WRITE) | BLK_TC_ACT(BLK_TC_DISCARD))) != 0;
}

MergeTrace read_trace(const BlktraceMergeInput& input) {
  std::ifstream in(input.path, std::ios::binary);
  if (!in) throw UserError("merge_blktrace_file: cannot read " + input.path + ": " + std::strerror(errno));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  MergeTrace trace;
  trace.scalar = input.scalar_percent;
  trace.iterations = input.iterations;
  bool swapped = false;
  std::uint64_t last_time = 0;
  std::size_t at = 0;
  const std::string not_a_trace =
      input.path + ": not a blktrace (the read_iolog files to merge must be blktrace binary traces)";
  if (bytes.size() < sizeof(blk_io_trace)) throw UserError(not_a_trace);
  for (std::size_t index = 0; at < bytes.size(); ++index) {
    const std::string where = input.path + ": record " + std::to_string(index + 1);
    if (bytes.size() - at < sizeof(blk_io_trace)) throw UserError(where + " is cut short");
    blk_io_trace t;
    std::memcpy(&t, bytes.data() + at, sizeof t);
    if (index == 0) swapped = (t.magic & 0xffffff00u) != BLK_IO_TRACE_MAGIC;
    if (swapped) byteswap_blktrace(t);
    if ((t.magic & 0xffffff00u) != BLK_IO_TRACE_MAGIC) {
      throw UserError(index == 0 ? not_a_trace : where + ": bad magic");
    }
    at += sizeof t + t.pdu_len;
    if (at > bytes.size()) throw UserError(where + ": its pdu is cut short");
    if (kept(t)) {
      t.pdu_len = 0;  // fio writes the record without its pdu
      trace.records.push_back(t);
      last_time = t.time * trace.scalar / 100;
    } else {
      last_time = t.time;  // fio reads a dropped record into the same place, unscaled
    }
  }
  if (trace.records.empty()) throw UserError(input.path + ": no queued read, write or discard to merge");
  trace.length = last_time;
  return trace;
}

}  // namespace

std::uint64_t merge_blktraces(const std::vector<BlktraceMergeInput>& inputs, const std::string& output) {
  std::vector<MergeTrace> traces;
  for (const BlktraceMergeInput& input : inputs) {
    if (input.iterations != 0) traces.push_back(read_trace(input));
  }
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  if (!out) throw IoError("merge_blktrace_file: cannot create " + output + ": " + std::strerror(errno), errno);
  std::uint64_t written = 0;
  while (!traces.empty()) {
    std::size_t earliest = 0;  // fio's find_earliest_io: the first trace with the smallest time
    for (std::size_t i = 1; i < traces.size(); ++i) {
      if (traces[i].time_of_next() < traces[earliest].time_of_next()) earliest = i;
    }
    MergeTrace& trace = traces[earliest];
    blk_io_trace t = trace.records[trace.next];
    t.time = trace.time_of_next();
    out.write(reinterpret_cast<const char*>(&t), sizeof t);
    ++written;
    if (++trace.next == trace.records.size()) {
      trace.next = 0;
      if (++trace.iteration == trace.iterations) {  // fio's merge_finish_file: the last trace takes its place
        traces[earliest] = std::move(traces.back());
        traces.pop_back();
      }
    }
  }
  out.close();
  if (!out) throw IoError("merge_blktrace_file: cannot write " + output + ": " + std::strerror(errno), errno);
  return written;
}

}  // namespace sluice
