#pragma once
// fio's log file names and the opening of log files that several jobs share (per_job_logs=0).
#include <cstdio>
#include <string>

namespace sluice {

// fio's log file name: PREFIX_KIND.N.log (N = lognum + 1), or PREFIX_KIND.log when per_job is false.
std::string fio_log_path(const std::string& prefix, const std::string& kind, int lognum, bool per_job);

// Opens (creates) a log file. shared: several jobs of this process write it; the first open in the process
// truncates, later ones append, and the stream is unbuffered so that each fwrite of whole lines is one
// append that never splits a line. Throws UserError when it cannot be opened.
std::FILE* open_fio_log(const std::string& path, bool shared);

}  // namespace sluice
