#include "lab/lab_stats.h"

#include <fmt/format.h>

#include "common/error.h"
#include "job/units.h"

namespace sluice {
namespace {

std::string mean_time_text(const nlohmann::json& op, const char* key, double count) {
  return count > 0 ? format_duration_ns(op.at(key).get<double>() / count) : "-";
}

}  // namespace

std::string render_lab_stats_text(const nlohmann::json& stats, const std::string& where) {
  try {
    std::string out = fmt::format("lab at {}: model {}, {} written\n\n", where, stats.at("model").get<std::string>(),
                                  format_bytes(stats.at("bytes_written").get<double>()));
    out += fmt::format("{:<7}{:>10}{:>14}{:>14}{:>14}{:>14}\n", "op", "count", "bytes", "mean queue", "mean service",
                       "mean total");
    for (const char* name : {"read", "write", "flush"}) {
      const nlohmann::json& op = stats.at("ops").at(name);
      const double count = op.at("count").get<double>();
      out += fmt::format("{:<7}{:>10}{:>14}{:>14}{:>14}{:>14}\n", name, op.at("count").get<std::uint64_t>(),
                         format_bytes(op.at("bytes").get<double>()), mean_time_text(op, "queued_ns", count),
                         mean_time_text(op, "service_ns", count), mean_time_text(op, "total_ns", count));
    }
    const double path = stats.value("path_ns", 0.0);
    out += path > 0 ? fmt::format("\nreplies leave {} before the model's time (the path, measured by lab up)\n",
                                  format_duration_ns(path))
                    : "\nno path compensation: a benchmark measures the model's time plus the path's\n";
    if (stats.contains("realtime")) {
      out += stats.value("realtime", false)
                 ? "the daemon's threads run in real time (SCHED_FIFO): a CPU hog delays the path, not the replies\n"
                 : "the daemon's threads run at normal priority (SCHED_FIFO refused: not root?): a busy machine "
                   "delays its replies\n";
    }
    const nlohmann::json faults = stats.value("faults", nlohmann::json::array());
    if (!faults.empty()) {
      out += "\nfaults injected (the model's fault rules, first match decides):\n";
      for (const nlohmann::json& f : faults) {
        out += fmt::format("  {:<40}{:>8}\n", f.at("rule").get<std::string>(), f.at("fired").get<std::uint64_t>());
      }
    }
    return out;
  } catch (const nlohmann::json::exception& e) {
    throw UserError(fmt::format("{}: not a lab daemon's record ({})", where, e.what()));
  }
}

}  // namespace sluice
