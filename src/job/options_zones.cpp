// fio's zones: zonemode=strided (zonesize, zonerange, zoneskip) and zonemode=zbd (zone write pointers, kept
// in memory as fio keeps them for files and devices that are not zoned: run/zoned_file.h) with its options.
#include <fmt/format.h>

#include <charconv>
#include <optional>

#include "common/error.h"
#include "job/option_builders.h"

namespace sluice::detail {
namespace {

// zone_reset_threshold / zone_reset_frequency: a fraction from 0 to 1 (fio's float options).
OptionDef fraction_option(const std::string& name, const JobField<double>& member, std::string help) {
  return {
      .name = name,
      .type = OptionType::kFloatList,
      .default_text = "0",
      .range = "0-1",
      .category = "workload",
      .help = std::move(help),
      .apply =
          [member, n = name](JobSpec& job, std::string_view value, const SourcePos& where) {
            double fraction = 0;
            const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), fraction);
            if (ec != std::errc() || end != value.data() + value.size() || !(fraction >= 0.0 && fraction <= 1.0)) {
              value_error(where, n, value, "a fraction from 0 to 1 (e.g. 0.7)");
            }
            member(job) = fraction;
          },
  };
}

void add_zbd_options(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {size_option(
           "zonecapacity", &ZoneOptions::zone_capacity, "0",
           {.category = "workload",
            .help = "zonemode=zbd: the bytes of each zone that can be written (at most zonesize); 0 means zonesize."}),
       bool_option(
           "read_beyond_wp", &ZoneOptions::read_beyond_wp, "0",
           {.category = "workload",
            .help = "zonemode=zbd: reads may go past a zone's write pointer (else they stay in written data, and a job "
                    "with nothing written to read ends at once)."}),
       u32_option("max_open_zones", &ZoneOptions::max_open_zones, 0, 4096, "0",
                  {.unit = "zones",
                   .category = "workload",
                   .help = "zonemode=zbd: zones written at the same time, by all the run's jobs on a file; a write to "
                           "another zone goes to one of the open ones. 0: no limit."}),
       u32_option(
           "job_max_open_zones", &ZoneOptions::job_max_open_zones, 0, 4096, "0",
           {.unit = "zones",
            .category = "workload",
            .help = "zonemode=zbd: zones this job writes at the same time (needs max_open_zones). 0: no limit."}),
       bool_option(
           "ignore_zone_limits", &ZoneOptions::ignore_zone_limits, "0",
           {.category = "workload",
            .help = "zonemode=zbd: ignore the device's own open-zone limit. Accepted: the zones sluice keeps have no "
                    "device limit, only max_open_zones."}),
       fraction_option("zone_reset_threshold", &ZoneOptions::zone_reset_threshold,
                       "zonemode=zbd: with zone_reset_frequency, zones are reset early only once this share of the "
                       "job's range holds data."),
       fraction_option("zone_reset_frequency", &ZoneOptions::zone_reset_frequency,
                       "zonemode=zbd: past zone_reset_threshold, one write in 1/this resets its zone first. 0: zones "
                       "are reset only when full.")});
}

// "Nz": N zones; nullopt for any other value.
std::optional<std::uint64_t> zone_count(std::string_view value) {
  if (value.size() < 2 || value.back() != 'z') return std::nullopt;
  std::uint64_t count = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size() - 1, count);
  if (ec != std::errc() || end != value.data() + value.size() - 1) return std::nullopt;
  return count;
}

}  // namespace

OptionDef accept_zone_counts(OptionDef def) {
  def.apply = [inner = def.apply](JobSpec& job, std::string_view value, const SourcePos& where) {
    inner(job, zone_count(value) ? std::string_view("0") : value, where);  // bytes once zonesize is known
  };
  def.help += " Also in zones, as fio: Nz is N times zonesize.";
  return def;
}

void apply_zone_counts(JobSpec& job) {
  for (const char* name : {"size", "io_size", "offset", "offset_increment", "zoneskip"}) {
    const auto given = job.given_options.find(name);
    if (given == job.given_options.end()) continue;
    const std::optional<std::uint64_t> count = zone_count(given->second);
    if (!count) continue;
    if (job.zones.zone_size == 0) {
      throw UserError(fmt::format("{}: {}={}: a size in zones needs zonesize (with zonemode=strided or zbd)",
                                  job.where.describe(), name, given->second));
    }
    if (*count > UINT64_MAX / job.zones.zone_size) {
      throw UserError(fmt::format("{}: {}={}: too many zones of {} bytes", job.where.describe(), name, given->second,
                                  job.zones.zone_size));
    }
    const std::uint64_t bytes = *count * job.zones.zone_size;
    const std::string_view option = name;
    if (option == "size") job.target.size = SizeOrPercent{bytes, 0.0};
    if (option == "io_size") job.time.io_size = bytes;
    if (option == "offset") job.target.offset = SizeOrPercent{bytes, 0.0};
    if (option == "offset_increment") job.target.offset_increment = bytes;
    if (option == "zoneskip") job.zones.zone_skip = bytes;
  }
}

void add_zone_options(std::vector<OptionDef>& table) {
  table.insert(
      table.end(),
      {{
           .name = "zonemode",
           .type = OptionType::kChoice,
           .default_text = "none",
           .range = "none|strided|zbd",
           .category = "workload",
           .help = "strided: the job's I/O stays in one zone of zonerange bytes (random offsets are drawn inside it) "
                   "until zonesize bytes were transferred, then moves zonerange + zoneskip bytes on, back to the start "
                   "past the file's end; the job's size still sets the bytes transferred. As fio, it needs zonesize "
                   "and is ignored when a job has more than one file. zbd: each file is cut in zones of zonesize bytes "
                   "with a write pointer each, kept in memory and shared by the run's jobs on the file, as fio does on "
                   "files and devices that are not zoned: writes go to a zone's write pointer, reads stay below it.",
           .apply =
               [](JobSpec& job, std::string_view value, const SourcePos& where) {
                 static const std::vector<std::string> kChoices = {"none", "strided", "zbd"};
                 const std::size_t choice = choice_value("zonemode", value, where, kChoices);
                 job.zones.zone_strided = choice == 1;
                 job.zones.zone_zbd = choice == 2;
               },
       },
       size_option(
           "zonesize", &ZoneOptions::zone_size, "0",
           {.category = "workload",
            .help = "zonemode=strided: bytes transferred in a zone before moving to the next. Smaller than zonerange: "
                    "only part of each zone is used; larger: each zone is gone over again until zonesize bytes are "
                    "done. zonemode=zbd: the size of each zone (at least 512 bytes)."}),
       size_option(
           "zonerange", &ZoneOptions::zone_range, "0",
           {.category = "workload", .help = "zonemode=strided: the size of a zone; 0 means zonesize (fio's default)."}),
       accept_zone_counts(size_option(
           "zoneskip", &ZoneOptions::zone_skip, "0",
           {.category = "workload",
            .help = "zonemode=strided: bytes skipped after each zone; zonemode=zbd: the same for sequential jobs (a "
                    "multiple of zonesize)."}))});

  add_zbd_options(table);
}

}  // namespace sluice::detail
