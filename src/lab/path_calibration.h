#pragma once
// The path's own time: what a request to a lab device costs besides the model's time (the kernel's way
// through the loop device and FUSE to the daemon and back). lab up measures it with the daemon answering at
// once, then has the daemon send each reply that much before the model's time, so that a benchmark at depth 1
// measures the model, not the model plus the path (docs/lab.md, "The path and its compensation").
#include <chrono>
#include <cstdint>
#include <string>

namespace sluice {

struct PathMeasurement {
  std::chrono::nanoseconds mean{0};    // of all but the slowest 1%
  std::chrono::nanoseconds median{0};  // what lab up compensates: a burst of other work moves it least
  std::chrono::nanoseconds p10{0};
  std::chrono::nanoseconds p90{0};
  unsigned samples = 0;
};

// Times 4 KiB direct reads of `device` (at offsets spread over its `size` bytes, one at a time, after a few
// unmeasured ones) while the daemon behind `control` (its control file) answers each `delay` after its arrival,
// as the model would (an idle CPU wakes slower than a busy one: the path depends on the gaps); each sample is
// the read's time less `delay`. Up to 1000 reads, fewer when the delay is long (about 1 s in all, at least
// 200). Sets the daemon back to the model afterwards, also when it fails. Throws UserError when the device or
// the control file cannot be used.
PathMeasurement measure_path(const std::string& device, const std::string& control, std::uint64_t size,
                             std::chrono::nanoseconds delay);

// Sets the daemon behind `control` to send replies `path` before the model's time (0: no compensation).
void set_path_compensation(const std::string& control, std::chrono::nanoseconds path);

}  // namespace sluice
