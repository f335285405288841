#pragma once
// blktrace binary traces for read_iolog, as fio 3.33's blktrace.c reads them: a blkparse dump
// (`blkparse DEV -o /dev/null -d FILE`) of struct blk_io_trace records (linux/blktrace_api.h), each followed
// by pdu_len bytes, in either byte order. Only queue events (__BLK_TA_QUEUE) become ios: reads and writes
// (a zero-byte one is skipped), discards (trims) and flushes (syncs); notify records are skipped. Each io
// waits, after the previous io started, the difference of the two events' times (as fio: ns scaled by
// replay_time_scale, kept in us). Offsets are sector x 512, divided by replay_scale and aligned down to
// replay_align; lengths are rounded up to replay_align. Each device (the kernel's dev_t, major << 20 |
// minor) is one file, named by the caller (with replay_redirect every device is that file). The deepest
// queue the trace shows (queued minus merged until a completion, per direction, at most 1024) becomes
// IoLog::depth: fio replays at it unless iodepth is given.
#include <functional>
#include <istream>
#include <string>
#include <string_view>

#include "workload/iolog.h"

struct blk_io_trace;  // <linux/blktrace_api.h>

namespace sluice {

inline constexpr std::size_t kBlktraceRecordSize = 48;  // sizeof(struct blk_io_trace)

// Swaps every field of a record between the two byte orders (a trace recorded on the other endianness).
void byteswap_blktrace(blk_io_trace& t) noexcept;

// True when `head` (at least the first kBlktraceRecordSize bytes of a file) is a blktrace record, in either
// byte order.
bool looks_like_blktrace(std::string_view head) noexcept;

// The path of the block device major:minor, or "" when there is none.
using DeviceNamer = std::function<std::string(unsigned major, unsigned minor)>;

// Reads a whole trace. Throws UserError naming `source` and the record on a bad magic or version, a
// truncated record or pdu, a device `name_device` cannot name, or a trace without any io.
IoLog parse_blktrace(std::istream& in, const std::string& source, const ReplaySettings& settings,
                     const DeviceNamer& name_device);

}  // namespace sluice
