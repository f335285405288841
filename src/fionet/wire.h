#pragma once
// fio's client/server wire format (protocol version 97, fio 3.33): a 24-byte little-endian frame header
// (version, opcode, flags, tag, payload length, a CRC-16 of the header and one of the payload) followed by at
// most 1024 payload bytes; a longer message is sent as fragments flagged "more" that the receiver joins.
// Written from fio's server.h / server.c (read, not copied); the layouts of the payloads are in pdu.h and
// thread_stat.h.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sluice::fionet {

inline constexpr std::uint16_t kProtocolVersion = 97;  // fio 3.33 (fio 3.42 speaks 120)
inline constexpr std::uint16_t kDefaultPort = 8765;
inline constexpr std::size_t kHeaderBytes = 24;
inline constexpr std::size_t kMaxFragment = 1024;                  // payload bytes per frame
inline constexpr std::size_t kMaxMessage = std::size_t{64} << 20;  // sluice's cap on a joined message

// fio's opcodes (FIO_NET_CMD_*), those of 3.33.
enum class Op : std::uint16_t {
  kQuit = 1,
  kExit = 2,
  kJob = 3,
  kJobLine = 4,
  kText = 5,
  kThreadStat = 6,
  kGroupStat = 7,
  kSendEta = 8,
  kEta = 9,
  kProbe = 10,
  kStart = 11,
  kStop = 12,
  kDiskUtil = 13,
  kServerStart = 14,
  kAddJob = 15,
  kRun = 16,
  kIoLog = 17,
  kUpdateJob = 18,
  kLoadFile = 19,
  kVerifyTrigger = 20,
  kSendFile = 21,
  kJobOption = 22,
  // sluice's own opcodes, far beyond fio's range (fio 3.33 ends at 22, 3.42 at 24): sent only to a peer whose
  // probe reply names sluice, so fio's servers and clients never see them (docs/multi-host.md).
  kSluiceHello = 0x5100,      // client -> server: a client nonce; asks for the server's challenge
  kSluiceChallenge = 0x5101,  // server -> client: flags (secret required), a server nonce, the server's proof
  kSluiceProof = 0x5102,      // client -> server: the client's proof
  kSluiceAccepted = 0x5103,   // server -> client: the proof is right (or no secret is needed)
  kSluiceHost = 0x5104,       // server -> client: the run's "sluice" JSON section (environment, warnings)
  kSluiceStarted = 0x5105,    // server -> client: the first group's workers were released (measuring began)
  kSluiceInterim = 0x5106,    // server -> client: the statistics just sent were a periodic report (--status-interval)
};

// fio's name of an opcode ("PROBE", "JOBLINE"), "op N" for one it does not know.
std::string op_name(std::uint16_t op);

// CRC-16 as fio computes it (polynomial 0x8005 reflected, initial value 0: "CRC-16/ARC").
std::uint16_t crc16(std::span<const std::uint8_t> bytes) noexcept;

struct Message {
  std::uint16_t op = 0;
  std::uint32_t flags = 0;
  std::uint64_t tag = 0;  // echoed in a reply (fio's client matches PROBE and ETA replies by it)
  std::vector<std::uint8_t> payload;
};

// The frames of one message: fragments of at most kMaxFragment bytes, all but the last flagged "more".
std::vector<std::uint8_t> encode_message(std::uint16_t op, std::uint64_t tag, std::span<const std::uint8_t> payload);

// Why a message could not be read. kVersion: the peer speaks another protocol version (peer_version says which).
enum class ReadStatus { kOk, kClosed, kTimeout, kBadCrc, kVersion, kTooLarge, kFragmentMismatch, kError };

struct ReadResult {
  ReadStatus status = ReadStatus::kError;
  Message message;
  std::uint16_t peer_version = 0;
  std::string detail;  // for kError: the system's reason
};

// Reads one whole message (joining fragments) from a stream socket. Waits at most `timeout` for each part
// (the connection is given up after that). Never throws.
ReadResult read_message(int fd, std::chrono::milliseconds timeout);

// Writes all of `bytes`, waiting at most `timeout` for the socket to take each part. False when it could not.
bool write_all(int fd, std::span<const std::uint8_t> bytes, std::chrono::milliseconds timeout);

// encode_message + write_all.
bool send_message(int fd, Op op, std::uint64_t tag, std::span<const std::uint8_t> payload,
                  std::chrono::milliseconds timeout);

// One line for a version mismatch, naming both versions and what to do.
std::string version_mismatch_text(const std::string& peer, std::uint16_t peer_version);

}  // namespace sluice::fionet
