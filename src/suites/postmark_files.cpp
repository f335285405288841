#include "suites/postmark_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/clock.h"
#include "common/error.h"

namespace sluice {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path) {
  const int e = errno;
  throw IoError("postmark: cannot " + what + " '" + path + "': " + std::strerror(e), e);
}

// Calls piece(offset, n) for `bytes` split into `block`-sized pieces and a remainder, PostMark's I/O pattern.
// (PostMark ignores short transfers; here they are errors.)
template <typename PieceFn>
void for_each_block(int bytes, int block, PieceFn&& piece) {
  int offset = 0;
  int left = bytes;
  for (; left >= block; left -= block, offset += block) piece(offset, block);
  if (left > 0) piece(offset, left);
}

}  // namespace

PostmarkDiskFiles::PostmarkDiskFiles(bool buffered, int read_block, int write_block)
    : buffered_(buffered), write_block_(write_block), read_buffer_(static_cast<std::size_t>(read_block)) {}

void PostmarkDiskFiles::write_file(const std::string& path, const char* source, int bytes, bool append) {
  if (buffered_) {
    std::FILE* f = std::fopen(path.c_str(), append ? "a" : "w");
    if (f == nullptr) fail(append ? "open for append" : "open for writing", path);
    bool ok = true;
    for_each_block(bytes, write_block_, [&](int offset, int n) {
      ok = ok && std::fwrite(source + offset, static_cast<std::size_t>(n), 1, f) == 1;
    });
    if (std::fclose(f) != 0 || !ok) fail("write", path);
    return;
  }
  const int fd = ::open(path.c_str(), append ? (O_RDWR | O_APPEND) : (O_RDWR | O_CREAT), 0644);
  if (fd < 0) fail(append ? "open for append" : "open for writing", path);
  bool ok = true;
  for_each_block(bytes, write_block_,
                 [&](int offset, int n) { ok = ok && ::write(fd, source + offset, static_cast<std::size_t>(n)) == n; });
  if (::close(fd) != 0 || !ok) fail("write", path);
}

void PostmarkDiskFiles::create(const std::string& path, const char* source, int size) {
  const std::uint64_t t0 = monotonic_ns();
  write_file(path, source, size, false);
  latencies_.create.record(monotonic_ns() - t0);
}

void PostmarkDiskFiles::append(const std::string& path, const char* source, int bytes) {
  const std::uint64_t t0 = monotonic_ns();
  write_file(path, source, bytes, true);
  latencies_.append.record(monotonic_ns() - t0);
}

void PostmarkDiskFiles::read(const std::string& path, int size) {
  const std::uint64_t t0 = monotonic_ns();
  const int block = static_cast<int>(read_buffer_.size());
  char* buffer = read_buffer_.data();
  if (buffered_) {
    std::FILE* f = std::fopen(path.c_str(), "r");
    if (f == nullptr) fail("open for reading", path);
    std::size_t got = 0;
    for_each_block(size, block, [&](int, int n) { got += std::fread(buffer, 1, static_cast<std::size_t>(n), f); });
    std::fclose(f);
    if (got != static_cast<std::size_t>(size)) fail("read", path);
  } else {
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0) fail("open for reading", path);
    bool ok = true;
    for_each_block(size, block, [&](int, int n) { ok = ok && ::read(fd, buffer, static_cast<std::size_t>(n)) == n; });
    ::close(fd);
    if (!ok) fail("read", path);
  }
  latencies_.read.record(monotonic_ns() - t0);
}

void PostmarkDiskFiles::remove(const std::string& path) {
  const std::uint64_t t0 = monotonic_ns();
  if (std::remove(path.c_str()) != 0) fail("delete", path);
  latencies_.remove.record(monotonic_ns() - t0);
}

}  // namespace sluice
