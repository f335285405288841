#pragma once
// fio 3.33's binary log sample (iolog.h: struct io_sample, struct io_sample_offset), the layout of a
// compressed log (log_store_compressed): u64 time (ms), u64 value, u32 ddir with flag bits, u16 priority,
// 2 bytes of padding, u64 block size, then u64 offset when the offset bit is set. Little-endian.
#include <cstddef>
#include <cstdint>

namespace sluice::fio_sample {

inline constexpr std::size_t kBytes = 32;        // struct io_sample
inline constexpr std::size_t kOffsetBytes = 40;  // struct io_sample_offset
inline constexpr std::size_t kDdirAt = 16;       // where the ddir word starts
inline constexpr std::size_t kPrioAt = 20;
inline constexpr std::size_t kBlockSizeAt = 24;
inline constexpr std::size_t kOffsetAt = 32;
inline constexpr std::uint32_t kOffsetBit = 0x80000000u;  // LOG_OFFSET_SAMPLE_BIT
inline constexpr std::uint32_t kPrioBit = 0x40000000u;    // LOG_PRIO_SAMPLE_BIT
// Without log_prio, fio's text logs show 1 for an io of the realtime class (priority >> 13 == 1), else 0.
inline constexpr unsigned kPrioClassShift = 13;
inline constexpr unsigned kPrioClassRealtime = 1;

}  // namespace sluice::fio_sample
