#pragma once
// How many background writers `sluice interfere` runs. A bulk copy is one writer, and one is used when it can
// reach the kernel's throttle point (interfere_flood.h) early in a phase; when its own speed (a busy CPU, small
// blocks) cannot, several writers, each on its own file, flood together, as several copies would.
#include <chrono>
#include <cstdint>
#include <string>

namespace sluice {

// The smallest writer count in [1, max_writers] for which `writers` x `one_writer_bps` reaches `throttle_bytes`
// within a third of the phase (so that at least two thirds of it run flooded); max_writers when none does,
// 1 when the rate is unknown (0). Assumes writers add up, which holds while each has a CPU: pass the CPU count.
std::uint32_t choose_writers(double one_writer_bps, std::uint64_t throttle_bytes, std::chrono::nanoseconds phase,
                             std::uint32_t max_writers);

// The most writers sluice starts on its own: the CPUs less one, left to the foreground (writers copying into
// the page cache on every CPU slow the foreground by taking its CPU, which is not what is measured), at least 1
// and at most 4.
std::uint32_t max_auto_writers();

// One writer's speed into the page cache: buffered sequential writes of `bs` to `file` until `bytes` are
// written (a plain foreground job, run by the runner), then the file is removed and its pages written back.
// Returns bytes/s, 0 when nothing was written. `bytes` should stay below the background threshold, or the
// writer is measured throttled.
double probe_writer_rate(const std::string& file, std::uint64_t bs, std::uint64_t bytes);

}  // namespace sluice
