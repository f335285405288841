#include "workload/verify_block.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "common/rng.h"
#include "job/validate_verify.h"

namespace sluice {
namespace {

constexpr std::size_t kCrcField = 12;

template <typename T>
void put(unsigned char* p, T value) noexcept {
  for (std::size_t i = 0; i < sizeof(T); ++i)
    p[i] = static_cast<unsigned char>(static_cast<std::uint64_t>(value) >> (8 * i));
}

template <typename T>
T get(const unsigned char* p) noexcept {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v |= static_cast<std::uint64_t>(p[i]) << (8 * i);
  return static_cast<T>(v);
}

// Repeats the format's pattern over [0, length) of out, the pattern's first byte at out[0]; each %o slot of
// each repetition gets chunk_offset (little-endian, cut where the repetition is cut).
void fill_pattern(unsigned char* out, std::size_t length, const VerifyFormat& format,
                  std::uint64_t chunk_offset) noexcept {
  const std::string& pattern = format.pattern;
  if (pattern.empty()) return;
  unsigned char offset_bytes[8];
  for (int i = 0; i < 8; ++i) offset_bytes[i] = static_cast<unsigned char>(chunk_offset >> (8 * i));
  for (std::size_t pos = 0; pos < length; pos += pattern.size()) {
    const std::size_t copied = std::min(pattern.size(), length - pos);
    std::copy_n(pattern.data(), copied, out + pos);
    for (std::uint32_t slot : format.pattern_offset_slots) {
      if (slot >= copied) break;
      std::memcpy(out + pos + slot, offset_bytes, std::min<std::size_t>(8, copied - slot));
    }
  }
}

// fio's memswp of the header with the bytes at `offset`, byte by byte from the first: when the two ranges
// overlap (offset < header size) the swap is undone only by the same steps in reverse order (unswap_header).
void swap_header(unsigned char* chunk, std::uint32_t offset, std::uint32_t header_size) noexcept {
  for (std::uint32_t i = 0; i < header_size; ++i) std::swap(chunk[i], chunk[offset + i]);
}

void unswap_header(unsigned char* chunk, std::uint32_t offset, std::uint32_t header_size) noexcept {
  for (std::uint32_t i = header_size; i-- > 0;) std::swap(chunk[i], chunk[offset + i]);
}

// 72 or 104: the sizes a header can have; anything else read from a medium is taken as 72.
std::uint32_t valid_header_size(std::uint32_t size) noexcept {
  return size == kLongVerifyHeaderSize ? kLongVerifyHeaderSize : kVerifyHeaderSize;
}

void fill_seeded(unsigned char* out, std::size_t length, std::uint64_t seed) noexcept {
  Rng rng(seed);
  fill_random({out, length}, rng);
}

std::string hex_bytes(const unsigned char* p, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += fmt::format("{:02x}", p[i]);
  return out;
}

// First byte where `data` differs from `expected`; records up to 16 bytes of each from there.
bool locate_difference(const unsigned char* data, const unsigned char* expected, std::size_t length, std::size_t base,
                       VerifyFailure& failure) {
  const auto* end = data + length;
  const auto mismatch = std::mismatch(data, end, expected);
  if (mismatch.first == end) return false;
  const auto at = static_cast<std::size_t>(mismatch.first - data);
  const std::size_t n = std::min<std::size_t>(16, length - at);
  failure.first_bad_byte = static_cast<std::int64_t>(base + at);
  failure.expected_bytes = hex_bytes(expected + at, n);
  failure.found_bytes = hex_bytes(data + at, n);
  return true;
}

VerifyFailure failure_of(VerifyDiagnosis d, const VerifyFormat& format, const ChunkExpectation& expect) {
  VerifyFailure f;
  f.diagnosis = d;
  f.offset = expect.offset;
  f.length = format.chunk;
  f.expected = expect;
  return f;
}

// The data area as the header's seed (or the pattern) says it should be.
std::vector<unsigned char> expected_data(const VerifyFormat& format, std::uint64_t seed, std::uint64_t offset,
                                         std::size_t length) {
  std::vector<unsigned char> data(length);
  if (!format.pattern.empty())
    fill_pattern(data.data(), length, format, offset);
  else
    fill_seeded(data.data(), length, seed);
  return data;
}

std::optional<VerifyFailure> check_pattern_chunk(const unsigned char* p, const VerifyFormat& format,
                                                 const ChunkExpectation& expect) {
  std::vector<unsigned char> want(format.chunk);
  fill_pattern(want.data(), want.size(), format, expect.offset);
  VerifyFailure f = failure_of(VerifyDiagnosis::kPatternMismatch, format, expect);
  if (locate_difference(p, want.data(), want.size(), 0, f)) return f;
  return std::nullopt;
}

// A trimmed chunk: every byte must be zero (fio's verify_trimmed_io_u).
std::optional<VerifyFailure> check_zero_chunk(const unsigned char* p, const VerifyFormat& format,
                                              const ChunkExpectation& expect) {
  const std::vector<unsigned char> zeros(format.chunk, 0);
  VerifyFailure f = failure_of(VerifyDiagnosis::kTrimmedNotZero, format, expect);
  if (locate_difference(p, zeros.data(), zeros.size(), 0, f)) return f;
  return std::nullopt;
}

}  // namespace

std::uint32_t verify_header_size(VerifyKind kind) noexcept { return verify_header_bytes(kind); }

std::uint64_t chunk_seed(std::uint64_t job_seed, int file_index, std::uint64_t offset,
                         std::uint64_t generation) noexcept {
  return mix64(job_seed ^ (offset * kGolden) ^ (generation << 48) ^ (static_cast<std::uint64_t>(file_index) << 32) ^
               generation);
}

void encode_header(const VerifyHeader& h, void* out) noexcept {
  auto* p = static_cast<unsigned char*>(out);
  put<std::uint32_t>(p + 0, h.magic);
  p[4] = h.version;
  p[5] = static_cast<unsigned char>(h.kind);
  put<std::uint16_t>(p + 6, h.header_size);
  put<std::uint32_t>(p + 8, h.length);
  put<std::uint32_t>(p + kCrcField, h.header_crc);
  put<std::uint64_t>(p + 16, h.offset);
  put<std::uint64_t>(p + 24, h.generation);
  put<std::uint64_t>(p + 32, h.seed);
  std::memcpy(p + 40, h.digest.data(), valid_header_size(h.header_size) - 40);
}

VerifyHeader decode_header(const void* in, std::size_t available) noexcept {
  const auto* p = static_cast<const unsigned char*>(in);
  VerifyHeader h;
  h.magic = get<std::uint32_t>(p + 0);
  h.version = p[4];
  h.kind = static_cast<VerifyKind>(p[5]);
  h.header_size = get<std::uint16_t>(p + 6);
  h.length = get<std::uint32_t>(p + 8);
  h.header_crc = get<std::uint32_t>(p + kCrcField);
  h.offset = get<std::uint64_t>(p + 16);
  h.generation = get<std::uint64_t>(p + 24);
  h.seed = get<std::uint64_t>(p + 32);
  const std::size_t size = std::min<std::size_t>(valid_header_size(h.header_size), available);
  std::memcpy(h.digest.data(), p + 40, size - 40);
  return h;
}

std::uint32_t header_crc_of(const void* encoded, std::uint32_t header_size) noexcept {
  const auto* p = static_cast<const unsigned char*>(encoded);
  std::uint32_t crc = crc32c(p, kCrcField);
  const unsigned char zero[4] = {0, 0, 0, 0};
  crc = crc32c(zero, sizeof zero, crc);
  return crc32c(p + kCrcField + 4, valid_header_size(header_size) - kCrcField - 4, crc);
}

void fill_chunk(void* out, const VerifyFormat& format, const ChunkExpectation& expect) {
  auto* p = static_cast<unsigned char*>(out);
  if (expect.zeros) {
    std::memset(p, 0, format.chunk);
    return;
  }
  if (format.kind == VerifyKind::kPattern) {
    fill_pattern(p, format.chunk, format, expect.offset);
    return;
  }
  const std::uint32_t header_size = format.header_size();
  unsigned char* data = p + header_size;
  const std::size_t data_length = format.chunk - header_size;
  if (!format.pattern.empty())
    fill_pattern(data, data_length, format, expect.offset);
  else
    fill_seeded(data, data_length, expect.seed);
  if (format.kind == VerifyKind::kNull) return;
  VerifyHeader h;
  h.kind = format.kind;
  h.header_size = static_cast<std::uint16_t>(header_size);
  h.length = format.chunk;
  h.offset = expect.offset;
  h.generation = expect.generation;
  h.seed = expect.seed;
  if (format.kind != VerifyKind::kMeta) h.digest = compute_digest(format.kind, data, data_length);
  encode_header(h, p);
  put<std::uint32_t>(p + kCrcField, header_crc_of(p, header_size));
  if (format.header_offset != 0) swap_header(p, format.header_offset, header_size);
}

std::optional<VerifyFailure> check_chunk(const void* chunk, std::uint32_t valid, const VerifyFormat& format,
                                         const ChunkExpectation& expect) {
  const auto* p = static_cast<const unsigned char*>(chunk);
  if (valid < format.chunk) {
    VerifyFailure f = failure_of(VerifyDiagnosis::kShortRead, format, expect);
    f.first_bad_byte = valid;
    return f;
  }
  if (expect.zeros) return check_zero_chunk(p, format, expect);
  if (format.kind == VerifyKind::kPattern) return check_pattern_chunk(p, format, expect);
  if (format.kind == VerifyKind::kNull) return std::nullopt;  // fio's null: read back, never checked
  const std::uint32_t header_size = format.header_size();
  std::vector<unsigned char> unswapped;
  if (format.header_offset != 0) {
    unswapped.assign(p, p + format.chunk);
    unswap_header(unswapped.data(), format.header_offset, header_size);
    p = unswapped.data();
  }
  if (get<std::uint32_t>(p) != kVerifyMagic) {
    VerifyFailure f = failure_of(VerifyDiagnosis::kNoHeader, format, expect);
    f.first_bad_byte = 0;
    f.found_bytes = hex_bytes(p, 16);
    return f;
  }
  // The header found may be of another kind and size (other verify settings): its own size field says how
  // many bytes its crc covers, when they fit in the chunk.
  const VerifyHeader h = decode_header(p, format.chunk);
  const std::uint32_t found_size =
      valid_header_size(h.header_size) <= format.chunk ? valid_header_size(h.header_size) : header_size;
  VerifyFailure f = failure_of(VerifyDiagnosis::kOk, format, expect);
  f.found = h;
  if (h.header_crc != header_crc_of(p, found_size)) {
    f.diagnosis = VerifyDiagnosis::kHeaderDamaged;
  } else if (h.kind != format.kind || h.length != format.chunk || h.header_size != header_size) {
    f.diagnosis = VerifyDiagnosis::kFormatMismatch;
  } else if (h.offset != expect.offset) {
    f.diagnosis = VerifyDiagnosis::kMisdirected;
  }
  if (f.diagnosis != VerifyDiagnosis::kOk) return f;

  const unsigned char* data = p + header_size;
  const std::size_t data_length = format.chunk - header_size;
  if (format.kind != VerifyKind::kMeta) {
    f.computed_digest = compute_digest(format.kind, data, data_length);
    if (f.computed_digest != h.digest) {
      f.diagnosis = VerifyDiagnosis::kTorn;
      const std::vector<unsigned char> want = expected_data(format, h.seed, h.offset, data_length);
      locate_difference(data, want.data(), data_length, header_size, f);
      return f;
    }
  }
  if (!format.pattern.empty()) {
    const std::vector<unsigned char> want = expected_data(format, h.seed, h.offset, data_length);
    if (locate_difference(data, want.data(), data_length, header_size, f)) {
      f.diagnosis = VerifyDiagnosis::kPatternMismatch;
      return f;
    }
  }
  if (expect.generation != 0) {
    if (h.generation < expect.generation)
      f.diagnosis = VerifyDiagnosis::kLost;
    else if (h.generation > expect.generation)
      f.diagnosis = VerifyDiagnosis::kNewer;
    else if (h.seed != expect.seed)
      f.diagnosis = VerifyDiagnosis::kForeign;
  }
  if (f.diagnosis != VerifyDiagnosis::kOk) return f;
  return std::nullopt;
}

std::string_view diagnosis_name(VerifyDiagnosis d) noexcept {
  switch (d) {
    case VerifyDiagnosis::kOk:
      return "ok";
    case VerifyDiagnosis::kShortRead:
      return "short read";
    case VerifyDiagnosis::kNoHeader:
      return "no verify header";
    case VerifyDiagnosis::kHeaderDamaged:
      return "header damaged";
    case VerifyDiagnosis::kFormatMismatch:
      return "other verify settings";
    case VerifyDiagnosis::kMisdirected:
      return "misdirected write";
    case VerifyDiagnosis::kTorn:
      return "torn write or corrupted data";
    case VerifyDiagnosis::kLost:
      return "lost write";
    case VerifyDiagnosis::kNewer:
      return "newer generation than expected";
    case VerifyDiagnosis::kForeign:
      return "written by another run";
    case VerifyDiagnosis::kPatternMismatch:
      return "pattern mismatch";
    case VerifyDiagnosis::kTrimmedNotZero:
      return "trimmed chunk not zero";
  }
  return "?";
}

static std::uint32_t crc_of_header(const VerifyHeader& h) noexcept {
  unsigned char encoded[kLongVerifyHeaderSize] = {};
  encode_header(h, encoded);
  return header_crc_of(encoded, h.header_size);
}

std::string describe_failure(const VerifyFailure& f, const VerifyFormat& format, std::string_view path) {
  std::string out =
      fmt::format("verify failed: {} offset {} length {}: {}", path, f.offset, f.length, diagnosis_name(f.diagnosis));
  const auto bytes_at = [&] {
    return fmt::format(" at byte {} of the chunk (file offset {}): expected {} found {}", f.first_bad_byte,
                       f.offset + static_cast<std::uint64_t>(f.first_bad_byte), f.expected_bytes, f.found_bytes);
  };
  const VerifyHeader h = f.found.value_or(VerifyHeader{});
  switch (f.diagnosis) {
    case VerifyDiagnosis::kShortRead:
      out += fmt::format(": {} of {} bytes came back", f.first_bad_byte, f.length);
      break;
    case VerifyDiagnosis::kNoHeader:
      out += fmt::format(
          ": expected magic 53 4c 56 46 (\"SLVF\"), found bytes {} (never written, overwritten, "
          "or written by another tool)",
          f.found_bytes);
      break;
    case VerifyDiagnosis::kHeaderDamaged:
      out += fmt::format(": header crc32c stored 0x{:08x}, computed 0x{:08x}; header says offset {} generation {}",
                         h.header_crc, crc_of_header(h), h.offset, h.generation);
      break;
    case VerifyDiagnosis::kFormatMismatch:
      out += fmt::format(": expected verify={} chunk {} bytes, found verify={} chunk {} bytes",
                         verify_kind_name(format.kind), format.chunk, verify_kind_name(h.kind), h.length);
      break;
    case VerifyDiagnosis::kMisdirected:
      out += fmt::format(": the intact chunk found here was written for offset {} (generation {}), expected offset {}",
                         h.offset, h.generation, f.expected.offset);
      break;
    case VerifyDiagnosis::kTorn:
      out += fmt::format(": header intact (offset {} generation {}), {} stored {} computed {}", h.offset, h.generation,
                         verify_kind_name(format.kind), digest_hex(format.kind, h.digest),
                         digest_hex(format.kind, f.computed_digest));
      if (f.first_bad_byte >= 0) out += "; first difference" + bytes_at();
      break;
    case VerifyDiagnosis::kLost:
      out += fmt::format(
          ": found generation {}, expected {} (an older version of the chunk: the last write did not "
          "reach the medium)",
          h.generation, f.expected.generation);
      break;
    case VerifyDiagnosis::kNewer:
      out += fmt::format(": found generation {}, expected {}", h.generation, f.expected.generation);
      break;
    case VerifyDiagnosis::kForeign:
      out += fmt::format(": seed 0x{:016x} found, 0x{:016x} expected (another job or randseed wrote it)", h.seed,
                         f.expected.seed);
      break;
    case VerifyDiagnosis::kPatternMismatch:
      out += bytes_at();
      break;
    case VerifyDiagnosis::kTrimmedNotZero:
      out += bytes_at() + " (the chunk was trimmed after its write; trim_verify_zero=1 expects zeros)";
      break;
    case VerifyDiagnosis::kOk:
      break;
  }
  return out;
}

}  // namespace sluice
