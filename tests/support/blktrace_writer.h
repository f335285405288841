#pragma once
// Writes blktrace binary traces record by record, as `blkparse -d` does (struct blk_io_trace, then pdu_len
// bytes), for the read_iolog tests of sluice and fio.
#include <linux/blktrace_api.h>

#include <cstdint>
#include <string>

namespace sluice::testing {

inline constexpr std::uint32_t kDevice = (8u << 20) | 16u;  // 8:16, as the kernel records dev_t

// Builds a trace record by record, as blkparse -d writes it.
class Trace {
 public:
  Trace& event(std::uint32_t action, std::uint64_t time_ns, std::uint64_t sector, std::uint32_t bytes,
               std::uint32_t device = kDevice, std::string pdu = "") {
    blk_io_trace t{};
    t.magic = BLK_IO_TRACE_MAGIC | BLK_IO_TRACE_VERSION;
    t.sequence = ++sequence_;
    t.time = time_ns;
    t.sector = sector;
    t.bytes = bytes;
    t.action = action;
    t.device = device;
    t.pdu_len = static_cast<std::uint16_t>(pdu.size());
    if (swapped_) swap(t);
    bytes_.append(reinterpret_cast<const char*>(&t), sizeof t);
    bytes_ += pdu;
    return *this;
  }
  Trace& queue_read(std::uint64_t time_ns, std::uint64_t sector, std::uint32_t bytes) {
    return event(BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_READ), time_ns, sector, bytes);
  }
  Trace& queue_write(std::uint64_t time_ns, std::uint64_t sector, std::uint32_t bytes) {
    return event(BLK_TA_QUEUE | BLK_TC_ACT(BLK_TC_WRITE), time_ns, sector, bytes);
  }
  Trace& complete_read(std::uint64_t time_ns, std::uint64_t sector, std::uint32_t bytes) {
    return event(BLK_TA_COMPLETE | BLK_TC_ACT(BLK_TC_READ), time_ns, sector, bytes);
  }
  void big_endian() { swapped_ = true; }
  const std::string& bytes() const { return bytes_; }

 private:
  static void swap(blk_io_trace& t) {
    t.magic = __builtin_bswap32(t.magic);
    t.sequence = __builtin_bswap32(t.sequence);
    t.time = __builtin_bswap64(t.time);
    t.sector = __builtin_bswap64(t.sector);
    t.bytes = __builtin_bswap32(t.bytes);
    t.action = __builtin_bswap32(t.action);
    t.device = __builtin_bswap32(t.device);
    t.pdu_len = __builtin_bswap16(t.pdu_len);
  }
  std::string bytes_;
  std::uint32_t sequence_ = 0;
  bool swapped_ = false;
};

}  // namespace sluice::testing
