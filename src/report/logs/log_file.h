#pragma once
// LogFile: one fio-format log file ("time, value, ddir, bs[, offset], prio" per line), buffered in memory and
// written with fwrite when the buffer passes kFlushBytes, so appending a line costs no syscall and, once the
// buffer has grown, no allocation. Threads: owned by one writer.
//
// Compressed (fio's log_store_compressed): the file holds zlib streams, one per `compressed_chunk` bytes of
// samples, each sample in fio 3.33's binary layout (struct io_sample: u64 time, u64 value, u32 ddir with bit 31
// set when an offset follows, u16 priority, 2 bytes of padding, u64 block size[, u64 offset]; little-endian),
// which `fio --inflate-log=FILE` (and `sluice fio --inflate-log`) turns back into the text lines.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace sluice {

struct LogLine {
  std::uint64_t time_ms = 0;
  std::uint64_t value = 0;
  int ddir = 0;  // 0 read, 1 write, 2 trim (fio's numbering)
  std::uint64_t block_size = 0;
  std::uint64_t offset = 0;
  std::uint16_t priority = 0;  // the io's priority value (class << 13 | level); averaged lines have 0
};

class LogFile {
 public:
  static constexpr std::size_t kFlushBytes = 1 << 20;

  // Creates (truncates) path. Throws UserError when it cannot be created. with_offset: write fio's
  // log_offset=1 column. shared: other jobs write the same file (per_job_logs=0; see log_naming.h).
  // compressed_chunk > 0: write fio's compressed format, a zlib stream per that many bytes of samples.
  // with_prio (fio's log_prio): the last column is the priority value as hex, else 1 for the realtime class.
  LogFile(std::string path, bool with_offset, bool shared = false, std::size_t compressed_chunk = 0,
          bool with_prio = false);
  ~LogFile();
  LogFile(const LogFile&) = delete;
  LogFile& operator=(const LogFile&) = delete;

  void append(const LogLine& line) noexcept;
  // Writes what is buffered and closes the file. Throws IoError when a write failed (also an earlier one).
  void close();
  const std::string& path() const noexcept { return path_; }

 private:
  void flush() noexcept;
  void append_binary(const LogLine& line) noexcept;

  std::string path_;
  bool with_offset_;
  bool with_prio_;
  std::size_t compressed_chunk_;  // 0: text
  std::vector<unsigned char> deflated_;
  std::FILE* file_ = nullptr;
  std::vector<char> buffer_;
  std::size_t used_ = 0;
  int write_errno_ = 0;  // first write failure, reported by close()
};

}  // namespace sluice
