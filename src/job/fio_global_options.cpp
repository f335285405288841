// fio's global command-line options: their values checked as fio 3.33 checks them.
#include "job/fio_global_options.h"

#include <algorithm>
#include <charconv>

#include "common/error.h"
#include "common/nearest.h"
#include "job/units.h"

namespace sluice {
namespace {

// fio refuses a shorter --eta-interval ("eta interval time too short (250msec min)").
constexpr std::chrono::milliseconds kMinEtaInterval{250};

[[noreturn]] void option_error(std::string_view where, const std::string& what) {
  throw UserError(std::string(where) + ": " + what);
}

std::chrono::nanoseconds positive_duration(std::string_view where, const std::string& value) {
  // A bare number is seconds, as fio reads its time options without a unit.
  const auto parsed = parse_duration(value, std::chrono::seconds(1));
  if (!parsed || parsed->count() <= 0) option_error(where, "not a positive duration; e.g. 1, 500ms, 10s");
  return *parsed;
}

}  // namespace

void check_fio_max_jobs(std::string_view where, const std::string& value) {
  unsigned long count = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), count);
  if (ec != std::errc() || end != value.data() + value.size() || count == 0) {
    option_error(where, "not a positive number of jobs");
  }
}

int fio_terse_version(std::string_view where, const std::string& value) {
  if (value == "2" || value == "3" || value == "4" || value == "5") return value[0] - '0';
  option_error(where, "bad terse version format; fio's are 2, 3 (the default), 4 and 5");
}

std::chrono::nanoseconds fio_eta_newline(std::string_view where, const std::string& value) {
  return positive_duration(where, value);
}

std::chrono::nanoseconds fio_eta_interval(std::string_view where, const std::string& value) {
  const auto interval = positive_duration(where, value);
  if (interval < kMinEtaInterval) option_error(where, "eta interval time too short (250ms min, as fio)");
  return interval;
}

void check_fio_debug(std::string_view where, const std::string& value) {
  const std::vector<std::string>& categories = fio_debug_categories();
  std::size_t start = 0;
  while (start <= value.size()) {
    const std::size_t comma = std::min(value.find(',', start), value.size());
    const std::string item = value.substr(start, comma - start);
    start = comma + 1;
    if (item == "?" || std::find(categories.begin(), categories.end(), item) != categories.end()) continue;
    const std::string nearest = nearest_of(item, categories);
    option_error(where,
                 "debug mask '" + item + "' not found" + (nearest.empty() ? "" : "; did you mean '" + nearest + "'?"));
  }
}

const std::vector<std::string>& fio_debug_categories() {
  static const std::vector<std::string> kNames = {
      "process", "file",    "io",   "mem", "blktrace", "verify",   "random",      "parse",        "diskutil", "job",
      "mutex",   "profile", "time", "net", "rate",     "compress", "steadystate", "helperthread", "zbd",      "all"};
  return kNames;
}

}  // namespace sluice
