#include "scale/scale_run.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "common/clock.h"
#include "common/error.h"
#include "common/stop_signal.h"
#include "observe/environment.h"

namespace sluice {
namespace {

std::string joined(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

void log_line(int fd, const std::string& line) {
  const std::string text = "\n=== sluice scale: " + line + "\n";
  (void)!::write(fd, text.data(), text.size());
}

}  // namespace

ScaleResult run_scale(const ScaleOptions& options) {
  ScaleResult result;
  result.timestamp_ms = wall_clock_ms();
  result.options = options;
  result.cpus = std::thread::hardware_concurrency();
  const int log_fd = ::open(options.log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0) {
    throw UserError("--log=" + options.log_path + ": cannot open: " + std::strerror(errno));
  }
  result.environment = capture_environment({});
  result.virtualization = detect_virtualization();
  for (const std::uint32_t n : scale_values(options, result.cpus)) {
    ScaleRow row{n, {}};
    for (std::uint32_t r = 1; r <= options.runs && !result.failed; ++r) {
      if (!options.prepare.empty()) {
        log_line(log_fd, "prepare: " + options.prepare);
        const ChildRun prep = run_child({"/bin/sh", "-c", options.prepare}, log_fd, options.timeout);
        if (!prep.ok()) {
          result.failed = true;
          result.failure = {n, r, true, prep, options.prepare};
          break;
        }
      }
      const std::vector<std::string> argv = scale_argv(options, n);
      log_line(log_fd, "N=" + std::to_string(n) + " run " + std::to_string(r) + ": " + joined(argv));
      const ChildRun run = run_child(argv, log_fd, options.timeout);
      log_line(log_fd, run.ok() ? "done in " + std::to_string(run.wall_s) + " s" : describe_failure(run));
      if (!run.ok()) {
        result.failed = true;
        result.failure = {n, r, false, run, joined(argv)};
        break;
      }
      row.runs.push_back(run);
    }
    if (result.failed) break;
    result.rows.push_back(std::move(row));
  }
  result.interrupted = result.failed && result.failure.child.interrupted;
  ::close(log_fd);
  return result;
}

}  // namespace sluice
