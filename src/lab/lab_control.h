#pragma once
// The lab daemon's control file (MOUNTPOINT/control, writable by its owner): one setting per write, as text.
//   calibrating=1   every request is answered at once, the model sees nothing (lab up measures the path)
//   calibrating=0   back to the model
//   path=DURATION   replies leave that much before the model's time (the path's own time, measured), e.g. 95us
// `echo path=0 > MOUNTPOINT/control` turns the compensation off on a running lab.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace sluice {

struct LabControl {
  std::optional<bool> calibrating;
  std::optional<std::chrono::nanoseconds> path;
};

// The setting in `text` (one line, a trailing newline allowed); nullopt when it is not one of the above or
// the path is negative or above 1 s.
std::optional<LabControl> parse_lab_control(std::string_view text);

// The text that parse_lab_control reads back as `setting` (exactly one of its fields set).
std::string lab_control_text(const LabControl& setting);

}  // namespace sluice
