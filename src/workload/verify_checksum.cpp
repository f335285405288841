#include "workload/verify_checksum.h"

#include <openssl/evp.h>
#include <xxhash.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <memory>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

#include "common/error.h"

namespace sluice {
namespace {

// crc32c (Castagnoli) is not in zlib and Debian ships no small library for it, while x86-64 computes it in
// hardware (SSE4.2 crc32 instruction, about 8 bytes per cycle): a table would be ~10x slower on the verify path.
// The table version serves CPUs without SSE4.2 and other architectures.
constexpr std::uint32_t kCrc32cPoly = 0x82f63b78u;  // reflected
// crc64 as xz and ECMA-182 ("CRC-64/XZ"): reflected polynomial, all-ones init and final xor.
constexpr std::uint64_t kCrc64Poly = 0xc96c5795d7870f42ull;
// crc7 and crc16 are a few dozen lines of tables; no Debian library offers fio's two variants.
constexpr std::uint16_t kCrc16ArcPoly = 0xa001u;  // 0x8005 reflected
constexpr std::uint8_t kCrc7Poly = 0x09u;         // x^7 + x^3 + 1 without its top bit

struct Tables {
  std::uint32_t crc32c[256];
  std::uint64_t crc64[256];
  std::uint16_t crc16[256];
  // crc7 one byte at a time: the next 7-bit crc from (crc << 1) ^ byte, as fio's crc7_byte indexes its table.
  std::uint8_t crc7[256];
  Tables() {
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      std::uint64_t d = i;
      std::uint16_t e = static_cast<std::uint16_t>(i);
      std::uint8_t f = static_cast<std::uint8_t>(i);  // the register's 7 bits held in the top 7 of a byte
      for (int k = 0; k < 8; ++k) {
        c = (c & 1) ? (c >> 1) ^ kCrc32cPoly : c >> 1;
        d = (d & 1) ? (d >> 1) ^ kCrc64Poly : d >> 1;
        e = static_cast<std::uint16_t>((e & 1) ? (e >> 1) ^ kCrc16ArcPoly : e >> 1);
        f = static_cast<std::uint8_t>((f & 0x80) ? (f << 1) ^ (kCrc7Poly << 1) : f << 1);
      }
      crc32c[i] = c;
      crc64[i] = d;
      crc16[i] = e;
      crc7[i] = static_cast<std::uint8_t>(f >> 1);
    }
  }
};

const Tables& tables() {
  static const Tables kTables;
  return kTables;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) std::uint32_t crc32c_sse42(const unsigned char* p, std::size_t n, std::uint32_t crc) {
  std::uint64_t c = ~crc;
  for (; n >= 8; n -= 8, p += 8) {
    std::uint64_t word;
    std::memcpy(&word, p, sizeof word);
    c = _mm_crc32_u64(c, word);
  }
  auto c32 = static_cast<std::uint32_t>(c);
  for (; n > 0; --n, ++p) c32 = _mm_crc32_u8(c32, *p);
  return ~c32;
}

bool have_sse42() {
  static const bool kHave = __builtin_cpu_supports("sse4.2");
  return kHave;
}
#endif

struct MdContextDeleter {
  void operator()(EVP_MD_CTX* ctx) const noexcept { EVP_MD_CTX_free(ctx); }
};

// One OpenSSL context per thread, reused: no allocation per digest after the first.
EVP_MD_CTX* thread_md_context() {
  thread_local std::unique_ptr<EVP_MD_CTX, MdContextDeleter> ctx(EVP_MD_CTX_new());
  if (!ctx) throw IoError("OpenSSL: cannot allocate a digest context", ENOMEM);
  return ctx.get();
}

void evp_digest(const EVP_MD* md, const void* data, std::size_t length, Digest& out) {
  EVP_MD_CTX* ctx = thread_md_context();
  unsigned int size = 0;
  if (EVP_DigestInit_ex(ctx, md, nullptr) != 1 || EVP_DigestUpdate(ctx, data, length) != 1 ||
      EVP_DigestFinal_ex(ctx, out.data(), &size) != 1) {
    throw IoError("OpenSSL: digest computation failed", EIO);
  }
}

void store_le(Digest& out, std::uint64_t value, std::size_t bytes) noexcept {
  for (std::size_t i = 0; i < bytes; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}

}  // namespace

std::uint32_t crc32c_portable(const void* data, std::size_t length, std::uint32_t crc) noexcept {
  const Tables& t = tables();
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint32_t c = ~crc;
  for (std::size_t i = 0; i < length; ++i) c = t.crc32c[(c ^ p[i]) & 0xff] ^ (c >> 8);
  return ~c;
}

std::uint32_t crc32c(const void* data, std::size_t length, std::uint32_t crc) noexcept {
#if defined(__x86_64__)
  if (have_sse42()) return crc32c_sse42(static_cast<const unsigned char*>(data), length, crc);
#endif
  return crc32c_portable(data, length, crc);
}

std::uint64_t crc64_ecma(const void* data, std::size_t length) noexcept {
  const Tables& t = tables();
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint64_t c = ~std::uint64_t{0};
  for (std::size_t i = 0; i < length; ++i) c = t.crc64[(c ^ p[i]) & 0xff] ^ (c >> 8);
  return ~c;
}

std::uint8_t crc7_mmc(const void* data, std::size_t length) noexcept {
  const Tables& t = tables();
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint8_t c = 0;
  for (std::size_t i = 0; i < length; ++i) c = t.crc7[static_cast<std::uint8_t>(c << 1) ^ p[i]];
  return c;
}

std::uint16_t crc16_arc(const void* data, std::size_t length) noexcept {
  const Tables& t = tables();
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint16_t c = 0;
  for (std::size_t i = 0; i < length; ++i) c = static_cast<std::uint16_t>((c >> 8) ^ t.crc16[(c ^ p[i]) & 0xff]);
  return c;
}

std::size_t digest_size(VerifyKind kind) noexcept {
  switch (kind) {
    case VerifyKind::kCrc7:
      return 1;
    case VerifyKind::kCrc16:
      return 2;
    case VerifyKind::kCrc32c:
    case VerifyKind::kCrc32:
      return 4;
    case VerifyKind::kCrc64:
    case VerifyKind::kXxhash:
      return 8;
    case VerifyKind::kMd5:
      return 16;
    case VerifyKind::kSha1:
      return 20;
    case VerifyKind::kSha3_224:
      return 28;
    case VerifyKind::kSha256:
    case VerifyKind::kSha3_256:
      return 32;
    case VerifyKind::kSha3_384:
      return 48;
    case VerifyKind::kSha512:
    case VerifyKind::kSha3_512:
      return 64;
    default:
      return 0;
  }
}

std::string_view verify_kind_name(VerifyKind kind) noexcept {
  switch (kind) {
    case VerifyKind::kNone:
      return "0";
    case VerifyKind::kCrc32c:
      return "crc32c";
    case VerifyKind::kCrc32:
      return "crc32";
    case VerifyKind::kCrc64:
      return "crc64";
    case VerifyKind::kXxhash:
      return "xxhash";
    case VerifyKind::kMd5:
      return "md5";
    case VerifyKind::kSha256:
      return "sha256";
    case VerifyKind::kPattern:
      return "pattern";
    case VerifyKind::kMeta:
      return "meta";
    case VerifyKind::kCrc16:
      return "crc16";
    case VerifyKind::kCrc7:
      return "crc7";
    case VerifyKind::kSha1:
      return "sha1";
    case VerifyKind::kSha512:
      return "sha512";
    case VerifyKind::kSha3_224:
      return "sha3-224";
    case VerifyKind::kSha3_256:
      return "sha3-256";
    case VerifyKind::kSha3_384:
      return "sha3-384";
    case VerifyKind::kSha3_512:
      return "sha3-512";
    case VerifyKind::kNull:
      return "null";
  }
  return "?";
}

Digest compute_digest(VerifyKind kind, const void* data, std::size_t length) {
  Digest out{};
  switch (kind) {
    case VerifyKind::kCrc32c:
      store_le(out, crc32c(data, length), 4);
      break;
    case VerifyKind::kCrc32: {
      // zlib takes uInt lengths: feed huge buffers in pieces.
      uLong c = ::crc32(0L, Z_NULL, 0);
      const auto* p = static_cast<const Bytef*>(data);
      for (std::size_t left = length; left > 0;) {
        const auto piece = static_cast<uInt>(std::min<std::size_t>(left, 1u << 30));
        c = ::crc32(c, p, piece);
        p += piece;
        left -= piece;
      }
      store_le(out, c, 4);
      break;
    }
    case VerifyKind::kCrc64:
      store_le(out, crc64_ecma(data, length), 8);
      break;
    case VerifyKind::kXxhash:
      store_le(out, XXH64(data, length, 0), 8);
      break;
    case VerifyKind::kMd5:
      evp_digest(EVP_md5(), data, length, out);
      break;
    case VerifyKind::kSha256:
      evp_digest(EVP_sha256(), data, length, out);
      break;
    case VerifyKind::kCrc7:
      store_le(out, crc7_mmc(data, length), 1);
      break;
    case VerifyKind::kCrc16:
      store_le(out, crc16_arc(data, length), 2);
      break;
    case VerifyKind::kSha1:
      evp_digest(EVP_sha1(), data, length, out);
      break;
    case VerifyKind::kSha512:
      evp_digest(EVP_sha512(), data, length, out);
      break;
    case VerifyKind::kSha3_224:
      evp_digest(EVP_sha3_224(), data, length, out);
      break;
    case VerifyKind::kSha3_256:
      evp_digest(EVP_sha3_256(), data, length, out);
      break;
    case VerifyKind::kSha3_384:
      evp_digest(EVP_sha3_384(), data, length, out);
      break;
    case VerifyKind::kSha3_512:
      evp_digest(EVP_sha3_512(), data, length, out);
      break;
    default:
      break;
  }
  return out;
}

std::string digest_hex(VerifyKind kind, const Digest& digest) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  if (digest_size(kind) <= 8) {  // crcs and xxhash read as the number they are, not as bytes
    for (std::size_t i = digest_size(kind); i > 0; --i) {
      out += kHex[digest[i - 1] >> 4];
      out += kHex[digest[i - 1] & 15];
    }
    return out.empty() ? out : "0x" + out;
  }
  for (std::size_t i = 0; i < digest_size(kind); ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

}  // namespace sluice
