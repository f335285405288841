#pragma once
// The writeback timeline of `sluice interfere`: once per interval, /proc/meminfo Dirty and Writeback and the
// device's utilization, in-flight ios and average queue from /sys/block/<dev>/stat. proc_root / sys_root are
// parameters so tests drive it with synthetic trees.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "observe/disk_stats.h"

namespace sluice {

// The /proc/meminfo fields the dirty-limit arithmetic and the timeline need, in bytes.
struct MemInfo {
  std::uint64_t mem_total = 0;
  std::uint64_t mem_free = 0;
  std::uint64_t mem_available = 0;
  std::uint64_t cached = 0;
  std::uint64_t active_file = 0;
  std::uint64_t inactive_file = 0;
  std::uint64_t dirty = 0;
  std::uint64_t writeback = 0;
};

// Parses meminfo text ("Dirty:   6472 kB"); fields not present stay 0.
MemInfo parse_meminfo(const std::string& text);
// Reads <proc_root>/meminfo; nullopt when unreadable.
std::optional<MemInfo> read_meminfo(const std::string& proc_root = "/proc");

// The kernel's own global dirty thresholds, in bytes, from <proc_root>/vmstat (nr_dirty_threshold and
// nr_dirty_background_threshold, in pages: the kernel computes them from its dirtyable memory when the file is
// read, so they are exact where sluice's estimate from meminfo is not). nullopt when absent or unreadable.
struct KernelDirtyThresholds {
  std::uint64_t limit_bytes = 0;
  std::uint64_t background_bytes = 0;
};
std::optional<KernelDirtyThresholds> parse_vmstat_thresholds(const std::string& text, std::uint64_t page_size);
std::optional<KernelDirtyThresholds> read_kernel_dirty_thresholds(const std::string& proc_root = "/proc");

struct WritebackSample {
  double t_s = 0;                 // end of the interval, seconds since start()
  std::uint64_t dirty_bytes = 0;  // at the sample
  std::uint64_t writeback_bytes = 0;
  double dev_util = 0;                      // percent of the interval the device was busy (io_ticks)
  std::uint64_t dev_in_flight = 0;          // ios in flight at the sample
  double dev_queue = 0;                     // average ios queued over the interval (in_queue ms / interval ms)
  std::uint64_t dev_write_bytes = 0;        // written by the device in the interval
  std::uint64_t dirty_threshold_bytes = 0;  // the kernel's at the sample (0: /proc/vmstat lacks it)
  std::uint64_t background_threshold_bytes = 0;
};

// Takes one sample relative to the previous reading. Pure apart from reading the two files; used by the
// sampler thread and by tests with a chosen elapsed time.
class WritebackProbe {
 public:
  WritebackProbe(std::string device, std::string proc_root = "/proc", std::string sys_root = "/sys");
  // Records the first device reading; later samples are differences from the previous one.
  void begin();
  WritebackSample sample(std::chrono::nanoseconds since_previous, double t_s);

 private:
  std::string device_;
  std::string proc_root_;
  std::string sys_root_;
  DiskCounters previous_{};
  bool have_previous_ = false;
};

// Samples on its own thread from start() to stop(). stop() is idempotent; the destructor calls it.
class WritebackSampler {
 public:
  WritebackSampler(std::string device, std::chrono::nanoseconds interval, std::string proc_root = "/proc",
                   std::string sys_root = "/sys");
  ~WritebackSampler();
  void start();
  void stop();
  const std::vector<WritebackSample>& samples() const { return samples_; }  // after stop()

 private:
  void loop();

  WritebackProbe probe_;
  std::chrono::nanoseconds interval_;
  std::vector<WritebackSample> samples_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace sluice
