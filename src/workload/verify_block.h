#pragma once
// The on-disk format of verified data and the pure functions that fill and check it.
//
// With a checksum kind (crc7 ... sha3-512) or meta every chunk (verify_interval bytes, else the block size)
// starts with a 72-byte header (104 bytes for sha3-384, sha512 and sha3-512), all fields little-endian:
//   0  magic "SLVF" (0x46564c53)   4 version (1)   5 kind (VerifyKind)   6 header size (72 or 104)
//   8  chunk length, header included          12 crc32c of the header with this field zeroed
//   16 offset of the chunk in its file        24 generation (1 = first write of the chunk, +1 per rewrite)
//   32 seed of the data after the header      40 digest of the data after the header (32 or 64 bytes,
//                                                zero-padded)
// The data after the header is random from the seed, or verify_pattern repeated when one is given (with
// %o, each repetition carries the chunk's offset, 8 bytes little-endian, as fio pastes it). With
// verify_offset=N the header's bytes and as many bytes at N trade places on the medium, as in fio. meta
// checks the header only. verify=pattern has no header: the whole chunk is the pattern. verify=null has none
// either: its chunks are random data that no check looks at (fio's "pretend to verify").
// This is sluice's own format: fio cannot verify sluice's files, nor sluice fio's.
//
// What a check tells apart (VerifyDiagnosis): a lost write (intact chunk of an older generation), a torn
// write (intact header, digest mismatch: part of the chunk is new, part old or garbage), a misdirected write
// (intact chunk whose header names another offset), a chunk with no header at all, and pattern mismatches.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "job/verify_options.h"
#include "workload/verify_checksum.h"

namespace sluice {

inline constexpr std::uint32_t kVerifyMagic = 0x46564c53u;  // "SLVF" in file order
inline constexpr std::uint8_t kVerifyVersion = 1;
inline constexpr std::uint32_t kVerifyHeaderSize = 72;       // the kinds whose digest fits 32 bytes
inline constexpr std::uint32_t kLongVerifyHeaderSize = 104;  // sha3-384, sha512, sha3-512 (64-byte slot)

// The header's size for a kind (0 for pattern and null: no header). Equals job/validate_verify.h's
// verify_header_bytes, which validation uses.
std::uint32_t verify_header_size(VerifyKind kind) noexcept;

struct VerifyHeader {
  std::uint32_t magic = kVerifyMagic;
  std::uint8_t version = kVerifyVersion;
  VerifyKind kind = VerifyKind::kNone;
  std::uint16_t header_size = kVerifyHeaderSize;
  std::uint32_t length = 0;
  std::uint32_t header_crc = 0;
  std::uint64_t offset = 0;
  std::uint64_t generation = 0;
  std::uint64_t seed = 0;
  Digest digest{};
};

// Writes header.header_size bytes (72 or 104; any other value is taken as 72).
void encode_header(const VerifyHeader& header, void* out) noexcept;
// Reads a header from `available` bytes (at least 72); its digest slot as its header size field says, within
// those bytes.
VerifyHeader decode_header(const void* in, std::size_t available = kVerifyHeaderSize) noexcept;
// crc32c of the first `header_size` bytes with the crc field zeroed.
std::uint32_t header_crc_of(const void* encoded, std::uint32_t header_size = kVerifyHeaderSize) noexcept;

// How the chunks of one job look.
struct VerifyFormat {
  VerifyKind kind = VerifyKind::kNone;
  std::uint32_t chunk = 4096;                       // bytes per header (verify_interval, else the block size)
  std::string pattern;                              // verify_pattern bytes; empty = random data
  std::vector<std::uint32_t> pattern_offset_slots;  // %o: where each repetition gets the chunk offset
  // verify_offset: the header is swapped with the bytes this far into the chunk before the write and swapped
  // back before the check, as fio's memswp (0 = the header stays first). Header kinds only.
  std::uint32_t header_offset = 0;

  std::uint32_t header_size() const noexcept { return verify_header_size(kind); }
};

// What the reader expects of a chunk. generation 0 = unknown (a read job checking what another job wrote):
// then neither generation nor seed is compared.
struct ChunkExpectation {
  std::uint64_t offset = 0;
  std::uint64_t generation = 0;
  std::uint64_t seed = 0;
  bool zeros = false;  // the chunk was trimmed (trim_verify_zero): it must read back as zeros, header and all
};

// Fills `format.chunk` bytes at `out` as the chunk at expect.offset of generation expect.generation (zeros
// when expect.zeros).
void fill_chunk(void* out, const VerifyFormat& format, const ChunkExpectation& expect);

enum class VerifyDiagnosis {
  kOk,
  kShortRead,        // fewer bytes came back than the chunk holds
  kNoHeader,         // no sluice header (never written, overwritten by something else, or written by fio)
  kHeaderDamaged,    // magic right, header crc wrong: corruption inside the header
  kFormatMismatch,   // a valid header of another kind or chunk length (different verify settings)
  kMisdirected,      // an intact chunk meant for another offset
  kTorn,             // header intact, digest of the data wrong
  kLost,             // an intact chunk of an older generation: the last write never reached the medium
  kNewer,            // an intact chunk of a newer generation than this run wrote
  kForeign,          // an intact chunk of the right offset and generation but another run's seed
  kPatternMismatch,  // verify=pattern (or verify_pattern): a byte differs from the pattern
  kTrimmedNotZero,   // a trimmed chunk (trim_verify_zero) did not read back as zeros
};

std::string_view diagnosis_name(VerifyDiagnosis d) noexcept;

struct VerifyFailure {
  VerifyDiagnosis diagnosis = VerifyDiagnosis::kOk;
  std::uint64_t offset = 0;  // of the chunk in the file
  std::uint32_t length = 0;  // of the chunk
  ChunkExpectation expected;
  std::optional<VerifyHeader> found;  // the header read, when its magic was right
  Digest computed_digest{};           // digest of the data read (torn)
  std::int64_t first_bad_byte = -1;   // within the chunk; -1 when not located
  std::string expected_bytes;         // hex of up to 16 bytes from first_bad_byte
  std::string found_bytes;
};

// Checks `valid` bytes at `data` (the read result; a chunk needs format.chunk bytes). nullopt = fine.
std::optional<VerifyFailure> check_chunk(const void* data, std::uint32_t valid, const VerifyFormat& format,
                                         const ChunkExpectation& expect);

// One line for stderr: file, offset, length, diagnosis, expected vs found.
std::string describe_failure(const VerifyFailure& failure, const VerifyFormat& format, std::string_view path);

// The seed of a chunk's data, from the job's seed, the file, the offset and the generation (splitmix64), so
// that a verify_only run with the same randseed expects exactly what the writing run wrote.
std::uint64_t chunk_seed(std::uint64_t job_seed, int file_index, std::uint64_t offset,
                         std::uint64_t generation) noexcept;

}  // namespace sluice
