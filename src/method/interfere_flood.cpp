#include "method/interfere_flood.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace sluice {
namespace {

constexpr double kReachTolerance = 0.95;  // see the header: the estimate overstates dirtyable memory
constexpr double kHeldSeconds = 3;        // Dirty held at the background threshold this long: writeback kept up
constexpr double kFloodMiB = 1048576.0;

std::string flood_mib(double bytes) { return fmt::format("{:.0f} MiB", bytes / kFloodMiB); }
std::string flood_rate(double bps) { return fmt::format("{:.0f} MiB/s", bps / kFloodMiB); }

std::string writer_text(const FloodInput& in) {
  const std::string bs = in.writer_bs >= (1u << 20) && in.writer_bs % (1u << 20) == 0
                             ? fmt::format("{} MiB", in.writer_bs >> 20)
                             : fmt::format("{} KiB", in.writer_bs >> 10);
  return fmt::format("{} writer{} of {} blocks", in.writers, in.writers == 1 ? "" : "s", bs);
}

// The first cause that applies, in plain words; the caller prefixes the verdict.
std::string cause(const FloodInput& in, const FloodVerdict& v) {
  const double throttle = static_cast<double>(v.throttle_bytes);
  if (in.writer_bps <= 0) return "the background writer wrote nothing";
  if (static_cast<double>(in.background_bytes) < throttle * kReachTolerance) {
    switch (in.sizing) {
      case BackgroundSizing::kCappedBySpace:
        return fmt::format(
            "free space: the background files could be only {} (the filesystem had {} free, less "
            "the foreground file and a margin), below the {} needed",
            flood_mib(double(in.background_bytes)), flood_mib(double(in.free_bytes)), flood_mib(throttle));
      case BackgroundSizing::kUserSize:
        return fmt::format("--bg-size={} is below the {} needed", flood_mib(double(in.background_bytes)),
                           flood_mib(throttle));
      case BackgroundSizing::kFromLimit:
        break;
    }
    return fmt::format("the background files ({}) are smaller than the {} needed",
                       flood_mib(double(in.background_bytes)), flood_mib(throttle));
  }
  // Beside the fsync'd foreground the writers can be far slower than one writer alone (measured: 17-24x on ext4).
  const std::string slowed = in.writer_alone_bps > 2 * in.writer_bps
                                 ? fmt::format(
                                       "; one writer alone measured {}, {:.0f}x faster than these beside the "
                                       "fsync'd foreground",
                                       flood_rate(in.writer_alone_bps), in.writer_alone_bps / in.writer_bps)
                                 : "";
  if (v.seconds_at_background >= kHeldSeconds) {
    return fmt::format(
        "the writer's speed: Dirty + Writeback held at the background threshold for {:.0f} s, "
        "writeback draining the writer as fast as it wrote (the device wrote {} then; {} at {} over "
        "the phase), so it never got further (more writers: --bg-writers, or a less loaded CPU){}",
        v.seconds_at_background, flood_rate(v.background_device_bps), writer_text(in), flood_rate(in.writer_bps),
        slowed);
  }
  if (v.device_wrote && in.writer_bps <= v.device_bps * 1.1) {
    return fmt::format(
        "the writer's speed: {} dirtied pages at {}, no faster than the device wrote them back "
        "({}), so writeback kept up (more writers: --bg-writers, or a less loaded CPU){}",
        writer_text(in), flood_rate(in.writer_bps), flood_rate(v.device_bps), slowed);
  }
  const double net = in.writer_bps - (v.device_wrote ? v.device_bps : 0);
  const double needed_s = net > 0 ? throttle / net : 0;
  if (needed_s > in.phase_seconds) {
    return fmt::format(
        "the writer's speed: at {} ({} net of the device's writing) it needs ~{:.1f} s to reach "
        "{}, longer than the {:.0f} s phase (a longer --budget, or more writers: --bg-writers){}",
        flood_rate(in.writer_bps), flood_rate(net), needed_s, flood_mib(throttle), in.phase_seconds, slowed);
  }
  return fmt::format(
      "unexplained: {} at {}{}; a memory cgroup's own dirty limit, or memory pressure, may have "
      "held it lower",
      writer_text(in), flood_rate(in.writer_bps), v.device_wrote ? ", device " + flood_rate(v.device_bps) : "");
}

}  // namespace

std::uint64_t throttle_point(const DirtyLimits& limits) { return (limits.limit_bytes + limits.background_bytes) / 2; }

FloodVerdict verify_flood(const FloodInput& in) {
  FloodVerdict v;
  v.throttle_bytes = throttle_point(in.limits);
  v.limit_bytes = in.limits.limit_bytes;
  v.writer_bps = in.writer_bps;
  double previous_t = 0, device_seconds = 0, device_bytes = 0, closest = -1, background_bytes = 0;
  for (const WritebackSample& s : in.samples) {
    const double spacing = std::max(0.0, s.t_s - previous_t);
    previous_t = s.t_s;
    const std::uint64_t in_memory = s.dirty_bytes + s.writeback_bytes;
    v.peak_dirty_bytes = std::max(v.peak_dirty_bytes, s.dirty_bytes);
    v.peak_in_memory_bytes = std::max(v.peak_in_memory_bytes, in_memory);
    // The kernel's thresholds at this sample when it exports them (they move with free memory), else the phase's.
    DirtyLimits at = in.limits;
    if (s.dirty_threshold_bytes > 0) {
      at.limit_bytes = s.dirty_threshold_bytes;
      at.background_bytes = s.background_threshold_bytes;
    }
    const double throttle = static_cast<double>(throttle_point(at));
    if (throttle > 0 && static_cast<double>(in_memory) / throttle > closest) {
      closest = static_cast<double>(in_memory) / throttle;  // report the thresholds where it came closest
      v.throttle_bytes = throttle_point(at);
      v.limit_bytes = at.limit_bytes;
    }
    const double background = static_cast<double>(at.background_bytes);
    if (background > 0 && std::abs(static_cast<double>(in_memory) - background) <= (1 - kReachTolerance) * background) {
      v.seconds_at_background += spacing;
      background_bytes += static_cast<double>(s.dev_write_bytes);
    }
    if (static_cast<double>(in_memory) >= throttle * kReachTolerance) {
      if (v.first_reached_s < 0) v.first_reached_s = s.t_s;
      v.seconds_at_limit += spacing;
    }
    if (s.dev_write_bytes > 0) {
      device_seconds += spacing;
      device_bytes += static_cast<double>(s.dev_write_bytes);
    }
  }
  v.background_device_bps = v.seconds_at_background > 0 ? background_bytes / v.seconds_at_background : 0;
  v.device_wrote = device_bytes > 0;
  v.device_bps = device_seconds > 0 ? device_bytes / device_seconds : 0;
  v.reached = v.first_reached_s >= 0;
  const std::string writer = fmt::format("{} at {}", writer_text(in), flood_rate(in.writer_bps));
  const std::string device = !in.device_known ? "device writes unknown (not a block device sluice can read)"
                             : v.device_wrote ? "the device wrote " + flood_rate(v.device_bps)
                                              : "the device wrote nothing";
  if (v.reached) {
    v.text = fmt::format(
        "flood verified: Dirty + Writeback reached {} of the {} throttle point (dirty limit {}) at "
        "t = {:.0f} s and stayed there {:.0f} s of {:.0f}; {}; {}",
        flood_mib(double(v.peak_in_memory_bytes)), flood_mib(double(v.throttle_bytes)),
        flood_mib(double(v.limit_bytes)), v.first_reached_s, v.seconds_at_limit, in.phase_seconds, writer, device);
    return v;
  }
  v.why = cause(in, v);
  v.text = fmt::format(
      "the background writer never reached the dirty limit (peak Dirty {} of {}; Dirty + "
      "Writeback {}, throttling starts at {}): this run does not test writeback interference. "
      "Why: {}. ({}; {})",
      flood_mib(double(v.peak_dirty_bytes)), flood_mib(double(v.limit_bytes)),
      flood_mib(double(v.peak_in_memory_bytes)), flood_mib(double(v.throttle_bytes)), v.why, writer, device);
  return v;
}

nlohmann::json flood_json(const FloodVerdict& v) {
  return {{"reached_dirty_limit", v.reached},
          {"throttle_point_bytes", v.throttle_bytes},
          {"dirty_limit_bytes", v.limit_bytes},
          {"peak_dirty_bytes", v.peak_dirty_bytes},
          {"peak_dirty_plus_writeback_bytes", v.peak_in_memory_bytes},
          {"first_reached_s", v.reached ? nlohmann::json(v.first_reached_s) : nlohmann::json(nullptr)},
          {"seconds_at_limit", v.seconds_at_limit},
          {"writer_bytes_per_s", v.writer_bps},
          {"device_write_bytes_per_s", v.device_bps},
          {"device_wrote", v.device_wrote},
          {"seconds_at_background_threshold", v.seconds_at_background},
          {"why_not", v.reached ? nlohmann::json(nullptr) : nlohmann::json(v.why)},
          {"message", v.text}};
}

}  // namespace sluice
