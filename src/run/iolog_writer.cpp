#include "run/iolog_writer.h"

#include <cerrno>
#include <cstring>

#include "common/error.h"

namespace sluice {
namespace {

const char* action_of(IoOp op) noexcept {
  switch (op) {
    case IoOp::kRead:
      return "read";
    case IoOp::kWrite:
      return "write";
    case IoOp::kTrim:
      return "trim";
    case IoOp::kFsync:
      return "sync";
    case IoOp::kFdatasync:
      return "datasync";
    case IoOp::kSyncRange:
      return "sync_file_range";
  }
  return "read";
}

}  // namespace

IoLogWriter::IoLogWriter(const std::string& path, std::vector<std::string> files, std::uint64_t start_ns)
    : path_(path), files_(std::move(files)), start_ns_(start_ns), buffer_(1 << 16) {
  out_ = std::fopen(path.c_str(), "ae");
  if (out_ == nullptr) throw UserError("write_iolog=" + path + ": cannot open the log: " + std::strerror(errno));
  std::setvbuf(out_, buffer_.data(), _IOFBF, buffer_.size());
  std::fputs("fio version 3 iolog\n", out_);
  for (const std::string& file : files_) file_line(start_ns, file, "add");
  for (const std::string& file : files_) file_line(start_ns, file, "open");
}

IoLogWriter::~IoLogWriter() { (void)close(start_ns_); }

void IoLogWriter::file_line(std::uint64_t now_ns, const std::string& file, std::string_view action) noexcept {
  std::fprintf(out_, "%llu %s %.*s\n", static_cast<unsigned long long>(micros(now_ns)), file.c_str(),
               static_cast<int>(action.size()), action.data());
}

void IoLogWriter::io(std::uint64_t now_ns, int file, IoOp op, std::uint64_t offset, std::uint32_t length) noexcept {
  if (out_ == nullptr || file < 0 || static_cast<std::size_t>(file) >= files_.size()) return;
  std::fprintf(out_, "%llu %s %s %llu %u\n", static_cast<unsigned long long>(micros(now_ns)),
               files_[static_cast<std::size_t>(file)].c_str(), action_of(op), static_cast<unsigned long long>(offset),
               length);
}

std::string IoLogWriter::close(std::uint64_t now_ns) noexcept {
  if (out_ == nullptr) return "";
  for (const std::string& file : files_) file_line(now_ns, file, "close");
  errno = 0;
  const bool failed = std::fflush(out_) != 0 || std::ferror(out_) != 0;
  const int flush_error = errno;
  const int closed = std::fclose(out_);
  const int close_error = errno;
  out_ = nullptr;
  if (!failed && closed == 0) return "";
  const int error = flush_error != 0 ? flush_error : close_error != 0 ? close_error : EIO;
  return "write_iolog=" + path_ + ": cannot write the log: " + std::strerror(error);
}

}  // namespace sluice
