#pragma once
// A sluice server's side of fio's IOLOG: the logs its jobs wrote (write_lat_log, write_bw_log, write_iops_log,
// write_hist_log) go to the client, as fio's server sends them instead of writing them (the client writes
// NAME.HOST). sluice's runner writes them as a local run does; once sent, the server's copies are removed.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "fionet/iolog_pdu.h"
#include "job/job_spec.h"

namespace sluice::fionet {

struct JobLogFile {
  std::string path;  // as the job names it (relative to the server's directory, or absolute)
  IoLogType type = IoLogType::kLat;
  std::uint32_t thread_number = 1;    // fio's: the clone's position in the run, from 1
  bool stored_compressed = false;     // log_store_compressed: the file holds zlib streams (sent as stored)
  std::uint32_t hist_coarseness = 0;  // a histogram log's log_hist_coarseness (the values its lines hold)
};

// The log files the jobs name, clone by clone in the run's order (a file shared by per_job_logs=0 once).
// A histogram log is always text (sluice does not store it compressed).
std::vector<JobLogFile> job_log_files(const std::vector<JobSpec>& jobs);

// The IOLOG message of one log file (its text lines as fio's binary samples, a histogram log's as fio's
// histogram records with each window's counts, or a stored compressed file's bytes as they are). compressed:
// the samples or records as one zlib stream (XMIT_COMPRESSED; a stored log stays as it is). nullopt with
// `problem` set when it cannot be read or is not a log of fio's format; nullopt with no problem when the file
// does not exist or is older than `run_start` (the run did not write it).
std::optional<IoLog> log_for_client(const JobLogFile& file, std::filesystem::file_time_type run_start, bool compressed,
                                    std::string& problem);

}  // namespace sluice::fionet
