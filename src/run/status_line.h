#pragma once
// The live status line: elapsed, ETA, current IOPS and bandwidth per direction, rewritten in place on a
// terminal (stderr). It is never written when stderr is not a terminal, so redirected output stays clean.
#include <cstdint>
#include <string>
#include <vector>

#include "run/worker.h"

namespace sluice {

class StatusLine {
 public:
  // enabled: the caller's wish; the line still only appears when stderr is a terminal, unless forced.
  // newline_ns: when not 0, the line is ended (kept on screen) once per period, as fio's --eta-newline.
  StatusLine(bool enabled, bool forced, std::uint64_t newline_ns = 0);
  bool active() const noexcept { return active_; }
  // Samples the workers' counters and redraws. expected_ns: planned duration of the group (0 = unknown);
  // planned_bytes: bytes a size-based group will move (0 = unknown).
  void update(const std::vector<Worker*>& workers, std::uint64_t elapsed_ns, std::uint64_t expected_ns,
              std::uint64_t planned_bytes);
  void clear();

 private:
  bool active_ = false;
  std::uint64_t newline_ns_ = 0;
  std::uint64_t last_newline_ns_ = 0;
  std::uint64_t last_ns_ = 0;
  PerDirection<std::uint64_t> last_ios_{};
  PerDirection<std::uint64_t> last_bytes_{};
};

// The text of one status line (pure, for tests).
std::string format_status(std::uint64_t elapsed_ns, std::uint64_t eta_ns, const PerDirection<double>& iops,
                          const PerDirection<double>& bytes_per_s);

}  // namespace sluice
