#include "method/interfere_explain.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "job/units.h"

namespace sluice {
namespace {

std::string mib(double bytes) { return fmt::format("{:.0f} MiB", bytes / 1048576.0); }

}  // namespace

DirtyLimits resolve_dirty_limits(const MemInfo& memory, const VmDirtySettings& vm) {
  DirtyLimits d;
  d.dirtyable_bytes = memory.mem_free + memory.active_file + memory.inactive_file;
  const auto ratio_of = [&](std::uint64_t percent) {
    return static_cast<std::uint64_t>(static_cast<long double>(d.dirtyable_bytes) * percent / 100);
  };
  d.limit_from_bytes = vm.dirty_bytes != 0;
  d.limit_bytes = d.limit_from_bytes ? vm.dirty_bytes : ratio_of(vm.dirty_ratio);
  d.background_from_bytes = vm.dirty_background_bytes != 0;
  d.background_bytes = d.background_from_bytes ? vm.dirty_background_bytes : ratio_of(vm.dirty_background_ratio);
  if (d.background_bytes >= d.limit_bytes) d.background_bytes = d.limit_bytes / 2;
  return d;
}

Explanation explain(const ExplainInput& in) {
  Explanation e;
  const DirtyLimits& d = in.limits;
  std::string& t = e.text;
  t += fmt::format(
      "Dirty limits: writers are throttled above {} of dirty page cache ({}), and background "
      "writeback starts above {} ({}); dirtyable memory ~ MemFree + Active(file) + Inactive(file) = {}.\n",
      mib(static_cast<double>(d.limit_bytes)),
      d.limit_from_bytes ? "vm.dirty_bytes" : fmt::format("vm.dirty_ratio={}%", in.vm.dirty_ratio),
      mib(static_cast<double>(d.background_bytes)),
      d.background_from_bytes ? "vm.dirty_background_bytes"
                              : fmt::format("vm.dirty_background_ratio={}%", in.vm.dirty_background_ratio),
      mib(static_cast<double>(d.dirtyable_bytes)));
  if (d.from_kernel) {
    t += "(The limit and the threshold are the kernel's own, nr_dirty_threshold and nr_dirty_background_threshold "
         "in /proc/vmstat; the dirtyable memory is sluice's estimate.)\n";
  }
  if (in.device_write_bps > 0) {
    e.limit_seconds = static_cast<double>(d.limit_bytes) / in.device_write_bps;
    e.background_seconds = static_cast<double>(d.background_bytes) / in.device_write_bps;
    t += fmt::format(
        "The device wrote up to {:.1f} MiB/s in these phases, so the dirty limit holds up to "
        "{:.1f} s of device writing and the background threshold up to {:.1f} s.\n",
        in.device_write_bps / 1048576.0, e.limit_seconds, e.background_seconds);
    t += fmt::format(
        "An fsync waits for its own data and the filesystem journal, queued behind writeback already "
        "sent to the device: once the kernel flushes a backlog of that size, a single fsync can wait "
        "for a large part of it (seconds; at worst {:.1f} s), and writers at the limit are slowed to "
        "the device's rate.\n",
        e.limit_seconds);
  } else {
    t += "The device's write rate was not measured, so the limits cannot be put in seconds.\n";
  }
  if (in.background_bps > 0) {
    e.fill_seconds = static_cast<double>(d.background_bytes) / in.background_bps;
    t += fmt::format(
        "The background writer dirtied pages at {:.1f} MiB/s: {:.1f} s to reach the background "
        "threshold.\n",
        in.background_bps / 1048576.0, e.fill_seconds);
  }
  e.reached_background = in.peak_dirty_bytes + in.peak_writeback_bytes >= d.background_bytes;
  if (!e.reached_background && in.plateau_start_s >= 0) {
    e.reached_background = true;
    t += fmt::format(
        "Dirty data levelled off at {} from t = {:.0f} s while the writer kept writing: that is the "
        "kernel's effective background threshold (below the estimate above, which counts memory the "
        "kernel keeps in reserve), so writeback ran from then on and competed with the foreground's "
        "fsyncs on the device.\n",
        mib(static_cast<double>(in.plateau_bytes)), in.plateau_start_s);
  } else if (!e.reached_background) {
    t += fmt::format(
        "Dirty data peaked at {} (+{} under writeback), below the background threshold: within a "
        "{:.0f} s phase the kernel mostly kept the flood in memory, so the foreground competed with "
        "little writeback. A longer --budget or a smaller vm.dirty_bytes (--try) shows the effect.\n",
        mib(static_cast<double>(in.peak_dirty_bytes)), mib(static_cast<double>(in.peak_writeback_bytes)),
        in.phase_seconds);
  } else {
    t += fmt::format(
        "Dirty data peaked at {} (+{} under writeback): the background writer reached the "
        "background threshold, so writeback competed with the foreground's fsyncs on the device.\n",
        mib(static_cast<double>(in.peak_dirty_bytes)), mib(static_cast<double>(in.peak_writeback_bytes)));
  }
  if (in.slowdown > 0) {
    t += in.slowdown >= 1.5
             ? fmt::format("Result: the foreground was {:.1f}x slower under the background writer.\n", in.slowdown)
             : fmt::format("Result: no marked slowdown (factor {:.2f}).\n", in.slowdown);
  }
  return e;
}

DirtyPlateau find_dirty_plateau(const std::vector<double>& t_s, const std::vector<std::uint64_t>& dirty_bytes,
                                std::size_t run) {
  constexpr std::uint64_t kFloor = 64ull << 20;
  const std::size_t n = std::min(t_s.size(), dirty_bytes.size());
  for (std::size_t i = 0; run > 0 && i + run <= n; ++i) {
    const double level = static_cast<double>(dirty_bytes[i]);
    if (dirty_bytes[i] < kFloor) continue;
    bool flat = true;
    for (std::size_t j = i + 1; j < i + run && flat; ++j) {
      flat = std::abs(static_cast<double>(dirty_bytes[j]) - level) <= 0.05 * level;
    }
    if (flat) return DirtyPlateau{t_s[i], dirty_bytes[i]};
  }
  return DirtyPlateau{};
}

}  // namespace sluice
