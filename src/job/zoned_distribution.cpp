// random_distribution=zoned:... and zoned_abs:... (JESD219-style access zones), parsed as fio 3.x does
// (options.c: split_parse_ddir, zone_split_ddir, str_split_parse):
//  - "access/size:access/size:..." with up to 256 zones; "r[,w[,t]]" per direction like bssplit; one list
//    applies to all directions, an empty element gives that direction no zones (uniform random).
//  - zoned: sizes are percentages of the region; a size of 0 or left out shares what the others leave of
//    100%; zoned_abs: sizes are absolute (4k, 20g, kb_base applies).
//  - access percentages must add up to exactly 100; zoned sizes to at most 100 (the rest of the region is
//    never accessed).
// sluice refuses what fio would silently mishandle: a zoned_abs zone without a size.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "job/option_builders.h"
#include "job/units.h"

namespace sluice::detail {
namespace {

constexpr std::size_t kMaxZones = 256;  // fio's ZONESPLIT_MAX

std::vector<AccessZone> parse_zone_list(std::string_view list, bool absolute, std::string_view whole,
                                        const SourcePos& where, std::uint32_t kb_base) {
  std::vector<AccessZone> zones;
  std::vector<bool> size_missing;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t colon = list.find(':', start);
    const std::string_view entry =
        list.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start);
    if (entry.empty()) break;  // fio stops at an empty entry ("50/5:30/15:20/80:")
    if (zones.size() == kMaxZones) value_error(where, "random_distribution", whole, "at most 256 zones");
    const std::size_t slash = entry.find('/');
    const std::string_view access = entry.substr(0, slash);
    const std::string_view size = slash == std::string_view::npos ? std::string_view{} : entry.substr(slash + 1);
    const auto percent = parse_double(access);
    // The range first: casting a value outside uint32_t (or NaN) is undefined (found by the option_value fuzzer).
    if (!percent || !(*percent >= 0 && *percent <= 100) ||
        *percent != static_cast<double>(static_cast<std::uint32_t>(*percent))) {
      value_error(where, "random_distribution", whole,
                  fmt::format("'{}': the access share before '/' must be a whole percentage (0-100)", entry));
    }
    AccessZone zone;
    zone.access_percent = static_cast<std::uint32_t>(*percent);
    if (absolute) {
      if (size.empty()) {
        value_error(where, "random_distribution", whole,
                    fmt::format("'{}': a zoned_abs zone needs a size after '/' (e.g. 60/20g)", entry));
      }
      zone.size = size_part("random_distribution", size, whole, where, kb_base);
      if (zone.size == 0) {
        value_error(where, "random_distribution", whole,
                    fmt::format("'{}': a zone of size 0 is never accessed", entry));
      }
      size_missing.push_back(false);
    } else {
      const auto size_percent = size.empty() ? std::optional<double>(0.0) : parse_double(size);
      if (!size_percent || !(*size_percent >= 0)) {  // also NaN, which the cast below must never see
        value_error(where, "random_distribution", whole,
                    fmt::format("'{}': the zone size after '/' must be a percentage of the region", entry));
      }
      zone.size = static_cast<std::uint64_t>(std::min(*size_percent, 100.0));  // fio clamps at 100
      size_missing.push_back(zone.size == 0);
    }
    zones.push_back(zone);
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (zones.empty()) return zones;

  std::uint64_t access_sum = 0, size_sum = 0, missing = 0;
  for (std::size_t i = 0; i < zones.size(); ++i) {
    access_sum += zones[i].access_percent;
    if (size_missing[i])
      ++missing;
    else if (!absolute)
      size_sum += zones[i].size;
  }
  if (access_sum != 100) {
    value_error(where, "random_distribution", whole,
                fmt::format("the access percentages add up to {}, not 100", access_sum));
  }
  if (!absolute && size_sum > 100) {
    value_error(where, "random_distribution", whole,
                fmt::format("the zone sizes add up to {}% of the region, more than 100%", size_sum));
  }
  for (std::size_t i = 0; i < zones.size(); ++i) {
    if (size_missing[i]) zones[i].size = (100 - size_sum) / missing;
  }
  return zones;
}

}  // namespace

Distribution parse_zoned_distribution(std::string_view value, const SourcePos& where, std::uint32_t kb_base) {
  const bool absolute = value.starts_with("zoned_abs");
  const std::string_view prefix = absolute ? "zoned_abs:" : "zoned:";
  if (!value.starts_with(prefix)) {
    value_error(where, "random_distribution", value,
                fmt::format("zones follow '{}', e.g. {}", prefix,
                            absolute ? "zoned_abs:60/20g:30/100g:10/500g" : "zoned:60/10:30/20:8/30:2/40"));
  }
  Distribution dist;
  dist.kind = absolute ? DistributionKind::kZonedAbs : DistributionKind::kZoned;
  apply_per_direction(dist.zones, "random_distribution", value.substr(prefix.size()), where,
                      [&](std::string_view part) { return parse_zone_list(part, absolute, value, where, kb_base); });
  return dist;
}

}  // namespace sluice::detail
