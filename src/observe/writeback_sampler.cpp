#include "observe/writeback_sampler.h"

#include <unistd.h>

#include <fstream>
#include <sstream>

namespace sluice {

MemInfo parse_meminfo(const std::string& text) {
  MemInfo m;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = line.substr(0, colon);
    std::istringstream rest(line.substr(colon + 1));
    std::uint64_t value = 0;
    std::string unit;
    if (!(rest >> value)) continue;
    rest >> unit;
    if (unit == "kB") value *= 1024;
    if (key == "MemTotal")
      m.mem_total = value;
    else if (key == "MemFree")
      m.mem_free = value;
    else if (key == "MemAvailable")
      m.mem_available = value;
    else if (key == "Cached")
      m.cached = value;
    else if (key == "Active(file)")
      m.active_file = value;
    else if (key == "Inactive(file)")
      m.inactive_file = value;
    else if (key == "Dirty")
      m.dirty = value;
    else if (key == "Writeback")
      m.writeback = value;
  }
  return m;
}

std::optional<MemInfo> read_meminfo(const std::string& proc_root) {
  std::ifstream in(proc_root + "/meminfo");
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_meminfo(buffer.str());
}

std::optional<KernelDirtyThresholds> parse_vmstat_thresholds(const std::string& text, std::uint64_t page_size) {
  std::istringstream in(text);
  std::string key;
  std::uint64_t value = 0;
  bool limit = false, background = false;
  KernelDirtyThresholds t;
  while (in >> key >> value) {
    if (key == "nr_dirty_threshold") {
      t.limit_bytes = value * page_size;
      limit = true;
    } else if (key == "nr_dirty_background_threshold") {
      t.background_bytes = value * page_size;
      background = true;
    }
  }
  if (!limit || !background) return std::nullopt;
  return t;
}

std::optional<KernelDirtyThresholds> read_kernel_dirty_thresholds(const std::string& proc_root) {
  std::ifstream in(proc_root + "/vmstat");
  if (!in) return std::nullopt;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_vmstat_thresholds(buffer.str(), static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)));
}

WritebackProbe::WritebackProbe(std::string device, std::string proc_root, std::string sys_root)
    : device_(std::move(device)), proc_root_(std::move(proc_root)), sys_root_(std::move(sys_root)) {}

void WritebackProbe::begin() { have_previous_ = !device_.empty() && read_disk_counters(device_, previous_, sys_root_); }

WritebackSample WritebackProbe::sample(std::chrono::nanoseconds since_previous, double t_s) {
  WritebackSample s;
  s.t_s = t_s;
  if (auto m = read_meminfo(proc_root_)) {
    s.dirty_bytes = m->dirty;
    s.writeback_bytes = m->writeback;
  }
  if (auto k = read_kernel_dirty_thresholds(proc_root_)) {
    s.dirty_threshold_bytes = k->limit_bytes;
    s.background_threshold_bytes = k->background_bytes;
  }
  DiskCounters now;
  if (device_.empty() || !read_disk_counters(device_, now, sys_root_)) return s;
  s.dev_in_flight = now.in_flight;
  const double ms = static_cast<double>(since_previous.count()) / 1e6;
  if (have_previous_ && ms > 0) {
    s.dev_util = std::min(100.0, 100.0 * static_cast<double>(now.io_ticks_ms - previous_.io_ticks_ms) / ms);
    s.dev_queue = static_cast<double>(now.in_queue_ms - previous_.in_queue_ms) / ms;
    s.dev_write_bytes = (now.write_sectors - previous_.write_sectors) * 512;
  }
  previous_ = now;
  have_previous_ = true;
  return s;
}

WritebackSampler::WritebackSampler(std::string device, std::chrono::nanoseconds interval, std::string proc_root,
                                   std::string sys_root)
    : probe_(std::move(device), std::move(proc_root), std::move(sys_root)), interval_(interval) {}

WritebackSampler::~WritebackSampler() { stop(); }

void WritebackSampler::start() {
  probe_.begin();
  thread_ = std::thread([this] { loop(); });
}

void WritebackSampler::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void WritebackSampler::loop() {
  const auto start = std::chrono::steady_clock::now();
  auto previous = start;
  auto next = start + interval_;
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_until(lock, next, [this] { return stopping_; })) {
    const auto now = std::chrono::steady_clock::now();
    const double t_s = std::chrono::duration<double>(now - start).count();
    samples_.push_back(probe_.sample(now - previous, t_s));
    previous = now;
    next += interval_;
  }
}

}  // namespace sluice
