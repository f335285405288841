// Which log files a run's jobs wrote, and each as fio's IOLOG message.
#include "fionet/server_logs.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "fionet/hist_log_pdu.h"
#include "report/logs/log_naming.h"

namespace sluice::fionet {

std::vector<JobLogFile> job_log_files(const std::vector<JobSpec>& jobs) {
  std::vector<JobLogFile> files;
  int lognum = 0;
  for (const JobSpec& job : jobs) {
    for (std::uint32_t clone = 0; clone < job.control.numjobs; ++clone, ++lognum) {
      const auto add = [&](const std::string& prefix, const char* kind, IoLogType type) {
        if (prefix.empty()) return;
        JobLogFile f;
        f.path = fio_log_path(prefix, kind, lognum, job.logs.per_job_logs);
        f.stored_compressed = job.logs.log_store_compressed && type != IoLogType::kHist;
        if (type == IoLogType::kHist) f.hist_coarseness = job.logs.log_hist_coarseness;
        if (f.stored_compressed) f.path += ".fz";
        f.type = type;
        f.thread_number = static_cast<std::uint32_t>(lognum + 1);
        const bool known =
            std::any_of(files.begin(), files.end(), [&](const JobLogFile& g) { return g.path == f.path; });
        if (!known) files.push_back(std::move(f));
      };
      add(job.logs.write_lat_log, "lat", IoLogType::kLat);
      add(job.logs.write_lat_log, "clat", IoLogType::kClat);
      add(job.logs.write_lat_log, "slat", IoLogType::kSlat);
      add(job.logs.write_bw_log, "bw", IoLogType::kBw);
      add(job.logs.write_iops_log, "iops", IoLogType::kIops);
      add(job.logs.write_hist_log, "clat_hist", IoLogType::kHist);
    }
  }
  return files;
}

std::optional<IoLog> log_for_client(const JobLogFile& file, std::filesystem::file_time_type run_start, bool compressed,
                                    std::string& problem) {
  problem.clear();
  std::error_code ec;
  const auto written = std::filesystem::last_write_time(file.path, ec);
  if (ec || written < run_start) return std::nullopt;
  std::ifstream in(file.path, std::ios::binary);
  if (!in) {
    problem = fmt::format("cannot read the log {}", file.path);
    return std::nullopt;
  }
  IoLog log;
  log.name = file.path;
  log.thread_number = file.thread_number;
  log.type = file.type;
  log.hist_coarseness = file.hist_coarseness;
  std::size_t bad_line = 0;
  std::optional<std::vector<std::uint8_t>> data;
  if (file.type == IoLogType::kHist) {  // read line by line: its records are 14.9 KB a window
    data = hist_records_of_log_text(in, file.hist_coarseness, compressed, bad_line, log.samples);
  } else {
    std::ostringstream content;
    content << in.rdbuf();
    const std::string text = content.str();
    if (file.stored_compressed) {
      log.compression = IoLogCompression::kStored;  // fio's client writes the bytes as they are
      log.data.assign(text.begin(), text.end());
      return log;
    }
    data = samples_of_log_text(text, bad_line, log.samples);
    if (data && compressed) data = deflate_for_transfer(*data);
  }
  if (in.bad()) {
    problem = fmt::format("cannot read the log {}", file.path);
    return std::nullopt;
  }
  if (!data) {
    problem = fmt::format("{}:{}: not a line of fio's {}log format; the log was not sent", file.path, bad_line,
                          file.type == IoLogType::kHist ? "histogram " : "");
    return std::nullopt;
  }
  if (compressed) log.compression = IoLogCompression::kTransfer;
  log.data = std::move(*data);
  return log;
}

}  // namespace sluice::fionet
