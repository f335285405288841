#pragma once
// PostmarkDiskFiles: PostMark's four file operations on the real file system, with the original's I/O
// (stdio fopen/fwrite/fread/fclose when buffered, else open/write/read/close, in `set read`/`set write`
// blocks plus a remainder), each timed into a latency statistic of its kind.
#include <string>
#include <vector>

#include "stats/latency_stat.h"
#include "suites/postmark_workload.h"

namespace sluice {

// Latency of each operation: open to close (create, read, append) or the remove() call.
struct PostmarkLatencies {
  LatencyStat create;
  LatencyStat read;
  LatencyStat append;
  LatencyStat remove;
};

class PostmarkDiskFiles final : public PostmarkFiles {
 public:
  PostmarkDiskFiles(bool buffered, int read_block, int write_block);

  void create(const std::string& path, const char* source, int size) override;
  void read(const std::string& path, int size) override;
  void append(const std::string& path, const char* source, int bytes) override;
  void remove(const std::string& path) override;

  const PostmarkLatencies& latencies() const noexcept { return latencies_; }

 private:
  void write_file(const std::string& path, const char* source, int bytes, bool append);

  bool buffered_;
  int write_block_;
  std::vector<char> read_buffer_;
  PostmarkLatencies latencies_;
};

}  // namespace sluice
