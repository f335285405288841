// --help and --cmdhelp text, generated from the option table.
#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "job/option_table.h"

namespace sluice {
namespace {

// The order of the sections in --help; a category missing here still gets a section, after these.
constexpr const char* kCategoryOrder[] = {"target", "workload",    "engine",       "placement", "time",
                                          "rate",   "job control", "steady state", "report",    "verify",
                                          "sluice", "compat",      "unsupported"};

std::string_view type_name(OptionType type) {
  switch (type) {
    case OptionType::kString:
      return "string";
    case OptionType::kBool:
      return "bool";
    case OptionType::kUnsigned:
      return "integer";
    case OptionType::kSigned:
      return "signed integer";
    case OptionType::kSize:
      return "size";
    case OptionType::kSizeList:
      return "per-direction list";
    case OptionType::kDuration:
      return "duration";
    case OptionType::kChoice:
      return "choice";
    case OptionType::kPercent:
      return "percent";
    case OptionType::kFloatList:
      return "number list";
    case OptionType::kCustom:
      return "special";
  }
  return "?";
}

std::string alias_list(const OptionDef& def) {
  std::string text;
  for (std::size_t i = 0; i < def.aliases.size(); ++i) text += (i > 0 ? ", " : "") + def.aliases[i];
  return text;
}

std::string name_with_aliases(const OptionDef& def) {
  return def.aliases.empty() ? def.name : def.name + " (" + alias_list(def) + ")";
}

std::string default_description(const OptionDef& def) {
  if (!def.default_text.empty()) return def.default_text;
  return "none (" + def.reason + ")";
}

std::string summary_line(const OptionDef& def) {
  std::string name = name_with_aliases(def);
  if (name.size() < 30) name.resize(30, ' ');
  std::string line = "  " + name + " ";
  if (!def.supported) return line + "not supported: " + def.reason + "\n";
  line += std::string(type_name(def.type));
  line += "; default " + (def.default_text.empty() ? std::string("none") : def.default_text);
  if (!def.unit.empty()) line += "; " + def.unit;
  if (!def.range.empty()) line += "; " + def.range;
  if (def.flag) line += "; may be given alone (= 1)";
  return line + ". " + def.help + "\n";
}

}  // namespace

std::string render_options_help() {
  std::vector<std::string> categories(std::begin(kCategoryOrder), std::end(kCategoryOrder));
  for (const OptionDef& def : option_table()) {
    if (std::find(categories.begin(), categories.end(), def.category) == categories.end()) {
      categories.insert(categories.end() - 1, def.category);  // before "unsupported"
    }
  }
  std::string text;
  for (const std::string& category : categories) {
    text += "\n" + category + " options:\n";
    for (const OptionDef& def : option_table()) {
      if (def.category == category) text += summary_line(def);
    }
  }
  text +=
      "\nSizes: 4k, 1m, 2g, 0x1000 (k = 1024; with kb_base=1000, k = 1000 while KiB stays 1024). "
      "Durations: 30 (seconds for runtime, microseconds for thinktime), 500ms, 2m, 1h.\n";
  return text;
}

std::string render_option_help(std::string_view name) {
  if (name == "all") return render_options_help();
  const OptionDef* def = find_option(name);
  if (def == nullptr) {
    std::string message = "unknown option '" + std::string(name) + "'";
    const std::string nearest = nearest_option(name);
    if (!nearest.empty()) message += "; did you mean '" + nearest + "'?";
    throw UserError(message);
  }
  std::string text = def->name + ": " + def->help + "\n";
  if (!def->aliases.empty()) text += "  aliases:  " + alias_list(*def) + "\n";
  if (!def->supported) return text + "  not supported by sluice: " + def->reason + "\n";
  text += "  type:     " + std::string(type_name(def->type)) + (def->flag ? " (may be given alone, = 1)" : "") + "\n";
  text += "  default:  " + default_description(*def) + "\n";
  if (!def->unit.empty()) text += "  unit:     " + def->unit + "\n";
  if (!def->range.empty()) text += "  range:    " + def->range + "\n";
  text += "  category: " + def->category + "\n";
  return text;
}

}  // namespace sluice
