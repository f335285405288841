#include "report/logs/log_file.h"

#include <zlib.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "common/error.h"
#include "report/logs/fio_log_sample.h"
#include "report/logs/log_naming.h"

namespace sluice {
namespace {

// Longest line: five 20-digit numbers, a one-digit ddir and the separators.
constexpr std::size_t kMaxLineBytes = 6 * 20 + 6 * 2 + 1;

char* put_number(char* out, std::uint64_t value) noexcept { return std::to_chars(out, out + 20, value).ptr; }

char* put_separator(char* out) noexcept {
  out[0] = ',';
  out[1] = ' ';
  return out + 2;
}

unsigned char* put_le(unsigned char* out, std::uint64_t value, std::size_t bytes) noexcept {
  for (std::size_t i = 0; i < bytes; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
  return out + bytes;
}

}  // namespace

LogFile::LogFile(std::string path, bool with_offset, bool shared, std::size_t compressed_chunk, bool with_prio)
    : path_(std::move(path)), with_offset_(with_offset), with_prio_(with_prio), compressed_chunk_(compressed_chunk) {
  file_ = open_fio_log(path_, shared);
  buffer_.resize(compressed_chunk_ != 0 ? compressed_chunk_ + fio_sample::kOffsetBytes : kFlushBytes + kMaxLineBytes);
  if (compressed_chunk_ != 0) deflated_.resize(compressBound(static_cast<uLong>(buffer_.size())));
}

LogFile::~LogFile() {
  if (file_ != nullptr) {
    flush();
    std::fclose(file_);
  }
}

void LogFile::append(const LogLine& line) noexcept {
  if (compressed_chunk_ != 0) return append_binary(line);
  char* out = buffer_.data() + used_;
  out = put_separator(put_number(out, line.time_ms));
  out = put_separator(put_number(out, line.value));
  out = put_separator(put_number(out, static_cast<std::uint64_t>(line.ddir)));
  out = put_separator(put_number(out, line.block_size));
  if (with_offset_) out = put_separator(put_number(out, line.offset));
  if (with_prio_) {  // fio's "0x%04x"
    static constexpr char kHex[] = "0123456789abcdef";
    *out++ = '0';
    *out++ = 'x';
    for (int shift = 12; shift >= 0; shift -= 4) *out++ = kHex[(line.priority >> shift) & 0xf];
  } else {
    *out++ = (line.priority >> fio_sample::kPrioClassShift) == fio_sample::kPrioClassRealtime ? '1' : '0';
  }
  *out++ = '\n';
  used_ = static_cast<std::size_t>(out - buffer_.data());
  if (used_ >= kFlushBytes) flush();
}

void LogFile::append_binary(const LogLine& line) noexcept {
  auto* start = reinterpret_cast<unsigned char*>(buffer_.data() + used_);
  unsigned char* out = put_le(start, line.time_ms, 8);
  out = put_le(out, line.value, 8);
  out = put_le(out,
               static_cast<std::uint32_t>(line.ddir) | (with_offset_ ? fio_sample::kOffsetBit : 0u) |
                   (with_prio_ ? fio_sample::kPrioBit : 0u),
               4);
  out = put_le(out, line.priority, 4);  // the priority and the struct's 2 bytes of padding
  out = put_le(out, line.block_size, 8);
  if (with_offset_) out = put_le(out, line.offset, 8);
  used_ += with_offset_ ? fio_sample::kOffsetBytes : fio_sample::kBytes;
  if (used_ >= compressed_chunk_) flush();
}

void LogFile::flush() noexcept {
  if (used_ == 0) return;
  const char* data = buffer_.data();
  std::size_t length = used_;
  if (compressed_chunk_ != 0) {
    uLongf deflated = static_cast<uLongf>(deflated_.size());
    const int rc = compress2(deflated_.data(), &deflated, reinterpret_cast<const Bytef*>(buffer_.data()),
                             static_cast<uLong>(used_), Z_DEFAULT_COMPRESSION);
    if (rc != Z_OK) {
      if (write_errno_ == 0) write_errno_ = rc == Z_MEM_ERROR ? ENOMEM : EIO;
      used_ = 0;
      return;
    }
    data = reinterpret_cast<const char*>(deflated_.data());
    length = deflated;
  }
  if (std::fwrite(data, 1, length, file_) != length && write_errno_ == 0) write_errno_ = errno != 0 ? errno : EIO;
  used_ = 0;
}

void LogFile::close() {
  if (file_ == nullptr) return;
  flush();
  if (std::fclose(file_) != 0 && write_errno_ == 0) write_errno_ = errno != 0 ? errno : EIO;
  file_ = nullptr;
  if (write_errno_ != 0) {
    throw IoError("cannot write log file " + path_ + ": " + std::strerror(write_errno_), write_errno_);
  }
}

}  // namespace sluice
