#include "report/logs/log_file.h"

#include <cerrno>
#include <charconv>
#include <cstring>

#include "common/error.h"
#include "report/logs/log_naming.h"

namespace sluice {
namespace {

// Longest line: five 20-digit numbers, a one-digit ddir and the separators.
constexpr std::size_t kMaxLineBytes = 6 * 20 + 6 * 2 + 1;

char* put_number(char* out, std::uint64_t value) noexcept {
  return std::to_chars(out, out + 20, value).ptr;
}

char* put_separator(char* out) noexcept {
  out[0] = ',';
  out[1] = ' ';
  return out + 2;
}

}  // namespace

LogFile::LogFile(std::string path, bool with_offset, bool shared)
    : path_(std::move(path)), with_offset_(with_offset) {
  file_ = open_fio_log(path_, shared);
  buffer_.resize(kFlushBytes + kMaxLineBytes);
}

LogFile::~LogFile() {
  if (file_ != nullptr) {
    flush();
    std::fclose(file_);
  }
}

void LogFile::append(const LogLine& line) noexcept {
  char* out = buffer_.data() + used_;
  out = put_separator(put_number(out, line.time_ms));
  out = put_separator(put_number(out, line.value));
  out = put_separator(put_number(out, static_cast<std::uint64_t>(line.ddir)));
  out = put_separator(put_number(out, line.block_size));
  if (with_offset_) out = put_separator(put_number(out, line.offset));
  *out++ = '0';  // io priority: sluice sets none, which fio logs as 0
  *out++ = '\n';
  used_ = static_cast<std::size_t>(out - buffer_.data());
  if (used_ >= kFlushBytes) flush();
}

void LogFile::flush() noexcept {
  if (used_ == 0) return;
  if (std::fwrite(buffer_.data(), 1, used_, file_) != used_ && write_errno_ == 0) write_errno_ = errno != 0 ? errno : EIO;
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
