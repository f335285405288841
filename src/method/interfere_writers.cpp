#include "method/interfere_writers.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "run/runner.h"

namespace sluice {

std::uint32_t choose_writers(double one_writer_bps, std::uint64_t throttle_bytes, std::chrono::nanoseconds phase,
                             std::uint32_t max_writers) {
  max_writers = std::max<std::uint32_t>(1, max_writers);
  if (one_writer_bps <= 0) return 1;
  const double window_s = std::chrono::duration<double>(phase).count() / 3;
  if (window_s <= 0) return max_writers;
  const double needed = static_cast<double>(throttle_bytes) / (one_writer_bps * window_s);
  if (needed > max_writers) return max_writers;
  return std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::ceil(needed)));
}

std::uint32_t max_auto_writers() {
  const std::uint32_t cpus = std::thread::hardware_concurrency();
  return std::clamp<std::uint32_t>(cpus > 1 ? cpus - 1 : 1, 1, 4);
}

double probe_writer_rate(const std::string& file, std::uint64_t bs, std::uint64_t bytes) {
  JobSpec j;
  j.name = "bg-probe";
  j.target.filenames = {file};
  j.target.size.bytes = bytes;
  j.workload.rw = RwMode::kWrite;
  j.workload.bs = {bs, bs, bs};
  j.buffers.zero_buffers = true;
  j.engine.ioengine = EngineKind::kPsync;
  j.target.create_on_open = true;
  j.target.unlink = true;
  RunnerOptions ro;
  ro.capture_environment = false;
  ro.notice = [](const std::string&) {};
  const RunResult run = run_jobs({j}, ro);
  if (run.groups.empty() || run.groups.front().jobs.empty()) return 0;
  const JobResult& job = run.groups.front().jobs.front();
  const auto& w = job.dirs[static_cast<std::size_t>(index_of(Direction::kWrite))];
  return job.runtime_ns ? static_cast<double>(w.bytes) * 1e9 / static_cast<double>(job.runtime_ns) : 0;
}

}  // namespace sluice
