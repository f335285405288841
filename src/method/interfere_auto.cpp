#include "method/interfere_auto.h"

#include <algorithm>
#include <cstdint>

#include "common/error.h"

namespace sluice {
namespace {

struct DirtyStep {
  std::uint64_t limit;
  const char* limit_text;
  const char* background_text;
};
constexpr std::uint64_t kAutoMiB = 1ull << 20;
constexpr DirtyStep kDirtySteps[] = {
    {256 * kAutoMiB, "256M", "64M"}, {64 * kAutoMiB, "64M", "16M"}, {15 * kAutoMiB, "15M", "5M"}};
constexpr const char* kAutoSchedulers[] = {"bfq", "mq-deadline", "none"};
constexpr std::uint64_t kShortQueue = 32;

std::string read_or_empty(const std::string& knob, const std::string& device, const KnobRoots& roots) {
  try {
    return read_knob(knob, device, roots);
  } catch (const UserError&) {
    return "";
  }
}

}  // namespace

QueueState read_queue_state(const std::string& device, const KnobRoots& roots) {
  QueueState q;
  if (device.empty()) return q;
  q.scheduler = read_or_empty("queue.scheduler", device, roots);
  q.wbt_lat_usec = read_or_empty("queue.wbt_lat_usec", device, roots);
  q.nr_requests = read_or_empty("queue.nr_requests", device, roots);
  try {
    FileKnobIo io;
    q.schedulers = scheduler_choices(io.read(knob_path("queue.scheduler", device, roots)));
  } catch (const UserError&) {
  }
  return q;
}

std::vector<std::vector<KnobSetting>> auto_trials(const DirtyLimits& limits, const QueueState& queue) {
  std::vector<std::vector<KnobSetting>> trials;
  for (const DirtyStep& step : kDirtySteps) {
    if (step.limit >= limits.limit_bytes) continue;
    trials.push_back({{"vm.dirty_bytes", step.limit_text}, {"vm.dirty_background_bytes", step.background_text}});
  }
  if (!queue.wbt_lat_usec.empty()) trials.push_back({{"queue.wbt_lat_usec", queue.wbt_lat_usec == "0" ? "2000" : "0"}});
  for (const char* scheduler : kAutoSchedulers) {
    const bool offered =
        std::find(queue.schedulers.begin(), queue.schedulers.end(), scheduler) != queue.schedulers.end();
    if (offered && queue.scheduler != scheduler) trials.push_back({{"queue.scheduler", scheduler}});
  }
  if (!queue.nr_requests.empty()) {
    try {
      if (std::stoull(queue.nr_requests) > kShortQueue)
        trials.push_back({{"queue.nr_requests", std::to_string(kShortQueue)}});
    } catch (const std::exception&) {
    }
  }
  return trials;
}

std::string trial_text(const std::vector<KnobSetting>& settings) {
  std::string out;
  for (const auto& [k, v] : settings) out += (out.empty() ? "" : ",") + k + "=" + v;
  return out;
}

}  // namespace sluice
