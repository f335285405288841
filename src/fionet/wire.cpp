// Frames of fio's protocol: header encoding, CRC-16, fragmenting and joining, bounded socket reads and writes.
#include "fionet/wire.h"

#include <fmt/format.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "fionet/bytes.h"

namespace sluice::fionet {
namespace {

constexpr std::uint32_t kFlagMore = 1;
constexpr std::size_t kCrcCoveredBytes = kHeaderBytes - 4;  // everything before the two CRC fields

constexpr std::array<std::uint16_t, 256> make_crc_table() {
  std::array<std::uint16_t, 256> table{};
  for (unsigned i = 0; i < 256; ++i) {
    std::uint16_t crc = static_cast<std::uint16_t>(i);
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 1) ? static_cast<std::uint16_t>((crc >> 1) ^ 0xA001) : crc >> 1;
    table[i] = crc;
  }
  return table;
}
constexpr std::array<std::uint16_t, 256> kCrcTable = make_crc_table();

struct Header {
  std::uint16_t version = 0;
  std::uint16_t op = 0;
  std::uint32_t flags = 0;
  std::uint64_t tag = 0;
  std::uint32_t length = 0;
  std::uint16_t header_crc = 0;
  std::uint16_t payload_crc = 0;
};

Header decode_header(const std::uint8_t* p) {
  Header h;
  h.version = get_u16(p, 0);
  h.op = get_u16(p, 2);
  h.flags = get_u32(p, 4);
  h.tag = get_u64(p, 8);
  h.length = get_u32(p, 16);
  h.header_crc = get_u16(p, 20);
  h.payload_crc = get_u16(p, 22);
  return h;
}

// Waits until fd is ready for `events`; false on timeout or error.
bool wait_ready(int fd, short events, std::chrono::milliseconds timeout) {
  pollfd pfd{fd, events, 0};
  for (;;) {
    const int n = ::poll(&pfd, 1, static_cast<int>(timeout.count()));
    if (n > 0) return true;
    if (n == 0) return false;
    if (errno != EINTR) return false;
  }
}

// Reads exactly n bytes. kOk, kClosed (EOF before any byte of a message), kTimeout or kError.
ReadStatus read_exact(int fd, std::uint8_t* out, std::size_t n, std::chrono::milliseconds timeout, std::string& why) {
  std::size_t got = 0;
  while (got < n) {
    if (!wait_ready(fd, POLLIN, timeout)) return ReadStatus::kTimeout;
    const ssize_t r = ::recv(fd, out + got, n - got, 0);
    if (r > 0) {
      got += static_cast<std::size_t>(r);
    } else if (r == 0) {
      return ReadStatus::kClosed;
    } else if (errno != EINTR && errno != EAGAIN) {
      why = std::strerror(errno);
      return ReadStatus::kError;
    }
  }
  return ReadStatus::kOk;
}

}  // namespace

std::string op_name(std::uint16_t op) {
  static constexpr std::array<const char*, 23> kNames = {
      "",         "QUIT",  "EXIT",       "JOB",       "JOBLINE",  "TEXT",      "TS",           "GS",
      "SEND_ETA", "ETA",   "PROBE",      "START",     "STOP",     "DISK_UTIL", "SERVER_START", "ADD_JOB",
      "RUN",      "IOLOG", "UPDATE_JOB", "LOAD_FILE", "VTRIGGER", "SENDFILE",  "JOB_OPT"};
  if (op >= 1 && op < kNames.size()) return kNames[op];
  switch (static_cast<Op>(op)) {
    case Op::kSluiceHello:
      return "SLUICE_HELLO";
    case Op::kSluiceChallenge:
      return "SLUICE_CHALLENGE";
    case Op::kSluiceProof:
      return "SLUICE_PROOF";
    case Op::kSluiceAccepted:
      return "SLUICE_ACCEPTED";
    case Op::kSluiceHost:
      return "SLUICE_HOST";
    case Op::kSluiceStarted:
      return "SLUICE_STARTED";
    case Op::kSluiceInterim:
      return "SLUICE_INTERIM";
    default:
      break;
  }
  return fmt::format("op {}", op);
}

std::uint16_t crc16(std::span<const std::uint8_t> bytes) noexcept {
  std::uint16_t crc = 0;
  for (std::uint8_t b : bytes) crc = static_cast<std::uint16_t>((crc >> 8) ^ kCrcTable[(crc ^ b) & 0xff]);
  return crc;
}

std::vector<std::uint8_t> encode_message(std::uint16_t op, std::uint64_t tag, std::span<const std::uint8_t> payload) {
  std::vector<std::uint8_t> out;
  std::size_t offset = 0;
  do {
    const std::size_t length = std::min(kMaxFragment, payload.size() - offset);
    const bool more = offset + length < payload.size();
    const std::size_t start = out.size();
    out.resize(start + kHeaderBytes + length);
    std::uint8_t* h = out.data() + start;
    put_u16(h, 0, kProtocolVersion);
    put_u16(h, 2, op);
    put_u32(h, 4, more ? kFlagMore : 0);
    put_u64(h, 8, tag);
    put_u32(h, 16, static_cast<std::uint32_t>(length));
    put_u16(h, 20, crc16({h, kCrcCoveredBytes}));
    const std::span<const std::uint8_t> part = payload.subspan(offset, length);
    put_u16(h, 22, crc16(part));
    if (length) std::memcpy(h + kHeaderBytes, part.data(), length);
    offset += length;
  } while (offset < payload.size());
  return out;
}

ReadResult read_message(int fd, std::chrono::milliseconds timeout) {
  ReadResult result;
  bool first = true;
  for (;;) {
    std::array<std::uint8_t, kHeaderBytes> raw{};
    result.status = read_exact(fd, raw.data(), raw.size(), timeout, result.detail);
    if (result.status != ReadStatus::kOk) {
      if (result.status == ReadStatus::kClosed && !first) result.status = ReadStatus::kError;
      return result;
    }
    const Header h = decode_header(raw.data());
    if (crc16({raw.data(), kCrcCoveredBytes}) != h.header_crc) {
      result.status = ReadStatus::kBadCrc;
      return result;
    }
    if (h.version != kProtocolVersion) {
      result.status = ReadStatus::kVersion;
      result.peer_version = h.version;
      result.message.op = h.op;
      result.message.tag = h.tag;
      return result;
    }
    if (h.length > kMaxFragment || result.message.payload.size() + h.length > kMaxMessage) {
      result.status = ReadStatus::kTooLarge;
      return result;
    }
    if (first) {
      result.message.op = h.op;
      result.message.tag = h.tag;
      result.message.flags = h.flags & ~kFlagMore;
    } else if (h.op != result.message.op) {
      result.status = ReadStatus::kFragmentMismatch;
      return result;
    }
    first = false;
    const std::size_t start = result.message.payload.size();
    result.message.payload.resize(start + h.length);
    if (h.length) {
      result.status = read_exact(fd, result.message.payload.data() + start, h.length, timeout, result.detail);
      if (result.status != ReadStatus::kOk) {
        if (result.status == ReadStatus::kClosed) result.status = ReadStatus::kError;
        return result;
      }
      if (crc16({result.message.payload.data() + start, h.length}) != h.payload_crc) {
        result.status = ReadStatus::kBadCrc;
        return result;
      }
    }
    if (!(h.flags & kFlagMore)) {
      result.status = ReadStatus::kOk;
      return result;
    }
  }
}

bool write_all(int fd, std::span<const std::uint8_t> bytes, std::chrono::milliseconds timeout) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    if (!wait_ready(fd, POLLOUT, timeout)) return false;
    const ssize_t w = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (w > 0) {
      sent += static_cast<std::size_t>(w);
    } else if (w < 0 && errno != EINTR && errno != EAGAIN) {
      return false;
    }
  }
  return true;
}

bool send_message(int fd, Op op, std::uint64_t tag, std::span<const std::uint8_t> payload,
                  std::chrono::milliseconds timeout) {
  return write_all(fd, encode_message(static_cast<std::uint16_t>(op), tag, payload), timeout);
}

std::string version_mismatch_text(const std::string& peer, std::uint16_t peer_version) {
  return fmt::format(
      "{} speaks fio's client/server protocol version {}, this side speaks version {} (fio 3.33); client and "
      "servers must use the same version: run fio 3.33 (or sluice's fio link) on both sides",
      peer, peer_version, kProtocolVersion);
}

}  // namespace sluice::fionet
