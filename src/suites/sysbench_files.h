#pragma once
// The test files of sysbench fileio: test_file.0 .. test_file.<num-1> in the options' directory.
#include <cstdint>
#include <string>
#include <vector>

#include "suites/sysbench_options.h"

namespace sluice {

// What `prepare` did, for its report.
struct SysbenchPrepareResult {
  std::vector<std::string> lines;  // "Creating file test_file.0", "Reusing existing file ...", ...
  std::uint64_t bytes_written = 0;
  double seconds = 0;
};

// sysbench's create_files(): for each file, appends whole --file-block-size blocks of zeros from its current
// end until it holds at least file_size bytes (so it may end rounded up to a block), fsyncs and closes it,
// with the extra open flags (new files are 0600, as sysbench makes them); through sluice's psync engine. Throws
// UserError naming the file on failure.
SysbenchPrepareResult sysbench_prepare(const SysbenchOptions& o);

// Removes test_file.0 .. num-1 (missing ones are not an error). Returns how many were removed.
std::uint64_t sysbench_cleanup(const SysbenchOptions& o);

// Opens every file for `run` (O_RDWR plus the extra flags). seqwr re-creates each file empty first (and, in
// mmap mode, sizes it to file_size); other modes need each file to hold at least file_size bytes, else a
// UserError says which file, its size and the size expected, as sysbench does. Closes what it opened on error.
std::vector<int> sysbench_open_files(const SysbenchOptions& o);
void sysbench_close_files(std::vector<int>& fds) noexcept;

// O_SYNC / O_DSYNC / O_DIRECT from --file-extra-flags, and their report text ("dsync directio", "(none)").
int sysbench_extra_open_flags(const SysbenchOptions& o) noexcept;
std::string sysbench_extra_flags_text(const SysbenchOptions& o);

}  // namespace sluice
