#pragma once
// PostmarkWorkload: PostMark's file-table logic, in the original's order of random draws, over an abstract
// set of file operations (PostmarkFiles). It decides which file is created, read, appended or deleted and
// keeps PostMark's counters; it does no I/O itself, so a test can replay a seed without touching a disk.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "suites/postmark_config.h"
#include "suites/postmark_rng.h"

namespace sluice {

// The four operations. Each throws (IoError) when the file system refuses; sizes are in bytes.
class PostmarkFiles {
 public:
  virtual ~PostmarkFiles() = default;
  // Creates `path` with the first `size` bytes of `source`.
  virtual void create(const std::string& path, const char* source, int size) = 0;
  // Reads all `size` bytes of `path`.
  virtual void read(const std::string& path, int size) = 0;
  // Appends the first `bytes` bytes of `source` to `path`.
  virtual void append(const std::string& path, const char* source, int bytes) = 0;
  virtual void remove(const std::string& path) = 0;
};

// PostMark's counters. Bytes are counted exactly and also in a float, as PostMark does (exact only below
// 2^24): its report prints the float.
struct PostmarkCounts {
  std::int64_t created = 0;
  std::int64_t deleted = 0;
  std::int64_t read = 0;
  std::int64_t appended = 0;
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
  float bytes_read_float = 0;
  float bytes_written_float = 0;
};

class PostmarkWorkload {
 public:
  // Seeds the sequence and fills the source buffer (2 x size_high bytes of printable characters), as
  // PostMark does before anything else. `config` and `files` must outlive the workload.
  PostmarkWorkload(const PostmarkConfig& config, PostmarkFiles& files);

  // Phase 1: creates the pool of config.number files; stops early (false) when `stop` turns true.
  bool create_pool(const std::function<bool()>& stop);

  enum class TransactionsEnd { kDone, kOutOfFiles, kStopped };
  // Phase 2: the transactions; each is read-or-append, then create-or-delete. `tick` is called at every
  // tenth of the work (PostMark's progress dots). Returns how the loop ended.
  TransactionsEnd run_transactions(const std::function<bool()>& stop, const std::function<void()>& tick);
  std::int64_t transactions_done() const noexcept { return transactions_done_; }

  // Phase 3: deletes every file still in the table, in slot order. Also after a stop: this removes exactly
  // the files the workload created and nothing else.
  void delete_all();

  // The files the table still holds (after an I/O error: what must be removed by hand).
  std::vector<std::string> remaining_files() const;

  const PostmarkCounts& counts() const noexcept { return counts_; }
  // Names of the subdirectories (relative to each location) the run uses: s0 .. s<n-1> when n > 1.
  std::vector<std::string> subdirectory_paths() const;

 private:
  struct Slot {
    std::string name;
    int size = 0;  // 0: free
  };
  int find_free_slot();
  int find_used_slot();
  std::string next_file_name();
  void create_file();
  void read_file(int slot);
  void append_file(int slot);
  void delete_file(int slot);

  const PostmarkConfig& config_;
  PostmarkFiles& files_;
  PostmarkRng rng_;
  std::vector<char> source_;
  std::vector<Slot> table_;
  std::vector<const std::string*> location_index_;  // each location repeated `weight` times
  int next_slot_ = 0;
  std::int64_t transactions_done_ = 0;
  PostmarkCounts counts_;
};

}  // namespace sluice
