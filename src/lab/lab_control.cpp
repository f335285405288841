#include "lab/lab_control.h"

#include <fmt/format.h>

#include "job/units.h"

namespace sluice {
namespace {

std::optional<std::chrono::nanoseconds> control_duration(std::string_view text) {
  const std::optional<std::chrono::nanoseconds> d = parse_duration(text, std::chrono::microseconds(1));
  if (!d || d->count() < 0 || *d > std::chrono::seconds(1)) return std::nullopt;
  return d;
}

}  // namespace

std::optional<LabControl> parse_lab_control(std::string_view text) {
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  if (text == "model") return LabControl{LabControl::Kind::kModel, std::chrono::nanoseconds(0)};
  for (const auto& [prefix, kind] : {std::pair{std::string_view("calibrate="), LabControl::Kind::kCalibrate},
                                     std::pair{std::string_view("path="), LabControl::Kind::kPath}}) {
    if (!text.starts_with(prefix)) continue;
    const std::optional<std::chrono::nanoseconds> value = control_duration(text.substr(prefix.size()));
    if (!value) return std::nullopt;
    return LabControl{kind, *value};
  }
  return std::nullopt;
}

std::string lab_control_text(const LabControl& setting) {
  switch (setting.kind) {
    case LabControl::Kind::kCalibrate:
      return fmt::format("calibrate={}ns\n", setting.value.count());
    case LabControl::Kind::kPath:
      return fmt::format("path={}ns\n", setting.value.count());
    case LabControl::Kind::kModel:
      break;
  }
  return "model\n";
}

}  // namespace sluice
