#pragma once
// IoLogWriter: write_iolog. Appends fio's iolog version 3 to a file, as fio 3.33 writes it: the version
// line, "TIME FILE add" and "TIME FILE open" for each of the job's files, "TIME FILE ACTION OFFSET LENGTH"
// for each io as it is issued (read, write, trim, sync, datasync), "TIME FILE close" at the end. TIME is
// microseconds since the writer was created. fio and sluice replay the file with read_iolog.
//
// Not thread-safe: one per job clone, used by its thread.
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"

namespace sluice {

class IoLogWriter {
 public:
  // Opens `path` for appending (created if missing) and writes the header and the files' add and open lines;
  // start_ns is the clock reading the times count from. Throws UserError when the file cannot be opened.
  IoLogWriter(const std::string& path, std::vector<std::string> files, std::uint64_t start_ns);
  ~IoLogWriter();
  IoLogWriter(const IoLogWriter&) = delete;
  IoLogWriter& operator=(const IoLogWriter&) = delete;

  // One issued io (a sync has offset and length 0).
  void io(std::uint64_t now_ns, int file, IoOp op, std::uint64_t offset, std::uint32_t length) noexcept;
  // The files' close lines, and the file flushed and closed. Returns an error text ("" when it worked).
  std::string close(std::uint64_t now_ns) noexcept;

 private:
  void file_line(std::uint64_t now_ns, const std::string& file, std::string_view action) noexcept;
  std::uint64_t micros(std::uint64_t now_ns) const noexcept {
    return now_ns > start_ns_ ? (now_ns - start_ns_) / 1000 : 0;
  }

  std::string path_;
  std::vector<std::string> files_;
  std::uint64_t start_ns_;
  std::FILE* out_ = nullptr;
  std::vector<char> buffer_;
};

}  // namespace sluice
