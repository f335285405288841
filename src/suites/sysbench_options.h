#pragma once
// sysbench fileio 1.0's options with its defaults (sb_fileio.c fileio_args[], sysbench.c general_args[]), and
// the names its report prints for them.
#include <cstdint>
#include <optional>
#include <string>

namespace sluice {

enum class SysbenchMode { kSeqwr, kSeqrewr, kSeqrd, kRndrd, kRndwr, kRndrw };
enum class SysbenchIoMode { kSync, kAsync, kMmap };
enum class SysbenchFsyncMode { kFsync, kFdatasync };

struct SysbenchOptions {
  std::uint64_t file_num = 128;
  std::uint64_t total_size = 2ull << 30;  // --file-total-size=2G (K, M, G, T are powers of 1024)
  std::uint64_t block_size = 16384;
  std::optional<SysbenchMode> mode;  // --file-test-mode: required for run
  SysbenchIoMode io_mode = SysbenchIoMode::kSync;
  std::uint32_t async_backlog = 128;  // ios in flight per thread in async mode
  bool o_sync = false;                // --file-extra-flags=sync,dsync,direct
  bool o_dsync = false;
  bool o_direct = false;
  std::uint64_t fsync_freq = 100;
  bool fsync_all = false;
  bool fsync_end = true;
  SysbenchFsyncMode fsync_mode = SysbenchFsyncMode::kFsync;
  std::uint64_t merged_requests = 0;
  double rw_ratio = 1.5;
  std::uint32_t threads = 1;
  std::uint64_t time_s = 10;  // 0 = no time limit
  std::uint64_t events = 0;   // 0 = no event limit
  std::uint64_t report_interval_s = 0;
  std::uint32_t percentile = 95;  // 0 disables the percentile line
  std::uint64_t rand_seed = 0;    // 0 = seeded from the time
  bool histogram = false;         // --histogram: print the latency histogram before the report
  std::string dir = ".";          // sluice's addition: where test_file.N live

  // Bytes per file: total / num, integer division as sysbench.
  std::uint64_t file_size() const noexcept { return file_num == 0 ? 0 : total_size / file_num; }
  // Bytes per sequential request: block x merged requests (merged 0 = 1).
  std::uint64_t seq_request_size() const noexcept { return block_size * (merged_requests > 0 ? merged_requests : 1); }
};

// Applies sysbench's implied settings: --file-fsync-all turns off the periodic and end-of-test fsyncs.
void normalise_sysbench_options(SysbenchOptions& o) noexcept;

// True for the modes that write (fsync at the end applies to them only).
bool sysbench_mode_writes(SysbenchMode mode) noexcept;
bool sysbench_mode_sequential(SysbenchMode mode) noexcept;

// The --file-test-mode spelling ("rndwr") and the report's test name ("random write").
const char* sysbench_mode_name(SysbenchMode mode) noexcept;
const char* sysbench_mode_title(SysbenchMode mode) noexcept;
// "synchronous", "asynchronous", "fast mmaped" as in "Using ... I/O mode".
const char* sysbench_io_mode_title(SysbenchIoMode mode) noexcept;

// "test_file.<i>" under o.dir.
std::string sysbench_file_path(const SysbenchOptions& o, std::uint64_t i);

// A size as sysbench prints it: the largest power of 1024 that keeps the value >= 1, with "Ki", "Mi", "Gi",
// "Ti" and no decimals when whole ("16Ki", "15.25Mi"); the caller appends "B".
std::string sysbench_size_text(double bytes);

}  // namespace sluice
