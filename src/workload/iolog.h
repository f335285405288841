#pragma once
// fio's iolog, versions 2 and 3 (read_iolog): a text log of I/O to replay. The first line names the version
// ("fio version 2 iolog" or "fio version 3 iolog"); then one line per event:
//   v2: "FILE add|open|close" and "FILE read|write|trim|sync|datasync|wait OFFSET LENGTH"
//   v3: the same, each line led by a timestamp in microseconds ("TIME FILE ..."); "wait" is not allowed.
// The timing follows fio 3.33's iolog.c: in v3 an io waits, after the previous io started, the difference
// of the two timestamps (scaled by replay_time_scale, none with replay_no_stall); v2's "wait OFFSET" holds
// every later io until OFFSET milliseconds after the job's start (fio's code; its HOWTO says microseconds
// relative to the previous wait). File events cost no io: "add" names a file, "open" and "close" are
// timing only (sluice keeps every file open), their time passes to the next io.
//
// Differences from fio, on purpose: a line fio would skip with a message (an unknown action, a malformed
// line, a v3 "wait", an io on a file the log never added) is an error naming the log's file and line.
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace sluice {

// The replay options of a job (fio's replay_*).
struct ReplaySettings {
  bool no_stall = false;           // replay_no_stall: as fast as the ordering allows
  std::uint32_t time_scale = 100;  // replay_time_scale: percent of the log's rate (200 = twice as fast)
  std::string redirect;            // replay_redirect: every io goes to this one file
  std::uint64_t scale = 1;         // replay_scale: offsets are divided by it
  std::uint64_t align = 0;         // replay_align: offsets are rounded down to a multiple (a power of 2)
  bool skip_read = false;          // replay_skip=read,write,trim,sync
  bool skip_write = false;
  bool skip_trim = false;
  bool skip_sync = false;  // sync only; fio's replay_skip leaves datasync
};

struct IoLogEntry {
  enum class Kind : std::uint8_t { kRead, kWrite, kTrim, kSync, kDatasync, kWait, kSyncRange };
  Kind kind = Kind::kRead;
  std::uint32_t file = 0;      // index into IoLog::files
  std::uint64_t offset = 0;    // bytes, after replay_scale and replay_align; kWait: ms after the job's start
  std::uint32_t length = 0;    // bytes (0 for syncs and waits)
  std::uint64_t delay_us = 0;  // v3: wait this long after the previous io started (already scaled)
};

struct IoLog {
  int version = 0;                     // 2 or 3; 0 for a blktrace
  std::vector<std::string> files;      // in the order the log adds them; the redirect target alone
  std::vector<IoLogEntry> entries;     // in log order
  std::vector<std::uint64_t> extents;  // per file: the end of its farthest io (offset + length)
  std::uint64_t reads = 0, writes = 0, trims = 0, syncs = 0, waits = 0;
  std::uint64_t bytes = 0;                  // read + written + trimmed
  std::uint32_t max_length[3] = {0, 0, 0};  // largest io per direction (read, write, trim)
  std::uint32_t depth = 0;                  // blktrace: the deepest queue of the trace (0: a text log says none)
};

// The longest read or write a log may hold: buffers are sized for it, iodepth times. (A trim, which needs
// no buffer, may be up to 4 GiB - 1.)
inline constexpr std::uint32_t kMaxIoLogLength = 64u << 20;

// Reads a whole log. `source` names it in messages ("trace.log:12: ..."). Throws UserError on a first line
// that is not fio's version 2 or 3 line, a malformed line, an unknown action, an io on a file never added,
// a zero or oversized length, an offset past 2^63, a wait of more than a day, or a log without any io. A
// version line further down (a second run appended to the same write_iolog file, as fio appends) starts
// that run's lines: its clock starts again, and its files are added again.
IoLog parse_iolog(std::istream& in, const std::string& source, const ReplaySettings& settings);

}  // namespace sluice
