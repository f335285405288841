// fio's global command-line options: checked as fio 3.33 checks them, stored in RunOptions.
#include "job/fio_global_options.h"

#include <algorithm>
#include <charconv>
#include <chrono>

#include "common/error.h"
#include "job/option_builders.h"
#include "job/units.h"

namespace sluice {
namespace {

// fio refuses a shorter --eta-interval ("eta interval time too short (250msec min)").
constexpr std::chrono::milliseconds kMinEtaInterval{250};

const std::vector<std::string>& trigger_names() {
  static const std::vector<std::string> kNames = {"trigger-file", "trigger-timeout", "trigger", "trigger-remote"};
  return kNames;
}

bool one_of(std::string_view name, const std::vector<std::string>& names) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

[[noreturn]] void option_error(std::string_view name, const std::string& value, bool has_value,
                               const std::string& what) {
  std::string text = "--" + std::string(name);
  if (has_value) text += "=" + value;
  throw UserError(text + ": " + what);
}

std::chrono::nanoseconds positive_duration(std::string_view name, const std::string& value, bool has_value) {
  // A bare number is seconds, as fio reads its time options without a unit.
  const auto parsed = parse_duration(value, std::chrono::seconds(1));
  if (!parsed || parsed->count() <= 0) option_error(name, value, has_value, "not a positive duration; e.g. 1, 500ms, 10s");
  return *parsed;
}

void apply_terse_version(const std::string& value, bool has_value, RunOptions& run) {
  if (value == "2" || value == "3" || value == "4" || value == "5") {
    run.terse_version = value[0] - '0';
    return;
  }
  option_error("terse-version", value, has_value, "bad terse version format; fio's are 2, 3 (the default), 4 and 5");
}

void apply_debug(const std::string& value, bool has_value, RunOptions& run) {
  (void)run;  // sluice has no debug trace of its own: the categories are checked, then accepted
  std::size_t start = 0;
  while (start <= value.size()) {
    const std::size_t comma = std::min(value.find(',', start), value.size());
    const std::string item = value.substr(start, comma - start);
    start = comma + 1;
    if (item == "?" || one_of(item, fio_debug_categories())) continue;
    const std::string nearest = detail::nearest_of(item, fio_debug_categories());
    option_error("debug", value, has_value,
                 "debug mask '" + item + "' not found" + (nearest.empty() ? "" : "; did you mean '" + nearest + "'?"));
  }
}

}  // namespace

const std::vector<std::string>& fio_global_option_names() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names = {"max-jobs",   "readonly",     "section",     "bandwidth-log",
                                      "minimal",    "terse-version", "append-terse", "eta-newline",
                                      "eta-interval", "warnings-fatal", "debug",    "aux-path",
                                      "inflate-log"};
    for (const std::string& t : trigger_names()) names.push_back(t);
    return names;
  }();
  return kNames;
}

bool fio_global_option_takes_value(std::string_view name) {
  return name == "max-jobs" || name == "section" || name == "terse-version" || name == "eta-newline" ||
         name == "eta-interval" || name == "debug" || name == "aux-path" || name == "inflate-log" ||
         one_of(name, trigger_names());
}

const std::vector<std::string>& fio_debug_categories() {
  static const std::vector<std::string> kNames = {
      "process", "file", "io",      "mem",  "blktrace", "verify",      "random",       "parse", "diskutil", "job",
      "mutex",   "profile", "time", "net",  "rate",     "compress",    "steadystate",  "helperthread", "zbd", "all"};
  return kNames;
}

void apply_fio_global_option(std::string_view name, const std::string& value, bool has_value, RunOptions& run) {
  if (one_of(name, trigger_names())) {
    option_error(name, value, has_value,
                 "not supported by sluice: fio's triggers run a command when a file appears or at a time, for "
                 "power-cut tests driven through fio's client/server mode, whose trigger command sluice's client and "
                 "server do not implement");
  }
  if (fio_global_option_takes_value(name) && value.empty()) {
    option_error(name, value, has_value, "value missing; use --" + std::string(name) + "=VALUE");
  }
  if (!fio_global_option_takes_value(name) && has_value) option_error(name, value, has_value, "takes no value");
  if (name == "max-jobs") {
    // fio 3.33 sizes its job table with it and runs more jobs anyway; sluice has no such table.
    unsigned long count = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), count);
    if (ec != std::errc() || end != value.data() + value.size() || count == 0) {
      option_error(name, value, has_value, "not a positive number of jobs");
    }
  } else if (name == "readonly") {
    run.readonly = true;
  } else if (name == "section") {
    run.sections.push_back(value);
  } else if (name == "bandwidth-log") {
    run.bandwidth_log = true;
  } else if (name == "minimal") {
    run.output_formats = {RunOptions::OutputFormat::kTerse};
  } else if (name == "append-terse") {
    if (std::find(run.output_formats.begin(), run.output_formats.end(), RunOptions::OutputFormat::kTerse) ==
        run.output_formats.end()) {
      run.output_formats.push_back(RunOptions::OutputFormat::kTerse);
    }
  } else if (name == "terse-version") {
    apply_terse_version(value, has_value, run);
  } else if (name == "eta-newline") {
    run.eta_newline = positive_duration(name, value, has_value);
  } else if (name == "eta-interval") {
    const auto interval = positive_duration(name, value, has_value);
    if (interval < kMinEtaInterval) option_error(name, value, has_value, "eta interval time too short (250ms min, as fio)");
    run.status_interval = interval;
  } else if (name == "warnings-fatal") {
    run.warnings_fatal = true;
  } else if (name == "debug") {
    apply_debug(value, has_value, run);
  } else if (name == "inflate-log") {
    run.inflate_log = value;
  } else if (name == "aux-path") {
    run.aux_path = value;  // the directory of the verify state files (verify_state_save / verify_state_load)
  }
}

}  // namespace sluice
