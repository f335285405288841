// fio's strided zones (zonemode=strided, zonesize, zonerange, zoneskip). zonemode=zbd and its options
// (zoned block devices) stay refused by name in options_unsupported.cpp.
#include "job/option_builders.h"

namespace sluice::detail {

void add_zone_options(std::vector<OptionDef>& table) {
  OptionDef mode;
  mode.name = "zonemode";
  mode.type = OptionType::kChoice;
  mode.default_text = "none";
  mode.range = "none|strided";
  mode.help =
      "strided: the job's I/O stays in one zone of zonerange bytes (random offsets are drawn inside it) until "
      "zonesize bytes were transferred, then moves zonerange + zoneskip bytes on, back to the start past the "
      "file's end; the job's size still sets the bytes transferred. As fio, it needs zonesize and is ignored "
      "when a job has more than one file. zbd (zone write pointers: zoned block devices, emulated by fio on "
      "regular files) is not supported yet.";
  mode.apply = [](JobSpec& job, std::string_view value, const SourcePos& where) {
    if (value == "zbd") {
      value_error(where, "zonemode", value,
                  "not supported by sluice yet (zone write pointers, of zoned block devices or emulated on files as "
                  "fio does, are not implemented); supported: none, strided");
    }
    static const std::vector<std::string> kChoices = {"none", "strided"};
    job.zone_strided = choice_value("zonemode", value, where, kChoices) == 1;
  };
  mode.category = "workload";
  table.push_back(std::move(mode));

  OptionDef size = size_option("zonesize", &JobSpec::zone_size, "0");
  size.help =
      "zonemode=strided: bytes transferred in a zone before moving to the next. Smaller than zonerange: only "
      "part of each zone is used; larger: each zone is gone over again until zonesize bytes are done.";
  size.category = "workload";
  table.push_back(std::move(size));

  OptionDef range = size_option("zonerange", &JobSpec::zone_range, "0");
  range.help = "zonemode=strided: the size of a zone; 0 means zonesize (fio's default).";
  range.category = "workload";
  table.push_back(std::move(range));

  OptionDef skip = size_option("zoneskip", &JobSpec::zone_skip, "0");
  skip.help = "zonemode=strided: bytes skipped after each zone.";
  skip.category = "workload";
  table.push_back(std::move(skip));
}

}  // namespace sluice::detail
