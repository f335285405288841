#include "run/status_line.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

#include "job/units.h"

namespace sluice {
namespace {

std::string clock_text(std::uint64_t ns) {
  const std::uint64_t s = ns / 1'000'000'000ull;
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{:02}:{:02}", s / 60, s % 60);
}

std::string iops_text(double iops) {
  if (iops >= 1e6) return fmt::format("{:.2f}M", iops / 1e6);
  if (iops >= 1e4) return fmt::format("{:.1f}k", iops / 1e3);
  return fmt::format("{:.0f}", iops);
}

}  // namespace

std::string format_status(std::uint64_t elapsed_ns, std::uint64_t eta_ns, const PerDirection<double>& iops,
                          const PerDirection<double>& bytes_per_s) {
  std::string line = fmt::format("[{} elapsed, eta {}]", clock_text(elapsed_ns), eta_ns ? clock_text(eta_ns) : "--:--");
  for (Direction d : kAllDirections) {
    const int i = index_of(d);
    if (iops[i] <= 0 && bytes_per_s[i] <= 0) continue;
    line +=
        fmt::format(" {}: {} IOPS, {:.1f} MiB/s", direction_name(d), iops_text(iops[i]), bytes_per_s[i] / 1048576.0);
  }
  return line;
}

StatusLine::StatusLine(bool enabled, bool forced, std::uint64_t newline_ns)
    : active_(enabled && (forced || isatty(STDERR_FILENO) == 1)), newline_ns_(newline_ns) {}

void StatusLine::update(const std::vector<Worker*>& workers, std::uint64_t elapsed_ns, std::uint64_t expected_ns,
                        std::uint64_t planned_bytes) {
  if (!active_) return;
  PerDirection<std::uint64_t> ios{}, bytes{};
  std::uint64_t total_bytes = 0;
  for (const Worker* w : workers) {
    for (Direction d : kAllDirections) {
      ios[index_of(d)] += w->live().ios[index_of(d)].load(std::memory_order_relaxed);
      bytes[index_of(d)] += w->live().bytes[index_of(d)].load(std::memory_order_relaxed);
    }
  }
  const double dt = last_ns_ && elapsed_ns > last_ns_ ? static_cast<double>(elapsed_ns - last_ns_) / 1e9 : 0.0;
  PerDirection<double> iops{}, bw{};
  for (Direction d : kAllDirections) {
    const int i = index_of(d);
    total_bytes += bytes[i];
    if (dt > 0) {
      iops[i] = static_cast<double>(ios[i] - last_ios_[i]) / dt;
      bw[i] = static_cast<double>(bytes[i] - last_bytes_[i]) / dt;
    }
  }
  std::uint64_t eta = 0;
  if (expected_ns > elapsed_ns) {
    eta = expected_ns - elapsed_ns;
  } else if (planned_bytes > 0 && total_bytes > 0 && total_bytes < planned_bytes) {
    eta =
        static_cast<std::uint64_t>(static_cast<double>(elapsed_ns) * static_cast<double>(planned_bytes - total_bytes) /
                                   static_cast<double>(total_bytes));
  }
  last_ns_ = elapsed_ns;
  last_ios_ = ios;
  last_bytes_ = bytes;
  const std::string line = format_status(elapsed_ns, eta, iops, bw);
  if (newline_ns_ != 0 && elapsed_ns - last_newline_ns_ >= newline_ns_) {
    std::fputc('\n', stderr);  // keeps the previous line; the new one starts below it
    last_newline_ns_ = elapsed_ns;
  }
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
}

void StatusLine::clear() {
  if (!active_) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
}

}  // namespace sluice
