#pragma once
// Checksums for data verification (verify=crc32c|crc32|crc64|xxhash|md5|sha256). Each kind writes a digest of
// a fixed size into a 32-byte slot of the verify header; unused bytes stay zero.
//
// Sources: crc32 is zlib's, xxhash is libxxhash's XXH64, md5 and sha256 are OpenSSL's (EVP). crc32c and crc64
// are computed here (see verify_checksum.cpp for why). Threads: every function is safe to call from several
// threads at once (OpenSSL contexts are per thread).
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "job/job_spec.h"

namespace sluice {

inline constexpr std::size_t kMaxDigestSize = 32;  // sha256
using Digest = std::array<unsigned char, kMaxDigestSize>;

// Bytes of the digest that the kind produces (0 for pattern and meta, which have no data checksum).
std::size_t digest_size(VerifyKind kind) noexcept;
// fio's spelling: "crc32c", "md5", ...
std::string_view verify_kind_name(VerifyKind kind) noexcept;

// Digest of `length` bytes at `data`; bytes past digest_size(kind) are zero.
Digest compute_digest(VerifyKind kind, const void* data, std::size_t length);

// Lowercase hex: crcs and xxhash as their number ("0x1a2b3c4d"), md5 and sha256 as their bytes in order.
std::string digest_hex(VerifyKind kind, const Digest& digest);

// The individual algorithms, exposed for tests against published check values.
std::uint32_t crc32c(const void* data, std::size_t length, std::uint32_t crc = 0) noexcept;
std::uint32_t crc32c_portable(const void* data, std::size_t length, std::uint32_t crc = 0) noexcept;
std::uint64_t crc64_ecma(const void* data, std::size_t length) noexcept;

}  // namespace sluice
