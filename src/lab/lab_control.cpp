#include "lab/lab_control.h"

#include <fmt/format.h>

#include "job/units.h"

namespace sluice {

std::optional<LabControl> parse_lab_control(std::string_view text) {
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  LabControl setting;
  if (text == "calibrating=1") {
    setting.calibrating = true;
  } else if (text == "calibrating=0") {
    setting.calibrating = false;
  } else if (text.starts_with("path=")) {
    const std::optional<std::chrono::nanoseconds> path =
        parse_duration(text.substr(5), std::chrono::microseconds(1));
    if (!path || path->count() < 0 || *path > std::chrono::seconds(1)) return std::nullopt;
    setting.path = *path;
  } else {
    return std::nullopt;
  }
  return setting;
}

std::string lab_control_text(const LabControl& setting) {
  if (setting.calibrating) return fmt::format("calibrating={}\n", *setting.calibrating ? 1 : 0);
  return fmt::format("path={}ns\n", setting.path.value_or(std::chrono::nanoseconds(0)).count());
}

}  // namespace sluice
