#pragma once
// Runs iozone's tests on the cells of an IozonePlan, as iozone 3.414's begin() does: per cell, the selected
// tests in order on one file, then the file is removed. Tests 0-5 go through sluice's psync engine
// (pread/pwrite at the offsets iozone's read/write/lseek calls reach), tests 6 and 7 through stdio with a
// record-sized buffer, as iozone's fwrite/fread tests. What is timed is iozone's window: the record loop,
// plus fsync with -e and close with -c; whatever is not inside still happens right after it.
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "suites/iozone_plan.h"

namespace sluice {

// The latency of one record's call (read, write, fread, fwrite), summarised when the pass ends.
struct IozoneLatency {
  std::uint64_t min_ns = 0, max_ns = 0;
  double mean_ns = 0;
  std::uint64_t p50_ns = 0, p90_ns = 0, p99_ns = 0, p999_ns = 0;  // from the log-linear histogram (< 1% error)
};

// One column of one cell.
struct IozonePass {
  bool ran = false;
  std::uint64_t bytes = 0;
  std::uint64_t records = 0;
  double seconds = 0;          // iozone's elapsed: the window minus the clock resolution (at least that)
  std::uint64_t kb_per_s = 0;  // (uint64)(bytes / seconds) >> 10, as iozone
  double cpu_percent = 0;      // -+u: 100 * (user + sys) / wall, from before the open to after the close
  IozoneLatency latency;
};

struct IozoneCellResult {
  IozoneCell cell;
  std::array<IozonePass, kIozoneColumns> passes;  // in iozone_columns() order
};

struct IozoneRunResult {
  std::vector<IozoneCellResult> cells;
  std::uint64_t time_resolution_ns = 1;
  bool interrupted = false;  // SIGINT/SIGTERM: the cells and passes completed until then
};

// Elapsed seconds and kB/s of a window of `window_ns` that moved `bytes`, as iozone computes them.
void iozone_rate(std::uint64_t bytes, std::uint64_t window_ns, std::uint64_t resolution_ns, IozonePass& out);

// Runs every cell of `plan` on `path` (created, journaled in the created-files journal, removed after each
// cell and when stopped). `on_cell` is called after each complete cell. Stops between records when a stop is
// requested (run/stop_signal.h). Throws IoError naming the file, offset and call when an I/O fails (the file is
// removed first).
IozoneRunResult run_iozone(const IozoneOptions& options, const IozonePlan& plan, const std::string& path,
                           const std::function<void(const IozoneCellResult&)>& on_cell);

}  // namespace sluice
