// fio-format per-io logs. Two modes, as fio: without log_avg_msec every io is one line in each log; with
// it, each log gets one line per window and direction. Unlike fio's, averaged iops and bw lines are the
// true rate over a window aligned on the job's measured start, and a window in which a direction the job
// issues did nothing is logged as 0 instead of being skipped.
#include "report/logs/job_logs.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "job/job_spec.h"
#include "report/logs/log_epoch.h"
#include "report/logs/log_file.h"
#include "report/logs/log_naming.h"

namespace sluice {
namespace {

constexpr std::uint64_t kNsPerMs = 1'000'000;
constexpr std::uint64_t kLogNsPerSec = 1'000'000'000;

// Per-io bw as fio 3.33 writes it: the io's bytes over its completion latency, in bytes per millisecond.
std::uint64_t per_io_bw(std::uint32_t bytes, std::uint64_t clat_ns) noexcept {
  return static_cast<std::uint64_t>(bytes) * 1'000'000 / (clat_ns == 0 ? 1 : clat_ns);
}

std::uint64_t rate_per_second(double amount, std::uint64_t span_ns) noexcept {
  return static_cast<std::uint64_t>(
      std::llround(amount * static_cast<double>(kLogNsPerSec) / static_cast<double>(span_ns)));
}

// fio's engines record slat only when an io is queued and completes later; sluice's async engines do that.
bool engine_has_slat(EngineKind engine) noexcept { return engine_traits(engine).async; }

struct WindowSums {
  std::uint64_t ios = 0;
  std::uint64_t bytes = 0;
  std::uint64_t lat_ns = 0;
  std::uint64_t clat_ns = 0;
  std::uint64_t slat_ns = 0;
  std::uint64_t lat_max_ns = 0;
  std::uint64_t clat_max_ns = 0;
  std::uint64_t slat_max_ns = 0;
};

class FioJobLogs final : public JobLogs {
 public:
  // log_store_compressed without log_compression: fio compresses its in-memory chunks as they fill; sluice
  // writes a stream per this many bytes of samples.
  static constexpr std::size_t kDefaultChunk = std::size_t{1} << 20;

  FioJobLogs(const LoggedJob& job, int jobnum);
  void record(Direction d, std::uint64_t t_ns, std::uint64_t lat_ns, std::uint64_t clat_ns, std::uint64_t slat_ns,
              std::uint32_t bytes, std::uint64_t offset, std::uint16_t priority) noexcept override;
  void finish(std::uint64_t t_ns) override;

 private:
  using File = std::unique_ptr<LogFile>;

  File open(const std::string& prefix, const char* kind, int jobnum) const;
  void record_one(Direction d, std::uint64_t t_ns, std::uint64_t lat_ns, std::uint64_t clat_ns, std::uint64_t slat_ns,
                  std::uint32_t bytes, std::uint64_t offset, std::uint16_t priority) noexcept;
  void advance_to(std::uint64_t t_ns) noexcept;
  void emit_window(std::uint64_t time_ms, std::uint64_t span_ns) noexcept;

  bool with_offset_;
  bool with_prio_;                // log_prio
  bool per_job_;                  // per_job_logs: one file per clone (else one shared file per log kind)
  std::size_t compressed_chunk_;  // log_store_compressed: bytes of samples per zlib stream; 0 = text
  bool log_slat_;
  bool log_max_;             // log_max_value: a window's latency line is its maximum
  bool per_io_bw_ = true;    // not disable_bw: per-io bandwidth lines (log_avg_msec=0)
  bool per_io_iops_ = true;  // not gtod_reduce (every statistic disabled): per-io iops lines
  std::uint64_t avg_ns_;
  LogEpoch epoch_;
  File lat_, clat_, slat_, bw_, iops_;
  std::array<bool, kNumDirections> issued_{};  // directions the job issues: idle windows log 0 for them
  std::uint64_t window_start_ns_ = 0;
  std::array<WindowSums, kNumDirections> window_{};
};

FioJobLogs::FioJobLogs(const LoggedJob& job, int jobnum)
    : with_offset_(job.logs.log_offset),
      with_prio_(job.logs.log_prio),
      per_job_(job.logs.per_job_logs),
      compressed_chunk_(job.logs.log_store_compressed
                            ? (job.logs.log_compression != 0 ? job.logs.log_compression : kDefaultChunk)
                            : 0),
      log_slat_(job.engine_has_slat),
      log_max_(job.logs.log_max_value),
      avg_ns_(static_cast<std::uint64_t>(job.logs.log_avg_msec) * kNsPerMs),
      epoch_(job.logs) {
  // As fio: a disabled latency gets no log file at all, and per-io bandwidth (disable_bw) or, with every
  // statistic off (gtod_reduce), per-io iops lines are not written (averaged windows still are).
  if (!job.logs.write_lat_log.empty()) {
    if (!job.report.disable_lat) lat_ = open(job.logs.write_lat_log, "lat", jobnum);
    if (!job.report.disable_clat) clat_ = open(job.logs.write_lat_log, "clat", jobnum);
    // fio creates it even when the engine has no slat
    if (!job.report.disable_slat) slat_ = open(job.logs.write_lat_log, "slat", jobnum);
  }
  per_io_bw_ = !job.report.disable_bw;
  per_io_iops_ = !(job.report.disable_clat && job.report.disable_slat && job.report.disable_bw);
  if (!job.logs.write_bw_log.empty()) bw_ = open(job.logs.write_bw_log, "bw", jobnum);
  if (!job.logs.write_iops_log.empty()) iops_ = open(job.logs.write_iops_log, "iops", jobnum);
  issued_ = job.issued;
}

FioJobLogs::File FioJobLogs::open(const std::string& prefix, const char* kind, int jobnum) const {
  std::string path = fio_log_path(prefix, kind, jobnum, per_job_);
  if (compressed_chunk_ != 0) path += ".fz";  // fio's suffix for a stored compressed log
  return std::make_unique<LogFile>(std::move(path), with_offset_, !per_job_, compressed_chunk_, with_prio_);
}

void FioJobLogs::record(Direction d, std::uint64_t t_ns, std::uint64_t lat_ns, std::uint64_t clat_ns,
                        std::uint64_t slat_ns, std::uint32_t bytes, std::uint64_t offset,
                        std::uint16_t priority) noexcept {
  if (avg_ns_ == 0) return record_one(d, t_ns, lat_ns, clat_ns, slat_ns, bytes, offset, priority);
  if (t_ns >= window_start_ns_ + avg_ns_) advance_to(t_ns);
  WindowSums& sums = window_[static_cast<std::size_t>(index_of(d))];
  sums.ios++;
  sums.bytes += bytes;
  sums.lat_ns += lat_ns;
  sums.clat_ns += clat_ns;
  sums.slat_ns += slat_ns;
  sums.lat_max_ns = std::max(sums.lat_max_ns, lat_ns);
  sums.clat_max_ns = std::max(sums.clat_max_ns, clat_ns);
  sums.slat_max_ns = std::max(sums.slat_max_ns, slat_ns);
}

void FioJobLogs::record_one(Direction d, std::uint64_t t_ns, std::uint64_t lat_ns, std::uint64_t clat_ns,
                            std::uint64_t slat_ns, std::uint32_t bytes, std::uint64_t offset,
                            std::uint16_t priority) noexcept {
  LogLine line{.time_ms = epoch_.ms(t_ns),
               .value = 0,
               .ddir = index_of(d),
               .block_size = bytes,
               .offset = offset,
               .priority = priority};
  if (lat_) {
    line.value = lat_ns;
    lat_->append(line);
  }
  if (clat_) {
    line.value = clat_ns;
    clat_->append(line);
  }
  if (slat_ && log_slat_) {
    line.value = slat_ns;
    slat_->append(line);
  }
  if (bw_ && per_io_bw_) {
    line.value = per_io_bw(bytes, clat_ns);
    bw_->append(line);
  }
  if (iops_ && per_io_iops_) {
    line.value = 1;
    iops_->append(line);
  }
}

// Closes the current window and every idle one before the window holding t_ns.
void FioJobLogs::advance_to(std::uint64_t t_ns) noexcept {
  while (t_ns >= window_start_ns_ + avg_ns_) {
    window_start_ns_ += avg_ns_;
    emit_window(epoch_.ms(window_start_ns_), avg_ns_);
  }
}

// Averaged lines have block size 0 and offset 0, as fio's.
void FioJobLogs::emit_window(std::uint64_t time_ms, std::uint64_t span_ns) noexcept {
  for (int i = 0; i < kNumDirections; ++i) {
    WindowSums& sums = window_[static_cast<std::size_t>(i)];
    const LogLine base{.time_ms = time_ms, .value = 0, .ddir = i, .block_size = 0, .offset = 0};
    if (sums.ios > 0) {
      LogLine line = base;
      if (lat_) {
        line.value = log_max_ ? sums.lat_max_ns : sums.lat_ns / sums.ios;
        lat_->append(line);
      }
      if (clat_) {
        line.value = log_max_ ? sums.clat_max_ns : sums.clat_ns / sums.ios;
        clat_->append(line);
      }
      if (slat_ && log_slat_) {
        line.value = log_max_ ? sums.slat_max_ns : sums.slat_ns / sums.ios;
        slat_->append(line);
      }
    }
    if (sums.ios > 0 || issued_[static_cast<std::size_t>(i)]) {
      LogLine line = base;
      if (iops_) {
        line.value = rate_per_second(static_cast<double>(sums.ios), span_ns);
        iops_->append(line);
      }
      if (bw_) {
        line.value = rate_per_second(static_cast<double>(sums.bytes) / 1024.0, span_ns);
        bw_->append(line);
      }
    }
    sums = WindowSums{};
  }
}

void FioJobLogs::finish(std::uint64_t t_ns) {
  if (avg_ns_ != 0) {
    if (t_ns >= window_start_ns_ + avg_ns_) advance_to(t_ns);
    // The last, partial window: logged when it spans at least a millisecond (rates over less are noise).
    // An io in flight at the end may complete (and open a window) after t_ns, the end of the measured window.
    const std::uint64_t span_ns = t_ns > window_start_ns_ ? t_ns - window_start_ns_ : 0;
    if (span_ns >= kNsPerMs) emit_window(t_ns / kNsPerMs, span_ns);
  }
  for (File* file : {&lat_, &clat_, &slat_, &bw_, &iops_}) {
    if (*file) (*file)->close();
  }
}

}  // namespace

LoggedJob::LoggedJob(const JobSpec& job)
    : logs(job.logs),
      report(job.report),
      engine_has_slat(sluice::engine_has_slat(job.engine.ioengine)),
      issued{job.does_reads(), job.does_writes(), job.does_trims()} {}

std::unique_ptr<JobLogs> JobLogs::create(const LoggedJob& job, int jobnum) {
  if (job.logs.write_lat_log.empty() && job.logs.write_bw_log.empty() && job.logs.write_iops_log.empty())
    return nullptr;
  return std::make_unique<FioJobLogs>(job, jobnum);
}

}  // namespace sluice
