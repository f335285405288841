// fio's VTRIGGER payloads and the verify state files its client writes from a server's answer.
#include "fionet/trigger.h"

#include <fmt/format.h>

#include "fionet/bytes.h"

namespace sluice::fionet {
namespace {

// struct thread_io_list (verify-state.h): no_comps u64, depth u32, nofiles u32, numberio u64, index u64, the
// random state (u64 use64 + 48 bytes), name[64], then depth x nofiles struct file_comp (two u64) entries.
constexpr std::size_t kThreadListBytes = 152;
constexpr std::size_t kDepthAt = 8, kFilesAt = 12, kIndexAt = 24, kThreadNameAt = 88, kThreadNameBytes = 64;
constexpr std::size_t kFileCompBytes = 16;
constexpr std::uint64_t kStateVersion = 3;  // fio 3.33's VSTATE_HDR_VERSION

}  // namespace

std::vector<std::uint8_t> encode_vtrigger(const std::string& command) {
  const std::size_t length = std::min<std::size_t>(command.size(), 0xffff);
  std::vector<std::uint8_t> payload(2 + length);
  put_u16(payload.data(), 0, static_cast<std::uint16_t>(length));
  std::copy(command.begin(), command.begin() + static_cast<std::ptrdiff_t>(length), payload.begin() + 2);
  return payload;
}

std::optional<std::string> decode_vtrigger(const std::vector<std::uint8_t>& payload) {
  if (payload.size() < 2) return std::nullopt;
  const std::size_t length = get_u16(payload.data(), 0);
  if (payload.size() < 2 + length) return std::nullopt;
  return std::string(payload.begin() + 2, payload.begin() + 2 + static_cast<std::ptrdiff_t>(length));
}

std::vector<std::uint8_t> encode_empty_io_list() { return std::vector<std::uint8_t>(8, 0); }

std::optional<std::vector<ThreadIoState>> decode_io_list(const std::vector<std::uint8_t>& payload) {
  if (payload.size() < 8) return std::nullopt;
  const std::uint64_t threads = get_u64(payload.data(), 0);
  std::vector<ThreadIoState> states;
  std::size_t at = 8;
  for (std::uint64_t t = 0; t < threads; ++t) {
    if (payload.size() - at < kThreadListBytes) return std::nullopt;
    const std::uint8_t* s = payload.data() + at;
    const std::uint64_t comps = std::uint64_t{get_u32(s, kDepthAt)} * get_u32(s, kFilesAt);
    if (comps > (payload.size() - at - kThreadListBytes) / kFileCompBytes) return std::nullopt;
    const std::size_t size = kThreadListBytes + static_cast<std::size_t>(comps) * kFileCompBytes;
    ThreadIoState state;
    state.name = std::string(get_text(s, kThreadNameAt, kThreadNameBytes));
    state.index = get_u64(s, kIndexAt);
    state.bytes.assign(s, s + size);
    states.push_back(std::move(state));
    at += size;
  }
  return states;
}

std::string fio_verify_state_name(const std::string& prefix, const std::string& name, std::uint64_t index) {
  std::string escaped = name;
  for (char& c : escaped) {
    if (c == '/') c = '.';
  }
  return fmt::format("{}-{}-{}-verify.state", prefix, escaped, static_cast<int>(index));
}

std::vector<std::uint8_t> fio_verify_state_file(const ThreadIoState& state) {
  std::vector<std::uint8_t> file(24 + state.bytes.size());
  put_u64(file.data(), 0, kStateVersion);
  put_u64(file.data(), 8, state.bytes.size());
  put_u64(file.data(), 16, fio_crc32c(state.bytes.data(), state.bytes.size()));
  std::copy(state.bytes.begin(), state.bytes.end(), file.begin() + 24);
  return file;
}

std::uint32_t fio_crc32c(const std::uint8_t* data, std::size_t length) noexcept {
  std::uint32_t crc = ~0u;
  for (std::size_t i = 0; i < length; ++i) {
    crc ^= data[i];
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1u)));
  }
  return crc;  // no final inversion: fio's crc32c_sw returns the register as it is
}

}  // namespace sluice::fionet
