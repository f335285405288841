#include "workload/blktrace.h"

#include <linux/blktrace_api.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>

#include "common/error.h"
#include "workload/iolog_builder.h"

namespace sluice {
namespace {

static_assert(sizeof(blk_io_trace) == kBlktraceRecordSize, "blk_io_trace is 48 bytes on every ABI");

constexpr std::uint32_t kMinorBits = 20;  // the kernel's internal dev_t, as blktrace records it
constexpr int kMaxDepth = 1024;           // fio's cap: stacked devices may never complete an io

std::uint32_t swap32(std::uint32_t v) noexcept { return __builtin_bswap32(v); }

bool magic_ok(std::uint32_t magic) noexcept { return (magic & 0xffffff00u) == BLK_IO_TRACE_MAGIC; }

bool has(std::uint32_t action, unsigned category) noexcept { return (action & BLK_TC_ACT(category)) != 0; }

// fio's t_get_ddir: the direction whose queue depth an event changes (-1: none).
int depth_direction(std::uint32_t action) noexcept {
  if (has(action, BLK_TC_READ)) return 0;
  if (has(action, BLK_TC_WRITE)) return 1;
  if (has(action, BLK_TC_DISCARD)) return 2;
  return -1;
}

class Reader {
 public:
  Reader(const std::string& source, const ReplaySettings& settings, const DeviceNamer& name_device)
      : source_(source), settings_(settings), name_device_(name_device), log_(settings) {}

  void record(blk_io_trace t) {
    const std::uint32_t what = t.action & 0xffff;
    if (!has(t.action, BLK_TC_NOTIFY)) track_depth(t.action, what);
    if (what != __BLK_TA_QUEUE) return;
    std::uint64_t delay_ns = 0;
    if (!has(t.action, BLK_TC_NOTIFY)) delay_ns = log_.delay_since(t.time);
    if (settings_.align != 0)
      t.bytes = static_cast<std::uint32_t>((t.bytes + settings_.align - 1) & ~(settings_.align - 1));
    if (has(t.action, BLK_TC_NOTIFY)) return;
    IoLogEntry::Kind kind = IoLogEntry::Kind::kRead;
    if (has(t.action, BLK_TC_DISCARD)) {
      kind = IoLogEntry::Kind::kTrim;
    } else if (has(t.action, BLK_TC_FLUSH)) {
      kind = IoLogEntry::Kind::kSync;
    } else {
      kind = has(t.action, BLK_TC_WRITE) ? IoLogEntry::Kind::kWrite : IoLogEntry::Kind::kRead;
    }
    if (log_.skipped(kind)) return;
    // fio ignores a zero-byte read or write ("ignoring zero byte trace"); a zero-byte discard trims nothing.
    if (kind != IoLogEntry::Kind::kSync && t.bytes == 0) return;
    if (delay_ns / 1000 > detail::kMaxReplayDelayUs) {
      fail("a wait of " + std::to_string(delay_ns / 1000) + " us since the event before (more than a day)");
    }
    if (t.sector > (std::uint64_t{1} << 54)) fail("sector " + std::to_string(t.sector) + " is beyond any device");
    const std::uint32_t file = file_of(t.device);
    log_.wait(delay_ns / 1000);
    const std::string wrong = log_.add(kind, file, t.sector * 512, kind == IoLogEntry::Kind::kSync ? 0 : t.bytes);
    if (!wrong.empty()) fail(wrong);
  }

  IoLog finish() {
    record_ = 0;
    if (!log_.holds_io()) fail("the trace holds no queued read, write, discard or flush to replay");
    IoLog log = log_.take(0);
    int depth = 0;
    for (int d = 0; d < 3; ++d) {
      int deepest = std::min(depth_[d], kMaxDepth);
      const std::uint64_t ios = d == 0 ? log.reads : d == 1 ? log.writes : log.trims;
      if (deepest == 0 && ios > 0) deepest = 1;
      depth = std::max(depth, deepest);
    }
    log.depth = static_cast<std::uint32_t>(std::max(depth, 1));
    return log;
  }

  void next_record() noexcept { ++record_; }
  [[noreturn]] void fail(const std::string& what) const {
    throw UserError(source_ + (record_ > 0 ? ": record " + std::to_string(record_) : std::string()) + ": " + what);
  }

 private:
  // fio's depth probe: queued minus merged until a completion, the deepest per direction.
  void track_depth(std::uint32_t action, std::uint32_t what) {
    const int d = depth_direction(action);
    if (d < 0) return;
    if (what == __BLK_TA_QUEUE) {
      ++this_depth_[d];
    } else if (what == __BLK_TA_BACKMERGE || what == __BLK_TA_FRONTMERGE) {
      --this_depth_[d];
    } else if (what == __BLK_TA_COMPLETE) {
      depth_[d] = std::max(depth_[d], this_depth_[d]);
      this_depth_[d] = 0;
    }
  }

  std::uint32_t file_of(std::uint32_t device) {
    const auto known = files_.find(device);
    if (known != files_.end()) return known->second;
    std::string name = settings_.redirect;
    if (name.empty()) {
      const unsigned major = device >> kMinorBits, minor = device & ((1u << kMinorBits) - 1);
      name = name_device_(major, minor);
      if (name.empty()) {
        fail("no block device " + std::to_string(major) + ":" + std::to_string(minor) +
             " under /dev; replay_redirect names the file or device to replay on");
      }
    }
    const std::uint32_t file = log_.file(name);
    files_.emplace(device, file);
    return file;
  }

  const std::string& source_;
  const ReplaySettings& settings_;
  const DeviceNamer& name_device_;
  detail::IoLogBuilder log_;
  std::map<std::uint32_t, std::uint32_t> files_;  // dev_t -> file
  std::array<int, 3> this_depth_{};
  std::array<int, 3> depth_{};
  std::uint64_t record_ = 0;
};

}  // namespace

void byteswap_blktrace(blk_io_trace& t) noexcept {
  t.magic = swap32(t.magic);
  t.sequence = swap32(t.sequence);
  t.time = __builtin_bswap64(t.time);
  t.sector = __builtin_bswap64(t.sector);
  t.bytes = swap32(t.bytes);
  t.action = swap32(t.action);
  t.pid = swap32(t.pid);
  t.device = swap32(t.device);
  t.cpu = swap32(t.cpu);
  t.error = __builtin_bswap16(t.error);
  t.pdu_len = __builtin_bswap16(t.pdu_len);
}

bool looks_like_blktrace(std::string_view head) noexcept {
  if (head.size() < kBlktraceRecordSize) return false;
  std::uint32_t magic = 0;
  std::memcpy(&magic, head.data(), sizeof magic);
  return magic_ok(magic) || magic_ok(swap32(magic));
}

IoLog parse_blktrace(std::istream& in, const std::string& source, const ReplaySettings& settings,
                     const DeviceNamer& name_device) {
  Reader reader(source, settings, name_device);
  bool swap = false;
  bool first = true;
  while (true) {
    blk_io_trace t{};
    in.read(reinterpret_cast<char*>(&t), sizeof t);
    if (in.gcount() == 0 && in.eof()) break;
    reader.next_record();
    if (in.gcount() != static_cast<std::streamsize>(sizeof t)) reader.fail("the trace ends inside a record");
    if (first) {
      swap = !magic_ok(t.magic) && magic_ok(swap32(t.magic));
      first = false;
    }
    if (swap) byteswap_blktrace(t);
    if (!magic_ok(t.magic)) reader.fail("bad magic, not a blktrace record");
    if ((t.magic & 0xff) != BLK_IO_TRACE_VERSION) {
      reader.fail("blktrace version " + std::to_string(t.magic & 0xff) + "; fio and sluice read version " +
                  std::to_string(BLK_IO_TRACE_VERSION));
    }
    if (t.pdu_len != 0) {
      in.ignore(t.pdu_len);
      if (in.gcount() != t.pdu_len) reader.fail("the trace ends inside a record's data");
    }
    reader.record(t);
  }
  if (in.bad()) throw UserError(source + ": cannot read the trace");
  return reader.finish();
}

}  // namespace sluice
