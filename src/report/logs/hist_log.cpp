#include "report/logs/hist_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/error.h"

namespace sluice {

std::unique_ptr<HistLog> HistLog::create(const JobSpec& job, int lognum) {
  if (job.logs.write_hist_log.empty()) return nullptr;
  return std::make_unique<HistLog>(job, lognum);
}

HistLog::HistLog(const JobSpec& job, int lognum)
    : shared_(!job.logs.per_job_logs),
      window_ns_(static_cast<std::uint64_t>(job.logs.log_hist_msec) * 1'000'000ull),
      next_ns_(window_ns_),
      stride_(1 << job.logs.log_hist_coarseness),
      issued_{job.does_reads(), job.does_writes(), job.does_trims()},
      epoch_(job.logs) {
  for (int d = 0; d < kNumDirections; ++d) {
    const std::uint64_t bs = job.workload.bsrange[d].max != 0 ? job.workload.bsrange[d].max : job.workload.bs[d];
    block_size_[d] = bs;
  }
  file_ = open_fio_log(fio_log_path(job.logs.write_hist_log, "clat_hist", lognum, job.logs.per_job_logs), shared_);
  line_.reserve(8 * kFioBins);
}

HistLog::~HistLog() {
  if (file_ != nullptr) std::fclose(file_);
}

void HistLog::write_windows(std::uint64_t t_ns, const PerDirection<DirectionStats>& dirs) {
  // One line per direction for the window that just ended (idle windows in between are skipped, as fio).
  const std::uint64_t end_ns = t_ns - t_ns % window_ns_;
  for (int d = 0; d < kNumDirections; ++d) {
    if (issued_[d]) write_line(epoch_.ms(end_ns), d, dirs[d].clat.histogram);
  }
  while (next_ns_ <= t_ns) next_ns_ += window_ns_;
}

void HistLog::write_line(std::uint64_t time_ms, int d, const LatencyHistogram& now) {
  LatencyHistogram& before = before_[d];
  line_.clear();
  fmt::format_to(std::back_inserter(line_), "{}, {}, {}", time_ms, d, block_size_[d]);
  // fio's bins: sluice's buckets, those past fio's last bin added into it; with log_hist_coarseness each
  // printed value sums `stride_` neighbouring bins (fio's hist_sum).
  std::uint64_t sum = 0;
  int in_sum = 0;
  for (int b = 0; b < LatencyHistogram::kNumBuckets; ++b) {
    sum += now.count_at(b) - before.count_at(b);
    if (b < kFioBins - 1 && ++in_sum == stride_) {
      fmt::format_to(std::back_inserter(line_), ", {}", sum);
      sum = 0;
      in_sum = 0;
    }
  }
  fmt::format_to(std::back_inserter(line_), ", {}\n", sum);
  before = now;
  std::fwrite(line_.data(), 1, line_.size(), file_);
}

void HistLog::finish(std::uint64_t t_ns, const PerDirection<DirectionStats>& dirs) {
  if (file_ == nullptr) return;
  for (int d = 0; d < kNumDirections; ++d) {
    if (!issued_[d]) continue;
    const LatencyHistogram& now = dirs[d].clat.histogram;
    // Rounded up and at least 1 ms: fiologparser_hist.py cannot weigh a window that ends at time 0.
    const std::uint64_t time_ms = epoch_.ms(std::max<std::uint64_t>(1'000'000, t_ns + 999'999));
    if (window_ns_ == 0 || now.total() != before_[d].total()) write_line(time_ms, d, now);
  }
  const bool failed = std::ferror(file_) != 0;
  std::fclose(file_);
  file_ = nullptr;
  if (failed) throw IoError("writing the histogram log failed", EIO);
}

}  // namespace sluice
