// The assembled option table, lookup by name or alias, "did you mean" and apply_option.
#include "job/option_table.h"

#include <unordered_map>

#include "job/option_builders.h"

namespace sluice {
namespace {

std::vector<OptionDef> build_table() {
  std::vector<OptionDef> table;
  detail::add_target_options(table);
  detail::add_workload_options(table);
  detail::add_engine_options(table);
  detail::add_time_rate_options(table);
  detail::add_report_options(table);
  detail::add_fio_engine_options(table);
  detail::add_fio_control_options(table);
  detail::add_sluice_options(table);
  detail::add_verify_options(table);
  detail::add_placement_options(table);
  detail::add_uring_options(table);
  detail::add_cmdprio_options(table);
  detail::add_numa_options(table);
  detail::add_memory_options(table);
  detail::add_sync_range_options(table);
  detail::add_noio_engine_options(table);
  detail::add_iolog_options(table);
  detail::add_zone_options(table);
  detail::add_sprandom_options(table);
  return table;
}

const std::unordered_map<std::string_view, const OptionDef*>& option_index() {
  static const std::unordered_map<std::string_view, const OptionDef*> kIndex = [] {
    std::unordered_map<std::string_view, const OptionDef*> index;
    for (const OptionDef& def : option_table()) {
      index.emplace(def.name, &def);
      for (const std::string& alias : def.aliases) index.emplace(alias, &def);
    }
    return index;
  }();
  return kIndex;
}

const std::vector<std::string>& all_option_names() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const OptionDef& def : option_table()) {
      names.push_back(def.name);
      names.insert(names.end(), def.aliases.begin(), def.aliases.end());
    }
    return names;
  }();
  return kNames;
}

[[noreturn]] void unknown_option(std::string_view name, std::string_view value, const SourcePos& where) {
  const std::string nearest = nearest_option(name);
  std::string message;
  if (where.file.empty()) {
    message = "--" + std::string(name);
    if (!value.empty()) message += "=" + std::string(value);
    message += ": unknown option";
    if (!nearest.empty()) message += "; did you mean --" + nearest + "?";
  } else {
    message = where.describe() + ": unknown option '" + std::string(name) + "'";
    if (!nearest.empty()) message += "; did you mean '" + nearest + "'?";
  }
  throw UserError(message);
}

}  // namespace

const std::vector<OptionDef>& option_table() {
  static const std::vector<OptionDef> kTable = build_table();
  return kTable;
}

const OptionDef* find_option(std::string_view name) {
  const auto& index = option_index();
  const auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

std::string nearest_option(std::string_view name) { return detail::nearest_of(name, all_option_names()); }

void apply_option(JobSpec& job, std::string_view name, std::string_view value, const SourcePos& where) {
  const OptionDef* def = find_option(name);
  if (def == nullptr) unknown_option(name, value, where);
  if (value.empty() && !def->flag && def->type != OptionType::kString) {
    const std::string prefix = where.file.empty() ? "--" : where.describe() + ": ";
    throw UserError(prefix + std::string(name) + ": value missing; use " + (where.file.empty() ? "--" : "") +
                    std::string(name) + "=VALUE");
  }
  def->apply(job, value, where);
  job.given_options[def->name] = std::string(value);
  job.option_pos[def->name] = where;
  if (def->given_flag != nullptr) job.explicitly_given.*(def->given_flag) = true;
}

}  // namespace sluice
