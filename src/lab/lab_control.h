#pragma once
// The lab daemon's control file (MOUNTPOINT/control, writable by its owner): one setting per write, as text.
//   calibrate=DURATION  every request is answered DURATION after its arrival, the model sees nothing (lab up
//                       measures the path with the gaps of the model's own service: an idle CPU wakes slower)
//   model               back to the model
//   path=DURATION       replies leave that much before the model's time (the path's own time, measured)
// A bare DURATION is in microseconds. `echo path=0 > MOUNTPOINT/control` turns the compensation off.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace sluice {

struct LabControl {
  enum class Kind { kCalibrate, kModel, kPath };
  Kind kind = Kind::kModel;
  std::chrono::nanoseconds value{0};  // kCalibrate: each reply's delay; kPath: the path
};

// The setting in `text` (one line, a trailing newline allowed); nullopt when it is not one of the above or a
// duration is negative or above 1 s.
std::optional<LabControl> parse_lab_control(std::string_view text);

// The text that parse_lab_control reads back as `setting`.
std::string lab_control_text(const LabControl& setting);

}  // namespace sluice
