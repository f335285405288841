#pragma once
// Checksums for data verification: fio's verify kinds crc7, crc16, crc32c, crc32, crc64, xxhash, md5, sha1,
// sha256, sha512 and sha3-224/256/384/512. Each kind writes a digest of a fixed size into the verify header's
// digest slot (32 bytes, 64 for the kinds whose digest is longer); unused bytes stay zero.
//
// Sources: crc32 is zlib's, xxhash is libxxhash's XXH64, md5, sha1, sha256, sha512 and sha3 are OpenSSL's
// (EVP). crc7, crc16, crc32c and crc64 are computed here (see verify_checksum.cpp for why). Threads: every
// function is safe to call from several threads at once (OpenSSL contexts are per thread).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "job/verify_options.h"

namespace sluice {

inline constexpr std::size_t kMaxDigestSize = 64;  // sha512, sha3-512
using Digest = std::array<unsigned char, kMaxDigestSize>;

// Bytes of the digest that the kind produces (0 for pattern, meta and null, which have no data checksum).
std::size_t digest_size(VerifyKind kind) noexcept;
// fio's spelling: "crc32c", "md5", ...
std::string_view verify_kind_name(VerifyKind kind) noexcept;

// Digest of `length` bytes at `data`; bytes past digest_size(kind) are zero.
Digest compute_digest(VerifyKind kind, const void* data, std::size_t length);

// Lowercase hex: crcs and xxhash as their number ("0x1a2b3c4d"), the cryptographic hashes as their bytes.
std::string digest_hex(VerifyKind kind, const Digest& digest);

// The individual algorithms, exposed for tests against published check values.
std::uint32_t crc32c(const void* data, std::size_t length, std::uint32_t crc = 0) noexcept;
std::uint32_t crc32c_portable(const void* data, std::size_t length, std::uint32_t crc = 0) noexcept;
std::uint64_t crc64_ecma(const void* data, std::size_t length) noexcept;
// fio's crc7 (CRC-7/MMC: x^7 + x^3 + 1, initial 0, not reflected; 7 bits) and crc16 (CRC-16/ARC: x^16 + x^15 +
// x^2 + 1, reflected, initial 0), as fio computes them for verify=crc7 and verify=crc16.
std::uint8_t crc7_mmc(const void* data, std::size_t length) noexcept;
std::uint16_t crc16_arc(const void* data, std::size_t length) noexcept;

}  // namespace sluice
